// Schedule files (`--schedule @FILE`, for schedules too long for one argument) written into the
// current folder: two runs of other configurations never share a name, a file a reproduce line
// names is never replaced, and a keep-going sweep writes one file per finding's signature, not
// one per failing seed.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "weft_process.hpp"

using weft::testing::file_text;
using weft::testing::line_after;
using weft::testing::WeftProcess;

namespace fs = std::filesystem;

namespace {

fs::path fresh_folder(const std::string& name) {
  const fs::path folder = fs::temp_directory_path() / ("weft_schedule_files_" + name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

struct Ran {
  std::string run_line;  // "seed 0, 24576 steps"
  std::string file;      // the FILE of --schedule @FILE
};

// ring_all_gather on `devices` devices: schedules of some 110,000 characters, so they go to files.
Ran run_in(const fs::path& folder, const std::string& devices, const std::string& seed) {
  WeftProcess weft(
      {"run", "ring_all_gather", "--set", "topology.devices=" + devices, "--seed", seed, "--expect", "deadlock"}, {},
      {}, folder.string());
  REQUIRE(weft.wait().status == 1);
  const std::string out = weft.out();
  return {line_after(out, "run:      "), line_after(out, "--schedule @")};
}

std::size_t schedule_files(const fs::path& folder) {
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(folder)) count += entry.path().extension() == ".schedule";
  return count;
}

}  // namespace

TEST_CASE("Schedule files of other configurations never collide, and none is replaced", "[cli][reproduce][hardening]") {
  const fs::path folder = fresh_folder("collide");
  const Ran first = run_in(folder, "64", "0");
  const Ran other = run_in(folder, "65", "0");  // another --set, the same seed
  CHECK(first.file != other.file);
  CHECK(first.file.rfind("weft-ring_all_gather.", 0) == 0);

  // The first run's reproduce line still replays its own execution.
  WeftProcess replay({"replay", "ring_all_gather", "--set", "topology.devices=64", "--expect", "deadlock", "--schedule",
                      "@" + first.file},
                     {}, {}, folder.string());
  CHECK(replay.wait().status == 1);
  CHECK(line_after(replay.out(), "run:      ") ==
        "replayed schedule, " + first.run_line.substr(first.run_line.find(", ") + 2));

  // The same run again names the same file (it holds the same schedule).
  CHECK(run_in(folder, "64", "0").file == first.file);

  // A file of something else under the name a run would take is left alone: the run takes the next name.
  std::string taken = first.file;
  taken.replace(taken.find(".seed-0."), 8, ".seed-1.");
  std::ofstream(folder / taken) << "not this run's schedule\n";
  const Ran second = run_in(folder, "64", "1");
  CHECK(second.file == taken.substr(0, taken.size() - std::string(".schedule").size()) + "-2.schedule");
  CHECK(file_text(folder / taken) == "not this run's schedule\n");
  CHECK(schedule_files(folder) == 4);
  fs::remove_all(folder);
}

TEST_CASE("A keep-going sweep writes one schedule file per signature", "[cli][reproduce][hardening]") {
  const fs::path folder = fresh_folder("keep_going");
  WeftProcess sweep({"sweep", "ring_all_gather", "--set", "topology.devices=64", "--seeds", "0..3", "--keep-going",
                     "--expect", "deadlock", "--shrink-budget", "0", "--jsonl", "k.jsonl"},
                    {}, {}, folder.string());
  CHECK(sweep.wait().status == 1);
  CHECK(line_after(sweep.out(), "sweep: ").find("4 executions, 4 not as expected") != std::string::npos);
  CHECK(schedule_files(folder) == 1);  // the four runs share one signature
  const std::string lines = file_text(folder / "k.jsonl");
  CHECK(lines.find("\"schedule_file\":\"k.jsonl.seed-0.schedule\"") != std::string::npos);
  CHECK(lines.find("\"schedule_left_out\"") != std::string::npos);  // the others replay by seed
  fs::remove_all(folder);
}
