// explore --checkpoint and --resume (docs/exploring.md): an exploration killed at random points,
// by SIGTERM (it saves as it stops) and by SIGKILL (the last periodic save survives), and resumed
// each time until it ends, ends as one never stopped: the same runs, space, verdicts and reports.
// A checkpoint of another exploration, a damaged one, one with --jobs, and one that is another
// output or an input are refused (status 2).

#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"
#include "scheduler/rng.hpp"
#include "weft_process.hpp"

using weft::testing::fresh_path;
using weft::testing::line_after;
using weft::testing::run_weft;
using weft::testing::WeftProcess;

namespace {

// readers on 17 cores, with its planted races found and explored past (--keep-going): 65,536
// runs, some seconds of exploring (about 1.5 s on a quiet machine), so that the kills below,
// 20 to 170 ms after each start, stop it several times on a fast machine too.
const std::vector<std::string> readers{"explore",     "scenarios/readers6.toml",
                                       "--set",       "topology.cores_per_device=17",
                                       "--set",       "race_detection.enabled=true",
                                       "--set",       "race_detection.keep_going=true",
                                       "--expect",    "data_race",
                                       "--keep-going"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The report from its verdicts on: their counts, signatures, reproduce lines and reports.
std::string verdicts_of(const std::string& out) { return out.substr(std::min(out.find("\nverdicts:"), out.size())); }

std::string runs_of(const std::string& out) {
  const std::string line = line_after(out, "runs:     ");
  return line.substr(0, line.find(','));
}

}  // namespace

TEST_CASE("explore killed at random points and resumed until done ends as one never stopped", "[cli][explore]") {
  WeftProcess never_stopped(readers);  // a process, as the others: its reproduce lines name the same program
  REQUIRE(never_stopped.wait().status == 0);
  const std::string whole = never_stopped.out();
  REQUIRE(verdicts_of(whole).find("data_race: ") != std::string::npos);
  const std::string checkpoint = fresh_path("explore_resumed.checkpoint");
  weft::scheduler::Rng random(20261203);
  int terms = 0, kills = 0, processes = 0;
  std::string out;
  for (;;) {
    ++processes;
    REQUIRE(processes < 60);
    std::vector<std::string> args = with(readers, {"--checkpoint", checkpoint, "--checkpoint-every", "0.05"});
    if (std::filesystem::exists(checkpoint)) args = with(args, {"--resume", checkpoint});
    WeftProcess weft(args);
    if (processes <= 16) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20 + random.below(150)));
      const bool term = random.below(2) == 0;
      weft.signal(term ? SIGTERM : SIGKILL);
      (term ? terms : kills) += 1;
    }
    const auto ended = weft.wait();
    INFO(weft.err());
    if (ended.status == 0) {
      out = weft.out();
      break;
    }
    // Stopped: by SIGTERM as asked (4, not done), or before its handlers were installed; killed.
    CHECK((ended.status == 4 || ended.status == 128 + SIGTERM || ended.status == 128 + SIGKILL));
    if (ended.status == 4)
      CHECK(line_after(weft.out(), "checkpoint: ").find("(go on with --resume ") != std::string::npos);
  }
  CAPTURE(processes, terms, kills);
  CHECK(processes > 4);  // the exploration was stopped and resumed several times
  CHECK(runs_of(out) == runs_of(whole));
  CHECK(line_after(out, "space:    ") == line_after(whole, "space:    "));
  CHECK(verdicts_of(out) == verdicts_of(whole));
  CHECK(line_after(out, "checkpoint: ").rfind("resumed from " + checkpoint, 0) == 0);
}

TEST_CASE("explore refuses a checkpoint of another exploration, a damaged one, and one with several jobs",
          "[cli][explore]") {
  const std::string checkpoint = fresh_path("explore_refused.checkpoint");
  const std::vector<std::string> bounded{"explore", "scenarios/readers6.toml", "--max-executions", "20"};
  const auto first = run_weft(with(bounded, {"--checkpoint", checkpoint}));
  REQUIRE(first.status == 0);
  REQUIRE(std::filesystem::exists(checkpoint));
  const auto refused = [&](const std::vector<std::string>& args, const std::string& why) {
    const auto result = run_weft(args);
    CAPTURE(args, result.err);
    CHECK(result.status == 2);
    CHECK(result.err.find(checkpoint) != std::string::npos);
    CHECK(result.err.find(why) != std::string::npos);
    CHECK(result.out.empty());
  };
  refused(with(bounded, {"--resume", checkpoint, "--set", "topology.cores_per_device=5"}),
          "another exploration (the configuration digest (configuration and parameters): ");
  refused({"explore", "scenarios/readers6.toml", "--max-executions", "30", "--resume", checkpoint},
          "--max-executions: 30 here, 20 in the checkpoint");
  refused(with(bounded, {"--resume", checkpoint, "--keep-going"}), "--keep-going: yes here, no in the checkpoint");
  refused({"explore", "lastzero", "--max-executions", "20", "--resume", checkpoint},
          "the scenario: lastzero here, readers in the checkpoint");

  // Resumed as it is: the exploration had ended at its bound, and says so again.
  const auto again = run_weft(with(bounded, {"--resume", checkpoint}));
  CHECK(again.status == 0);
  CHECK(runs_of(again.out) == runs_of(first.out));
  CHECK(verdicts_of(again.out) == verdicts_of(first.out));

  const std::string bytes = weft::testing::file_text(checkpoint);
  const std::string damaged = fresh_path("explore_damaged.checkpoint");
  std::ofstream(damaged, std::ios::binary) << bytes.substr(0, bytes.size() - 3);
  const auto truncated = run_weft(with(bounded, {"--resume", damaged}));
  CHECK(truncated.status == 2);
  CHECK(truncated.err.find("cannot resume " + damaged + ": checkpoint: its hash does not match its contents") !=
        std::string::npos);
  std::ofstream(damaged, std::ios::binary) << "{\"header\": true}\n";
  CHECK(run_weft(with(bounded, {"--resume", damaged})).err.find("not a weft explore checkpoint") != std::string::npos);
  CHECK(run_weft(with(bounded, {"--resume", damaged + ".absent"})).err.find("it cannot be read") != std::string::npos);

  // The checkpoint is an output like the others: never one of them, never an input.
  const std::string written = fresh_path("explore_refused.jsonl");
  const auto both = run_weft(with(bounded, {"--checkpoint", written, "--jsonl", written}));
  CHECK(both.status == 2);
  CHECK(both.err.find("--jsonl writes it too") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(written));
  const auto over_input = run_weft(with(bounded, {"--resume", checkpoint, "--junit", checkpoint}));
  CHECK(over_input.status == 2);
  CHECK(over_input.err.find("--resume: cannot write") != std::string::npos);
  CHECK(over_input.err.find("--junit writes it too") != std::string::npos);
  const auto over_scenario = run_weft(with(bounded, {"--checkpoint", "scenarios/readers6.toml"}));
  CHECK(over_scenario.status == 2);
  CHECK(over_scenario.err.find("an input") != std::string::npos);

  const auto jobs = run_weft({"explore", "scenarios/readers6.toml", "--jobs", "2", "--checkpoint", checkpoint});
  CHECK(jobs.status == 2);
  CHECK(jobs.err.find("need one job") != std::string::npos);
}
