#include "cli_runner.hpp"

using weft::testing::run_weft;

namespace {

struct Case {
  const char* file;
  std::vector<std::string> smallest;  // --set arguments of the smallest configuration with the behaviour
};

std::vector<std::string> explore_args(const Case& c) {
  std::vector<std::string> args{"explore", c.file, "--set", "dma.execution=async"};
  for (const auto& set : c.smallest) args.insert(args.end(), {"--set", set});
  return args;
}

// Runs the `weft replay` command printed after `marker` in `text`.
weft::testing::Outcome replay_after(const std::string& text, const std::string& marker) {
  std::istringstream words(weft::testing::line_after(text, marker));
  std::vector<std::string> replay{"replay"};
  for (std::string word; words >> word;) replay.push_back(word);
  return run_weft(replay);
}

}  // namespace

TEST_CASE("explore proves the correct built-in scenarios free of failures on their smallest configuration",
          "[cli][explore]") {
  const std::vector<Case> cases{
      {"scenarios/right_permute.toml", {"topology.devices=2"}},
      {"scenarios/ring_all_gather.toml", {"topology.devices=3"}},
      {"scenarios/ring_all_reduce.toml", {"topology.devices=3"}},
      {"scenarios/core_pipeline.toml", {"topology.cores_per_device=2", "params.tiles=2"}},
      {"scenarios/ring_all_gather_double_buffered.toml", {"topology.devices=3"}},
      {"scenarios/dma_read_before_wait.toml", {"topology.devices=2"}},
      {"scenarios/two_cores_disjoint_halves.toml", {"topology.devices=1"}},
      {"scenarios/all_core_barrier.toml", {"topology.devices=1", "topology.cores_per_device=3"}},
      {"scenarios/pallas_matmul.toml", {"params.m=8"}},
      {"scenarios/pallas_paged_gather.toml", {"params.sequences=2"}},
      {"scenarios/pallas_all_reduce.toml", {"topology.devices=2"}},
      {"scenarios/pallas_inner_pipeline.toml", {"params.rows=16"}},
      {"scenarios/pallas_right_permute.toml", {"topology.devices=2"}},
      {"scenarios/pallas_reduce_scatter.toml", {"topology.devices=3"}},  // 2: one neighbour both ways
      {"scenarios/pallas_ragged_matmul.toml", {}},
      {"scenarios/pallas_ragged_reduction.toml", {}},
      {"scenarios/pallas_buffered_stream.toml", {}},
      {"scenarios/shared_semaphore_sizes.toml", {}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.file);
    const auto result = run_weft(explore_args(c));
    INFO(result.out << result.err);
    CHECK(result.status == 0);
    CHECK(result.out.find("space:    exhausted") != std::string::npos);
    CHECK(result.out.find("result:   as expected (expected ok)") != std::string::npos);
  }
}

TEST_CASE("explore finds the planted bug of every buggy built-in scenario, with a schedule that replays it",
          "[cli][explore]") {
  const std::vector<Case> cases{
      {"scenarios/barrier_deadlock.toml", {"topology.devices=2"}},
      {"scenarios/leftover_signal_leak.toml", {"topology.devices=2"}},
      {"scenarios/pipeline_off_by_one.toml", {"topology.cores_per_device=1", "params.tiles=2"}},
      {"scenarios/ring_wrong_direction.toml", {"topology.devices=3"}},
      {"scenarios/ring_wrong_direction_race.toml", {"topology.devices=3"}},
      {"scenarios/ring_all_gather_early_reuse_race.toml", {"topology.devices=3"}},
      {"scenarios/dma_read_before_wait_race.toml", {"topology.devices=1"}},
      {"scenarios/two_cores_one_output_race.toml", {"topology.devices=1"}},
      {"scenarios/all_core_barrier_missing_race.toml", {"topology.devices=1", "topology.cores_per_device=2"}},
      {"scenarios/pallas_matmul_shared_output_race.toml", {"params.n=8", "params.k=8"}},
      {"scenarios/pallas_matmul_revisit.toml", {"params.n=8"}},
      {"scenarios/pallas_paged_gather_shared_semaphore_race.toml", {"params.sequences=2"}},
      {"scenarios/pallas_all_reduce_capacity_late.toml", {}},
      {"scenarios/pallas_all_reduce_capacity_early_race.toml", {}},
      {"scenarios/pallas_inner_pipeline_overlap_race.toml", {"params.rows=16"}},
      {"scenarios/pallas_right_permute_no_wait_send.toml", {"topology.devices=2"}},
      {"scenarios/pallas_reduce_scatter_capacity_late.toml", {"topology.devices=2"}},
      {"scenarios/pallas_ragged_matmul_padding_read.toml", {}},
      {"scenarios/pallas_ragged_reduction_padding_read.toml", {}},
      {"scenarios/shared_semaphore_sizes_chunked_race.toml", {}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.file);
    const auto result = run_weft(explore_args(c));
    INFO(result.out << result.err);
    CHECK(result.status == 0);
    CHECK(result.out.find("result:   as expected") != std::string::npos);
    CHECK(replay_after(result.out, "    weft replay ").status == 0);  // the printed schedule gives the expected verdict
  }
}

TEST_CASE("explore refuses on_wait DMAs with a usage error", "[cli][explore]") {
  const auto result = run_weft({"explore", "right_permute", "--set", "dma.execution=on_wait"});
  CHECK(result.status == 2);
  // The key named once, as the source (it read "dma.execution: key 'dma.execution': ...").
  CHECK(result.err.rfind("weft: dma.execution: explore needs eager or async DMAs", 0) == 0);
  CHECK(result.err.find("key 'dma.execution'") == std::string::npos);
}

TEST_CASE("explore writes the trace of the first failure it finds", "[cli][explore]") {
  const auto json = weft::testing::temp_file("explore_trace.json", "");
  const auto result =
      run_weft({"explore", "scenarios/barrier_deadlock.toml", "--set", "topology.devices=2", "--trace", json});
  CHECK(result.status == 0);
  std::ifstream in(json);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("\"traceEvents\"") != std::string::npos);
  CHECK(text.find("deadlock") != std::string::npos);
}

TEST_CASE("explore reports each failure with the signature and the explanation a run gives it", "[cli][explore]") {
  const auto result = run_weft({"explore", "scenarios/ring_all_gather_early_reuse_race.toml", "--set",
                                "topology.devices=3", "--set", "dma.execution=async"});
  INFO(result.out << result.err);
  REQUIRE(result.status == 0);
  const std::string signature = weft::testing::line_after(result.out, "    signature: ");
  CHECK(signature.rfind("data_race: ", 0) == 0);
  CHECK(signature.find("ring_all_gather") != std::string::npos);
  // The whole report follows, with what a run's report has: why the accesses are unordered and
  // the line to move; its reproduce line replays the same report.
  const auto report = result.out.find("\nscenario: ");
  REQUIRE(report != std::string::npos);
  const std::string text = result.out.substr(report + 1, result.out.find("\nresult:   ") - report);
  CHECK(text.find("verdict:  data_race (expected data_race: as expected)") != std::string::npos);
  CHECK(text.find("why they are unordered:\n") != std::string::npos);
  CHECK(text.find("to fix it") != std::string::npos);
  const auto replayed = replay_after(text, "reproduce:\n  weft replay ");
  CHECK(replayed.status == 0);
  CHECK(replayed.out.find(text.substr(text.find("what happened:"),
                                      text.find("reproduce:") - text.find("what happened:"))) != std::string::npos);
}

namespace {

// The part of explore's report that does not depend on timing: everything but the runs' seconds
// and rate and the memory kept.
std::string without_timings(const std::string& out) {
  std::istringstream lines(out);
  std::string kept, line;
  while (std::getline(lines, line)) {
    if (line.rfind("runs:", 0) == 0)
      line = line.substr(0, line.find(" s, ") == std::string::npos ? line.size() : line.rfind(',', line.find(" s, ")));
    if (line.rfind("kept:", 0) == 0) continue;
    kept += line + "\n";
  }
  return kept;
}

}  // namespace

TEST_CASE("explore --jobs 2 reports what --jobs 1 does, where one run per class is the rule", "[cli][explore]") {
  // Race detection off, nothing polls: the same classes, runs and verdicts, line for line.
  for (const char* file : {"scenarios/lastzero4.toml", "scenarios/readers6.toml"}) {
    CAPTURE(file);
    const auto one = run_weft({"explore", file});
    const auto two = run_weft({"explore", file, "--jobs", "2"});
    INFO(one.out << two.out << two.err);
    CHECK(one.status == 0);
    CHECK(two.status == 0);
    CHECK(without_timings(two.out) == without_timings(one.out));
    CHECK(without_timings(one.out).find(" complete, one per interleaving class\n") != std::string::npos);
    CHECK(without_timings(one.out).find("verdicts:\n  ok: ") != std::string::npos);
    CHECK(two.out.find("space:    exhausted") != std::string::npos);
  }
}

// The runs line claims one run per interleaving class only where that holds: not after a run
// that a failure stopped midway, which --keep-going explores on from (docs/semantics.md §7).
TEST_CASE("explore --keep-going with failures does not claim one run per interleaving class", "[cli][explore]") {
  const auto racing = run_weft({"explore", "scenarios/dma_read_before_wait_race.toml", "--keep-going"});
  INFO(racing.out << racing.err);
  CHECK(racing.out.find("data_race: ") != std::string::npos);
  CHECK(racing.out.find("runs:     ") != std::string::npos);
  CHECK(racing.out.find("one per interleaving class") == std::string::npos);
  // Stopped at the first failure, the runs before it ran to their ends: the claim stands.
  const auto stopped = run_weft({"explore", "scenarios/dma_read_before_wait_race.toml"});
  CHECK(stopped.out.find(" complete, one per interleaving class") != std::string::npos);
  const auto clean = run_weft({"explore", "scenarios/lastzero4.toml", "--keep-going"});
  CHECK(clean.out.find(" complete, one per interleaving class") != std::string::npos);
}

TEST_CASE(
    "explore --jobs 2 proves the correct built-in scenarios and finds the planted bugs, with schedules that replay",
    "[cli][explore]") {
  const std::vector<Case> correct{
      {"scenarios/ring_all_reduce.toml", {"topology.devices=3"}},
      {"scenarios/all_core_barrier.toml", {"topology.devices=1", "topology.cores_per_device=3"}},
      {"scenarios/pallas_matmul.toml", {"params.m=8"}},
  };
  for (const auto& c : correct) {
    CAPTURE(c.file);
    auto args = explore_args(c);
    args.insert(args.end(), {"--jobs", "2"});
    const auto result = run_weft(args);
    INFO(result.out << result.err);
    CHECK(result.status == 0);
    CHECK(result.out.find("space:    exhausted") != std::string::npos);
    CHECK(result.out.find("result:   as expected (expected ok)") != std::string::npos);
  }
  const std::vector<Case> buggy{
      {"scenarios/barrier_deadlock.toml", {"topology.devices=2"}},
      {"scenarios/ring_all_gather_early_reuse_race.toml", {"topology.devices=3"}},
      {"scenarios/pallas_matmul_shared_output_race.toml", {"params.n=8", "params.k=8"}},
      {"scenarios/shared_semaphore_sizes_chunked_race.toml", {}},
  };
  for (const auto& c : buggy) {
    CAPTURE(c.file);
    auto args = explore_args(c);
    args.insert(args.end(), {"--jobs", "2"});
    const auto result = run_weft(args);
    INFO(result.out << result.err);
    CHECK(result.status == 0);
    CHECK(result.out.find("result:   as expected") != std::string::npos);
    CHECK(replay_after(result.out, "    weft replay ").status == 0);  // the printed schedule gives the expected verdict
  }
}

TEST_CASE("explore refuses --jobs with --preemption-bound", "[cli][explore]") {
  const auto result = run_weft({"explore", "scenarios/lastzero4.toml", "--jobs", "2", "--preemption-bound", "1"});
  CHECK(result.status == 2);
  CHECK(result.err.find("excludes") != std::string::npos);
}
