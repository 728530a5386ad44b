#include "cli_runner.hpp"

#include <array>
#include <set>

#include "sim/config/config_error.hpp"
#include "sim/sweep/shard.hpp"
#include "sim/sweep/sweep.hpp"

using weft::testing::run_weft;
using weft::testing::temp_file;

namespace {

// The failing seeds a sweep wrote as JSON lines (not its header and summary), in the order written.
std::vector<std::uint64_t> failing_seeds(const std::string& jsonl) {
  std::ifstream in(jsonl);
  std::vector<std::uint64_t> seeds;
  for (std::string line; std::getline(in, line);) {
    if (line.find("\"summary\":true") != std::string::npos || line.find("\"header\":true") != std::string::npos)
      continue;
    const auto at = line.find("\"seed\":");
    REQUIRE(at != std::string::npos);
    seeds.push_back(std::stoull(line.substr(at + 7)));
  }
  return seeds;
}

weft::sim::Environment fake_environment(std::map<std::string, std::string> variables) {
  return [variables](const std::string& name) -> std::optional<std::string> {
    const auto found = variables.find(name);
    return found == variables.end() ? std::nullopt : std::optional<std::string>(found->second);
  };
}

}  // namespace

TEST_CASE("sweep results do not depend on the number of jobs", "[cli][sweep]") {
  // Every seed of this scenario races: without --keep-going only the first one is reported.
  const std::vector<std::string> base{
      "sweep", "scenarios/ring_all_gather_early_reuse_race.toml", "--seeds", "0..40", "--expect", "ok"};
  for (const bool keep_going : {false, true}) {
    CAPTURE(keep_going);
    std::vector<std::vector<std::uint64_t>> results;
    std::vector<std::string> outputs;
    for (const char* jobs : {"1", "2"}) {
      auto args = base;
      const auto file = temp_file(std::string("jobs") + jobs + ".jsonl", "");
      args.insert(args.end(), {"--jobs", jobs, "--jsonl", file});
      if (keep_going) args.push_back("--keep-going");
      const auto result = run_weft(args);
      CHECK(result.status == 1);
      results.push_back(failing_seeds(file));
      outputs.push_back(result.out.substr(0, result.out.rfind("sweep: ")));
    }
    CHECK(results[0] == results[1]);
    CHECK(outputs[0] == outputs[1]);
    CHECK(results[0].size() == (keep_going ? 41u : 1u));
    CHECK(results[0].front() == 0);
  }
}

TEST_CASE("the union of the shards of a sweep is the unsharded sweep", "[cli][sweep]") {
  const std::vector<std::string> base{
      "sweep", "scenarios/two_cores_one_output_race.toml", "--seeds", "3..50", "--expect", "ok", "--keep-going"};
  auto all_args = base;
  const auto all_file = temp_file("all.jsonl", "");
  all_args.insert(all_args.end(), {"--jsonl", all_file});
  run_weft(all_args);
  const auto all = failing_seeds(all_file);
  std::multiset<std::uint64_t> merged;
  for (int shard = 0; shard < 3; ++shard) {
    auto args = base;
    const auto file = temp_file("shard" + std::to_string(shard) + ".jsonl", "");
    args.insert(args.end(), {"--shard", std::to_string(shard) + "/3", "--jsonl", file});
    run_weft(args);
    for (auto seed : failing_seeds(file)) {
      CHECK(seed % 3 == static_cast<std::uint64_t>(shard));
      merged.insert(seed);
    }
  }
  CHECK(std::vector<std::uint64_t>(merged.begin(), merged.end()) == all);
  CHECK(all.size() == 48);
}

TEST_CASE("the shard comes from the flag, else from CI and job-array variables", "[cli][sweep]") {
  using weft::sim::resolve_shard;
  const auto none = fake_environment({});
  CHECK(resolve_shard(std::string("2/5"), std::nullopt, none).index == 2);
  CHECK(resolve_shard(std::nullopt, std::nullopt, none).count == 1);
  const auto gtest = resolve_shard(std::nullopt, std::nullopt,
                                   fake_environment({{"GTEST_SHARD_INDEX", "1"}, {"GTEST_TOTAL_SHARDS", "4"}}));
  CHECK((gtest.index == 1 && gtest.count == 4));
  const auto bazel = resolve_shard(std::nullopt, std::nullopt,
                                   fake_environment({{"TEST_SHARD_INDEX", "0"}, {"TEST_TOTAL_SHARDS", "2"}}));
  CHECK((bazel.index == 0 && bazel.count == 2));
  const auto slurm_count = resolve_shard(
      std::nullopt, std::nullopt, fake_environment({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "8"}}));
  CHECK((slurm_count.index == 3 && slurm_count.count == 8));
  const auto slurm_range = resolve_shard(
      std::nullopt, std::nullopt,
      fake_environment(
          {{"SLURM_ARRAY_TASK_ID", "12"}, {"SLURM_ARRAY_TASK_MIN", "10"}, {"SLURM_ARRAY_TASK_MAX", "13"}}));
  CHECK((slurm_range.index == 2 && slurm_range.count == 4));
  const auto k8s = resolve_shard(std::nullopt, 6, fake_environment({{"JOB_COMPLETION_INDEX", "5"}}));
  CHECK((k8s.index == 5 && k8s.count == 6));

  using weft::sim::ConfigError;
  CHECK_THROWS_AS(resolve_shard(std::string("3/3"), std::nullopt, none), ConfigError);
  CHECK_THROWS_AS(resolve_shard(std::string("x/3"), std::nullopt, none), ConfigError);
  CHECK_THROWS_AS(resolve_shard(std::string("2"), std::nullopt, none), ConfigError);
  CHECK_THROWS_AS(resolve_shard(std::nullopt, std::nullopt, fake_environment({{"GTEST_SHARD_INDEX", "1"}})),
                  ConfigError);
  CHECK_THROWS_AS(resolve_shard(std::nullopt, std::nullopt, fake_environment({{"JOB_COMPLETION_INDEX", "1"}})),
                  ConfigError);
  CHECK_THROWS_AS(resolve_shard(std::nullopt, std::nullopt, fake_environment({{"SLURM_ARRAY_TASK_ID", "1"}})),
                  ConfigError);
}

namespace {

// The message of the ConfigError resolving the shard throws.
std::string shard_error(std::map<std::string, std::string> variables) {
  try {
    weft::sim::resolve_shard(std::nullopt, std::nullopt, fake_environment(std::move(variables)));
  } catch (const weft::sim::ConfigError& error) {
    return error.what();
  }
  FAIL("no error");
  return {};
}

}  // namespace

TEST_CASE("A Slurm array with a step maps its tasks to every shard, once", "[cli][sweep]") {
  // sbatch --array=0-12:4 sets these (ids 0, 4, 8, 12); --array=3-9:3 ids 3, 6, 9.
  for (const auto& [min, max, step, count] :
       std::vector<std::array<int, 4>>{{0, 12, 4, 4}, {3, 9, 3, 3}, {5, 5, 1, 1}}) {
    std::set<std::uint64_t> shards;
    for (int id = min; id <= max; id += step) {
      const auto shard =
          weft::sim::resolve_shard(std::nullopt, std::nullopt,
                                   fake_environment({{"SLURM_ARRAY_TASK_ID", std::to_string(id)},
                                                     {"SLURM_ARRAY_TASK_MIN", std::to_string(min)},
                                                     {"SLURM_ARRAY_TASK_MAX", std::to_string(max)},
                                                     {"SLURM_ARRAY_TASK_STEP", std::to_string(step)},
                                                     {"SLURM_ARRAY_TASK_COUNT", std::to_string(count)}}));
      CHECK(shard.count == static_cast<std::uint64_t>(count));
      shards.insert(shard.index);
    }
    CHECK(shards.size() == static_cast<std::size_t>(count));
    CHECK(*shards.rbegin() == static_cast<std::uint64_t>(count - 1));
  }
}

TEST_CASE("A job array that cannot be mapped, and conflicting shard variables, are refused naming them",
          "[cli][sweep]") {
  // --array=1,2,7: not evenly spaced.
  CHECK(shard_error({{"SLURM_ARRAY_TASK_ID", "2"},
                     {"SLURM_ARRAY_TASK_MIN", "1"},
                     {"SLURM_ARRAY_TASK_MAX", "7"},
                     {"SLURM_ARRAY_TASK_STEP", "1"},
                     {"SLURM_ARRAY_TASK_COUNT", "3"}})
            .find("SLURM_ARRAY_TASK_COUNT: key 'shard': is 3, but the array 1-7:1") != std::string::npos);
  // Without a step, 0-12:4 looks like 13 tasks; its COUNT says 4: the step is missing.
  for (const char* id : {"0", "4", "8", "12"})
    CHECK(
        shard_error({{"SLURM_ARRAY_TASK_ID", id},
                     {"SLURM_ARRAY_TASK_MIN", "0"},
                     {"SLURM_ARRAY_TASK_MAX", "12"},
                     {"SLURM_ARRAY_TASK_COUNT", "4"}})
            .find("SLURM_ARRAY_TASK_STEP: key 'shard': is unset, but SLURM_ARRAY_TASK_COUNT is 4 while the array 0-12 "
                  "(SLURM_ARRAY_TASK_MIN-MAX) has 13 ids") != std::string::npos);
  // A minimum above the maximum; a range of 2^64 ids (whose count wraps to 0).
  CHECK(shard_error({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_MIN", "10"}, {"SLURM_ARRAY_TASK_MAX", "2"}})
            .find("SLURM_ARRAY_TASK_MIN: key 'shard': is 10, above SLURM_ARRAY_TASK_MAX (2)") != std::string::npos);
  CHECK(shard_error({{"SLURM_ARRAY_TASK_ID", "3"},
                     {"SLURM_ARRAY_TASK_MIN", "0"},
                     {"SLURM_ARRAY_TASK_MAX", "18446744073709551615"},
                     {"SLURM_ARRAY_TASK_STEP", "1"}})
            .find("has 2^64 tasks: too many to count as shards") != std::string::npos);
  CHECK(shard_error({{"SLURM_ARRAY_TASK_ID", "5"},
                     {"SLURM_ARRAY_TASK_MIN", "0"},
                     {"SLURM_ARRAY_TASK_MAX", "12"},
                     {"SLURM_ARRAY_TASK_STEP", "4"}})
            .find("5 is not a task of the array 0-12:4") != std::string::npos);
  CHECK(shard_error({{"SLURM_ARRAY_TASK_ID", "0"},
                     {"SLURM_ARRAY_TASK_MIN", "0"},
                     {"SLURM_ARRAY_TASK_MAX", "12"},
                     {"SLURM_ARRAY_TASK_STEP", "5"}})
            .find("does not end on a step") != std::string::npos);
  CHECK(shard_error({{"SLURM_ARRAY_TASK_ID", "0"},
                     {"SLURM_ARRAY_TASK_MIN", "0"},
                     {"SLURM_ARRAY_TASK_MAX", "4"},
                     {"SLURM_ARRAY_TASK_STEP", "0"}})
            .find("SLURM_ARRAY_TASK_STEP: key 'shard': is 0") != std::string::npos);

  const auto conflict = shard_error(
      {{"GTEST_SHARD_INDEX", "1"}, {"GTEST_TOTAL_SHARDS", "4"}, {"TEST_SHARD_INDEX", "2"}, {"TEST_TOTAL_SHARDS", "4"}});
  CHECK(conflict.find("GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS") != std::string::npos);
  CHECK(conflict.find("says shard 1/4, but TEST_SHARD_INDEX/TEST_TOTAL_SHARDS says 2/4") != std::string::npos);
  CHECK(shard_error({{"TEST_SHARD_INDEX", "0"},
                     {"TEST_TOTAL_SHARDS", "2"},
                     {"SLURM_ARRAY_TASK_ID", "1"},
                     {"SLURM_ARRAY_TASK_COUNT", "2"}})
            .find("but SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT says 1/2") != std::string::npos);
  // Two sources that agree are one shard.
  const auto agreed = weft::sim::resolve_shard(std::nullopt, std::nullopt,
                                               fake_environment({{"GTEST_SHARD_INDEX", "1"},
                                                                 {"GTEST_TOTAL_SHARDS", "2"},
                                                                 {"TEST_SHARD_INDEX", "1"},
                                                                 {"TEST_TOTAL_SHARDS", "2"}}));
  CHECK((agreed.index == 1 && agreed.count == 2));
}

TEST_CASE("an interrupted sweep reports what it ran and where it stopped", "[cli][sweep]") {
  static const auto registry = weft::scenarios::builtin_scenarios();
  weft::sim::RequestArguments arguments;
  arguments.scenario = "ring_all_reduce";
  const auto request = weft::sim::resolve_request(arguments, registry);
  std::atomic<bool> interrupted{true};
  weft::sim::SweepOptions options;
  options.seeds = {0, 99};
  options.interrupted = &interrupted;
  std::uint64_t released = 0;
  weft::sim::SweepListener listener;
  listener.failure = [](const weft::sim::SeedOutcome&) {};
  listener.progress = [&](std::uint64_t done, std::uint64_t) { released = done; };
  const auto summary = weft::sim::run_sweep(request, options, listener);
  CHECK(summary.interrupted);
  CHECK(summary.executions == released);
  REQUIRE(summary.next_seed.has_value());
  CHECK(*summary.next_seed == summary.executions);
}

TEST_CASE("JUnit output is written whole", "[cli][sweep]") {
  const auto file = temp_file("report.xml", "");
  run_weft({"sweep", "scenarios/two_cores_one_output_race.toml", "--seeds", "0..4", "--expect", "ok", "--keep-going",
            "--junit", file});
  std::ifstream in(file);
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // One testcase for the one signature (and one for the seeds as expected), listing the seeds.
  CHECK(xml.find("<testsuite name=\"weft sweep two_cores_one_output\" tests=\"2\" failures=\"1\"") !=
        std::string::npos);
  CHECK(xml.find("<system-out>5 seeds: 0, 1, 2, 3, 4</system-out>") != std::string::npos);
  CHECK(xml.rfind("</testsuites>\n") == xml.size() - 14);
  CHECK(!std::filesystem::exists(file + ".tmp"));
}

TEST_CASE("merge joins the shards' JSON lines into one sweep in seed order", "[cli][sweep]") {
  std::vector<std::string> args{"merge"};
  for (int shard = 0; shard < 2; ++shard) {
    const auto file = temp_file("merge" + std::to_string(shard) + ".jsonl", "");
    run_weft({"sweep", "scenarios/two_cores_one_output_race.toml", "--seeds", "0..5", "--expect", "ok", "--keep-going",
              "--shard", std::to_string(shard) + "/2", "--jsonl", file});
    args.push_back(file);
  }
  const auto merged = run_weft(args);
  CHECK(merged.status == 1);
  const auto merged_file = temp_file("merged.jsonl", merged.out);
  CHECK(failing_seeds(merged_file) == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5});
  CHECK(merged.out.find("\"executions\":6,\"failures\":6,\"complete\":true") != std::string::npos);
  CHECK(run_weft({"merge", temp_file("broken.jsonl", "{not json\n")}).status == 2);
}

TEST_CASE("a sweep shrinks its first failure, and the shrunk schedule replays to the same verdict", "[cli][sweep]") {
  const auto result = run_weft({"sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..3", "--expect", "ok"});
  CHECK(result.status == 1);
  const auto line = weft::testing::line_after(result.out, "shrunk seed 0: ");
  const auto before = std::stoul(line.substr(0, line.find(" -> ")));
  const auto after = std::stoul(line.substr(line.find(" -> ") + 4));
  CHECK(after <= before);
  CHECK(line.find("verdict deadlock") != std::string::npos);
  const auto schedule = weft::testing::line_after(result.out.substr(result.out.find("shrunk seed 0: ")), "--schedule ");
  const auto replay = run_weft({"replay", "scenarios/barrier_deadlock.toml", "--schedule", schedule});
  CHECK(replay.status == 0);
  CHECK(replay.out.find("verdict:  deadlock") != std::string::npos);
  CHECK(schedule.size() <= weft::testing::line_after(result.out, "--schedule ").size());
}

TEST_CASE("a kernel that behaves differently on a re-run is reported as not deterministic", "[cli][sweep]") {
  // The kernel's behaviour depends on how often it ran before (state outside the simulation).
  auto runs = std::make_shared<int>(0);
  weft::sim::ScenarioDefinition flaky;
  flaky.name = "flaky";
  flaky.setup = [](weft::sim::Host& host) { host.hbm<float>("x", {4}); };
  flaky.kernel = [runs](weft::sim::Core& core) {
    auto x = core.hbm<float>("x");
    const int extra = core.device_id() == 0 ? (*runs)++ % 3 : 0;
    for (int i = 0; i < 1 + extra; ++i) (void)core.load(x);
    core.check(core.device_id() != 1, "device 1 always fails");
  };
  const weft::sim::ScenarioRegistry registry{flaky};
  weft::sim::RequestArguments arguments;
  arguments.scenario = "flaky";
  const auto request = weft::sim::resolve_request(arguments, registry);
  weft::sim::SweepOptions options;
  options.seeds = {0, 0};
  std::vector<weft::sim::SeedOutcome> failures;
  weft::sim::SweepListener listener;
  listener.failure = [&](const weft::sim::SeedOutcome& outcome) { failures.push_back(outcome); };
  weft::sim::run_sweep(request, options, listener);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].result.verdict == weft::model::Verdict::kernel_error);
  CHECK(failures[0].nondeterminism.find("not deterministic") != std::string::npos);
  CHECK(failures[0].nondeterminism.find("at step ") != std::string::npos);
}
