// SIGINT or SIGTERM while a sweep shrinks its first failure (with the default budget, or a large
// one) ends the shrinking within a second: the sweep prints the simplest schedule found so far
// and its summary, and exits 1 (it found a failure). The schedule it prints replays.

#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "weft_process.hpp"

using weft::testing::line_after;
using weft::testing::run_weft;
using weft::testing::WeftProcess;

TEST_CASE("A signal while shrinking stops it within a second, and what was found is printed", "[cli][sweep]") {
  // 32 devices: each re-execution takes some 0.05 s (0.3 s under ASan), so the default budget
  // (1000) would take a minute or more.
  const std::vector<std::string> base{"sweep", "ring_all_gather", "--set",   "topology.devices=32", "--seeds",
                                      "0..0",  "--expect",        "deadlock"};
  struct Case {
    std::vector<std::string> budget;
    int signal;
  };
  for (const Case& c : {Case{{}, SIGINT}, Case{{"--shrink-budget", "100000"}, SIGTERM}}) {
    CAPTURE(c.budget, c.signal);
    auto args = base;
    args.insert(args.end(), c.budget.begin(), c.budget.end());
    args.insert(args.end(), {"--jsonl", weft::testing::fresh_path("shrink.jsonl")});  // long schedules go beside it
    WeftProcess sweep(args);
    REQUIRE(sweep.wait_until([&] { return sweep.out().find("reproduce:") != std::string::npos; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // well into the shrinking
    sweep.signal(c.signal);
    const auto ended = sweep.wait();
    CHECK(ended.seconds < 1.0);
    CHECK(ended.status == 1);
    const std::string out = sweep.out();
    INFO(out.substr(out.find("shrunk seed")));
    CHECK(out.find("interrupted: the simplest schedule found so far") != std::string::npos);
    CHECK(out.find("sweep: ring_all_gather, seeds 0..0: 1 executions, 1 not as expected (deadlock)") !=
          std::string::npos);

    const std::string schedule = line_after(out.substr(out.find("shrunk seed 0: ")), "--schedule ");
    auto replay = std::vector<std::string>{"replay",   "ring_all_gather", "--set",      "topology.devices=32",
                                           "--expect", "deadlock",        "--schedule", schedule};
    const auto replayed = run_weft(replay);
    CHECK(replayed.status == 1);
    CHECK(replayed.out.find("verdict:  ok (expected deadlock: NOT as expected)") != std::string::npos);
  }
}
