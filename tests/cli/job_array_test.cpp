// A sweep spread over a job array by the variables the engine sets (no --shard): the array's
// tasks cover every seed once, also with a step (sbatch --array=0-12:4), and merge says the sweep
// is complete; an array that cannot be mapped, or two engines' variables that disagree, exit 2;
// a sweep sharded by Bazel touches its TEST_SHARD_STATUS_FILE.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "sweep_lines.hpp"
#include "weft_process.hpp"

using weft::testing::failure_lines;
using weft::testing::file_text;
using weft::testing::fresh_path;
using weft::testing::run_weft;
using weft::testing::WeftProcess;

namespace {

const std::vector<std::string>& sweep = weft::testing::racy_sweep;

}  // namespace

TEST_CASE("The tasks of a Slurm array with a step sweep every seed once", "[cli][sweep]") {
  const auto whole = fresh_path("array_whole.jsonl");
  auto args = sweep;
  args.insert(args.end(), {"--jsonl", whole});
  WeftProcess one_machine(args);  // a process too: its reproduce lines name the same program
  REQUIRE(one_machine.wait().status == 1);

  struct Array {
    int min, max, step;
  };
  for (const Array array : {Array{0, 3, 1}, Array{0, 12, 4}, Array{5, 11, 3}}) {
    CAPTURE(array.min, array.max, array.step);
    std::vector<std::string> merge{"merge"};
    const int count = (array.max - array.min) / array.step + 1;
    for (int id = array.min; id <= array.max; id += array.step) {
      const auto path = fresh_path("array_task_" + std::to_string(id) + ".jsonl");
      auto task_args = sweep;
      task_args.insert(task_args.end(), {"--jsonl", path});
      WeftProcess task(
          task_args,
          {"SLURM_ARRAY_TASK_ID=" + std::to_string(id), "SLURM_ARRAY_TASK_MIN=" + std::to_string(array.min),
           "SLURM_ARRAY_TASK_MAX=" + std::to_string(array.max), "SLURM_ARRAY_TASK_STEP=" + std::to_string(array.step),
           "SLURM_ARRAY_TASK_COUNT=" + std::to_string(count)});
      CHECK(task.wait().status == 1);
      merge.push_back(path);
    }
    const auto merged = run_weft(merge);
    CHECK(merged.status == 1);
    CHECK(merged.err.empty());
    CHECK(failure_lines(merged.out) == failure_lines(file_text(whole)));
    const auto summary = nlohmann::json::parse(merged.out.substr(merged.out.rfind('\n', merged.out.size() - 2) + 1));
    CHECK(summary["complete"] == true);
    CHECK(summary["shard_count"] == count);
  }
}

TEST_CASE("An array that cannot be mapped, or engines that disagree, stop the sweep before it runs", "[cli][sweep]") {
  struct Case {
    std::vector<std::string> environment;
    std::string expected;
  };
  const std::vector<Case> cases{
      {{"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=7", "SLURM_ARRAY_TASK_STEP=1",
        "SLURM_ARRAY_TASK_COUNT=3"},
       "SLURM_ARRAY_TASK_COUNT: key 'shard': is 3, but the array 1-7:1"},
      {{"GTEST_SHARD_INDEX=0", "GTEST_TOTAL_SHARDS=2", "TEST_SHARD_INDEX=1", "TEST_TOTAL_SHARDS=2"},
       "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS: key 'shard': says shard 0/2, but TEST_SHARD_INDEX/TEST_TOTAL_SHARDS says "
       "1/2"},
  };
  for (const auto& [environment, expected] : cases) {
    CAPTURE(environment);
    const auto path = fresh_path("array_refused.jsonl");
    auto args = sweep;
    args.insert(args.end(), {"--jsonl", path});
    WeftProcess task(args, environment);
    CHECK(task.wait().status == 2);
    CHECK(task.err().find(expected) != std::string::npos);
    CHECK(task.out().empty());
    CHECK_FALSE(std::filesystem::exists(path + ".partial"));
  }
}

TEST_CASE("A Bazel-sharded sweep touches TEST_SHARD_STATUS_FILE", "[cli][sweep]") {
  // Bazel 7 fails a sharded test that does not touch the file: it takes it for a test that ran
  // every case in every shard.
  const auto status = fresh_path("bazel_shard_status");
  const std::vector<std::string> bazel{"TEST_SHARD_INDEX=1", "TEST_TOTAL_SHARDS=4", "TEST_SHARD_STATUS_FILE=" + status};
  const std::vector<std::string> args{"sweep", "ring_all_reduce", "--seeds", "0..7"};
  WeftProcess sharded(args, bazel);
  CHECK(sharded.wait().status == 0);
  CHECK(sharded.out().find("seeds 0..7 shard 1/4: 2 executions") != std::string::npos);
  CHECK(std::filesystem::exists(status));
  // --shard wins over the environment: the sweep does not honour Bazel's shard, and says nothing of it.
  std::filesystem::remove(status);
  auto flagged = args;
  flagged.insert(flagged.end(), {"--shard", "0/2"});
  WeftProcess own_shard(flagged, bazel);
  CHECK(own_shard.wait().status == 0);
  CHECK_FALSE(std::filesystem::exists(status));
  // A file it cannot touch stops the sweep before it runs.
  WeftProcess unwritable(
      args, {"TEST_SHARD_INDEX=1", "TEST_TOTAL_SHARDS=4", "TEST_SHARD_STATUS_FILE=/no/such/folder/status"});
  CHECK(unwritable.wait().status == 2);
  CHECK(unwritable.err() ==
        "weft: TEST_SHARD_STATUS_FILE: key 'shard': cannot touch '/no/such/folder/status' (Bazel's sign "
        "that the test honours TEST_SHARD_INDEX): No such file or directory\n");
  CHECK(unwritable.out().empty());
}
