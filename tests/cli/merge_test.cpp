// weft merge joins only one sweep's shards, says what is missing or unfinished, and refuses
// what is not a sweep's output (exit 2) without growing memory.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "sweep_lines.hpp"
#include "weft_process.hpp"

using weft::testing::file_text;
using weft::testing::fresh_path;
using weft::testing::lines_of;
using weft::testing::run_weft;
using weft::testing::temp_file;
using weft::testing::WeftProcess;

namespace {

const std::vector<std::string>& racy = weft::testing::racy_sweep;

// Sweeps shard `shard` of `count` (with `extra` options) into a fresh file; returns its path.
std::string shard_file(const std::string& name, int shard, int count, std::vector<std::string> extra = {}) {
  const auto path = fresh_path(name + "_" + std::to_string(shard) + "of" + std::to_string(count) + ".jsonl");
  auto args = racy;
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"--shard", std::to_string(shard) + "/" + std::to_string(count), "--jsonl", path});
  REQUIRE(run_weft(args).status == 1);
  return path;
}

nlohmann::json merged_summary(const std::string& out) { return nlohmann::json::parse(lines_of(out).back()); }

weft::testing::Outcome merge(std::vector<std::string> files) {
  files.insert(files.begin(), "merge");
  return run_weft(files);
}

// A copy of `path` with line `number` (1-based) replaced by `line`.
std::string with_line(const std::string& path, std::size_t number, const std::string& line, const std::string& name) {
  auto lines = lines_of(file_text(path));
  REQUIRE(number <= lines.size());
  lines[number - 1] = line;
  std::string text;
  for (const auto& each : lines) text += each + "\n";
  return temp_file(name, text);
}

}  // namespace

TEST_CASE("Merged shards are the one-machine sweep, line for line", "[cli][merge]") {
  const auto whole = fresh_path("merge_whole.jsonl");
  auto args = racy;
  args.insert(args.end(), {"--jsonl", whole});
  REQUIRE(run_weft(args).status == 1);
  std::vector<std::string> files;
  for (int shard = 0; shard < 4; ++shard) files.push_back(shard_file("merge_part", shard, 4));
  const auto merged = merge(files);
  CHECK(merged.status == 1);
  CHECK(merged.err.empty());
  auto expected = lines_of(file_text(whole));
  auto got = lines_of(merged.out);
  REQUIRE(expected.size() == 41 + 2);  // header, 41 failures, summary
  REQUIRE(got.size() == 41 + 1);       // 41 failures, summary
  CHECK(std::vector(got.begin(), got.end() - 1) == std::vector(expected.begin() + 1, expected.end() - 1));
  const auto summary = merged_summary(merged.out);
  CHECK(summary["complete"] == true);
  CHECK(summary["planned"] == 41);
  CHECK(summary["executions"] == 41);
  CHECK(summary["failures"] == 41);
  CHECK(summary["shards"] == nlohmann::json::array({"0/4", "1/4", "2/4", "3/4"}));
  CHECK(summary["config_digest"] == nlohmann::json::parse(expected.front())["config_digest"]);
}

TEST_CASE("A missing shard makes the merge incomplete, named, and non-zero", "[cli][merge]") {
  const auto merged =
      merge({shard_file("merge_missing", 0, 4), shard_file("merge_missing", 1, 4), shard_file("merge_missing", 3, 4)});
  CHECK(merged.status == 1);
  CHECK(merged.err.find("1 of 4 shards missing (no file holds them): [\"2/4\"]") != std::string::npos);
  const auto summary = merged_summary(merged.out);
  CHECK(summary["complete"] == false);
  CHECK(summary["missing_shards"] == nlohmann::json::array({"2/4"}));
  CHECK(summary["executions"] == 31);
  CHECK(summary["planned"] == 41);

  // Without failures, an incomplete merge exits 4.
  std::vector<std::string> files;
  for (int shard : {0, 2}) {
    const auto path = fresh_path("merge_ok_" + std::to_string(shard) + ".jsonl");
    REQUIRE(run_weft({"sweep", "ring_all_gather", "--seeds", "0..5", "--shard", std::to_string(shard) + "/3", "--jsonl",
                      path})
                .status == 0);
    files.push_back(path);
  }
  const auto ok = merge(files);
  CHECK(ok.status == 4);
  CHECK(merged_summary(ok.out)["missing_shards"] == nlohmann::json::array({"1/3"}));
}

TEST_CASE("Shards of different sweeps, or a shard twice, are refused naming what differs", "[cli][merge]") {
  const auto base = shard_file("merge_base", 0, 2);
  const auto twice = merge({base, base});
  CHECK(twice.status == 2);
  CHECK(twice.err.find("shard 0/2 again: " + base + " holds it too") != std::string::npos);
  struct Other {
    std::vector<std::string> options;
    const char* key;
  };
  for (const auto& [options, key] :
       std::vector<Other>{{{"--set", "topology.devices=4"}, "config_digest"},
                          {{"--set", "scheduler.max_steps=1000"}, "config_digest"},
                          {{"--set", "race_detection.semaphore_clocks=accumulate"}, "config_digest"},
                          {{"--strategy", "pct"}, "strategy"},
                          {{"--set", "scheduler.strategy=pct"}, "strategy"}}) {
    CAPTURE(options);
    const auto other = merge({base, shard_file("merge_other", 1, 2, options)});
    CHECK(other.status == 2);
    CHECK(other.err.find(std::string("another sweep than ") + base + "'s: its " + key + " is") != std::string::npos);
  }
  // Another seed range, shard count, scenario, expected verdict or keep-going.
  const auto range = fresh_path("merge_range.jsonl");
  run_weft({"sweep", "scenarios/two_cores_one_output_race.toml", "--seeds", "0..41", "--expect", "ok", "--keep-going",
            "--shrink-budget", "0", "--shard", "1/2", "--jsonl", range});
  CHECK(merge({base, range}).err.find("its seeds is \"0..41\"") != std::string::npos);
  const auto thirds = merge({base, shard_file("merge_thirds", 1, 3)});
  CHECK(thirds.err.find("it has 3 shards, not 2") != std::string::npos);
  const auto scenario = fresh_path("merge_scenario.jsonl");
  run_weft({"sweep", "right_permute", "--seeds", "0..40", "--expect", "ok", "--keep-going", "--shrink-budget", "0",
            "--shard", "1/2", "--jsonl", scenario});
  CHECK(merge({base, scenario}).err.find("its scenario is \"right_permute\"") != std::string::npos);
  // The same kernel with other parameters (another scenario file) is another configuration.
  const auto params = fresh_path("merge_params.jsonl");
  run_weft({"sweep", "scenarios/two_cores_disjoint_halves.toml", "--seeds", "0..40", "--expect", "ok", "--keep-going",
            "--shrink-budget", "0", "--shard", "1/2", "--jsonl", params});
  CHECK(merge({base, params}).err.find("its config_digest is") != std::string::npos);
  const auto stops = fresh_path("merge_stops.jsonl");
  run_weft({"sweep", "scenarios/two_cores_one_output_race.toml", "--seeds", "0..40", "--expect", "ok",
            "--shrink-budget", "0", "--shard", "1/2", "--jsonl", stops});
  CHECK(merge({base, stops}).err.find("its keep_going is false") != std::string::npos);
  // The same configuration reached another way is the same sweep.
  const auto same = merge({base, shard_file("merge_same", 1, 2, {"--set", "topology.devices=2"})});
  CHECK(same.status == 1);
}

TEST_CASE("An exploration's JSON lines are refused by name, alone or with a sweep's", "[cli][merge][explore]") {
  const auto explored = fresh_path("merge_explored.jsonl");
  REQUIRE(
      run_weft({"explore", "scenarios/two_cores_one_output_race.toml", "--expect", "ok", "--jsonl", explored}).status ==
      1);
  const std::string refusal = explored + ":1:0: is an exploration's JSON lines (weft explore --jsonl), not a sweep's";
  for (const auto& files :
       std::vector<std::vector<std::string>>{{explored}, {shard_file("merge_with_explore", 0, 2), explored}}) {
    const auto merged = merge(files);
    CHECK(merged.status == 2);
    CHECK(merged.err.find(refusal) != std::string::npos);
    CHECK(merged.out.empty());
  }
}

TEST_CASE("What is not a sweep's output is refused, in bounded memory", "[cli][merge][hardening]") {
  const auto good = shard_file("merge_good", 0, 1);
  const auto lines = lines_of(file_text(good));
  const auto failure = nlohmann::json::parse(lines[1]);
  const auto replaced = [](std::string text, const std::string& from, const std::string& to) {
    return text.replace(text.find(from), from.size(), to);
  };
  const auto with_seed = [&](const std::string& seed) {
    auto text = failure.dump();
    const auto at = text.find("\"seed\":") + 7;
    return text.replace(at, text.find(',', at) - at, seed);
  };
  struct Hostile {
    std::string path;
    std::string expected;  // in stderr
  };
  const auto merged_output = temp_file("merge_merged.jsonl", merge({good}).out);
  const std::vector<Hostile> cases{
      {"/dev/null", "/dev/null: cannot read the file: it is not a regular file (it is a device)"},
      {"/dev/zero", "/dev/zero: cannot read the file: it is not a regular file (it is a device)"},
      {std::filesystem::temp_directory_path().string(), "it is not a regular file (it is a folder)"},
      {"/no/such/file.jsonl", "cannot read the file"},
      {temp_file("merge_empty.jsonl", ""), "is empty: not a sweep's JSON lines"},
      {temp_file("merge_text.jsonl", "hello\n"), ":1:0: not a JSON object"},
      {temp_file("merge_array.jsonl", "[1,2]\n"), ":1:0: not a JSON object"},
      {temp_file("merge_deep.jsonl", std::string(100000, '[') + std::string(100000, ']') + "\n"), "not a JSON object"},
      {temp_file("merge_noheader.jsonl", lines[1] + "\n" + lines.back() + "\n"), ":1:0: the first line is a failure"},
      {temp_file("merge_other.jsonl", "{\"hello\":1}\n"), ":1:0: the first line is not a sweep's header"},
      {merged_output, ":1:0: the first line is a failure, not a sweep's header: the output of weft merge"},
      {temp_file("merge_merged_ok.jsonl",
                 lines_of(merged_output.empty() ? "" : file_text(merged_output)).back() + "\n"),
       "is the output of weft merge"},
      {with_line(good, 2, with_seed("-1"), "merge_minus.jsonl"), ":2:0: 'seed' is -1, not an integer"},
      {with_line(good, 2, with_seed("1.5"), "merge_half.jsonl"), ":2:0: 'seed' is 1.5, not an integer"},
      {with_line(good, 2, with_seed("1e3"), "merge_exp.jsonl"), ":2:0: 'seed' is 1000.0, not an integer"},
      {with_line(good, 2, with_seed("\"3\""), "merge_string.jsonl"), ":2:0: 'seed' is \"3\", not an integer"},
      {with_line(good, 2, with_seed("18446744073709551616"), "merge_big.jsonl"),
       ":2:0: 'seed' is 1.8446744073709552e+19"},
      {with_line(good, 2, with_seed("41"), "merge_outside.jsonl"), ":2:0: seed 41 is not a seed of shard 0/1 of 0..40"},
      {with_line(good, 3, lines[1], "merge_repeat.jsonl"), ":3:0: seed 0 is not above the line before"},
      {with_line(good, 1, lines[0].substr(0, lines[0].find("\"planned\"")) + "\"planned\":18446744073709551615}",
                 "merge_planned.jsonl"),
       ":1:0: 'planned' is not the count of seeds"},
      {with_line(good, 1,
                 lines[0].substr(0, lines[0].find("\"seeds\"")) + "\"seeds\":\"0..18446744073709551615\"," +
                     lines[0].substr(lines[0].find("\"keep_going\"")),
                 "merge_huge_range.jsonl"),
       "holds 2^64 seeds"},
      {with_line(good, static_cast<std::size_t>(lines.size()),
                 replaced(lines.back(), "\"failures\":41", "\"failures\":40"), "merge_count.jsonl"),
       "'failures' is not the number of failure lines (41)"},
      {with_line(good, static_cast<std::size_t>(lines.size()),
                 replaced(lines.back(), "\"executions\":41", "\"executions\":99"), "merge_executions.jsonl"),
       "'executions' is not between the failures and the planned seeds"},
      {temp_file("merge_after.jsonl", file_text(good) + lines[1] + "\n"), "a line after the summary line"},
      {temp_file("merge_two.jsonl", lines[0] + "\n" + lines[0] + "\n"), ":2:0: a second header"},
  };
  for (const auto& [path, expected] : cases) {
    CAPTURE(path);
    const auto result = merge({path});
    INFO(result.err);
    CHECK(result.status == 2);
    CHECK(result.err.find(expected) != std::string::npos);
    CHECK(result.out.empty());
  }

  // A regular file of zeros without a newline: read up to the line bound, not into memory whole.
  // Measured above what merge takes to refuse an empty file (the sanitizers' own memory
  // differs from build to build): the 64 MiB file read whole would add more than 64 MiB.
  WeftProcess baseline({"merge", temp_file("merge_baseline.jsonl", "")});
  const long baseline_kib = baseline.wait().peak_kib;
  const auto zeros = fresh_path("merge_zeros.bin");
  std::ofstream(zeros).close();
  std::filesystem::resize_file(zeros, 64 << 20);
  WeftProcess process({"merge", zeros});
  const auto ended = process.wait();
  CHECK(ended.status == 2);
  CHECK(process.err().find("a line longer than 8388608 bytes") != std::string::npos);
  CAPTURE(baseline_kib);
  CHECK(ended.peak_kib - baseline_kib < 40 * 1024);
}
