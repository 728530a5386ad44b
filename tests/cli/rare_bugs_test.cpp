// The rare bugs of scenarios/rare/: explore finds each, and a sweep of a few hundred seeds finds
// one whose reproduce line replays it.

#include <regex>

#include "cli_runner.hpp"

using weft::testing::run_weft;

TEST_CASE("explore finds the all-reduce's missing handshake and names the ordering that is missing", "[cli][rare]") {
  const auto result =
      run_weft({"explore", "scenarios/rare/pallas_all_reduce_no_handshake.toml", "--set", "topology.devices=2"});
  INFO(result.out << result.err);
  CHECK(result.status == 0);
  CHECK(result.out.find("result:   as expected (expected kernel_error)") != std::string::npos);
  CHECK(result.out.find(
            "does not exist yet on device 1 core 0: that core has not reached its allocation of buffer 101") !=
        std::string::npos);
}

TEST_CASE("a sweep finds the missing handshake within 200 seeds, and its reproduce line replays it", "[cli][rare]") {
  const auto sweep = run_weft({"sweep", "scenarios/rare/pallas_all_reduce_no_handshake.toml", "--seeds", "0..199",
                               "--expect", "ok", "--shrink-budget", "0"});
  INFO(sweep.out << sweep.err);
  REQUIRE(sweep.status == 1);
  CHECK(sweep.out.find("verdict:  kernel_error (expected ok: NOT as expected)") != std::string::npos);
  std::smatch seed;
  REQUIRE(std::regex_search(sweep.out, seed, std::regex("run:      seed ([0-9]+),")));
  const auto replay =
      run_weft({"replay", "scenarios/rare/pallas_all_reduce_no_handshake.toml", "--seed", seed[1].str()});
  INFO(replay.out);
  CHECK(replay.status == 0);
  CHECK(replay.out.find("verdict:  kernel_error (expected kernel_error within 1000 seeds, or ok: as expected)") !=
        std::string::npos);
}
