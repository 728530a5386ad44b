#include <catch2/catch.hpp>

#include "cli_runner.hpp"

using weft::testing::line_after;
using weft::testing::run_weft;
using weft::testing::temp_file;

TEST_CASE("run of the ring all-gather on 8 devices is ok and exits 0", "[cli]") {
  const auto result = run_weft({"run", "scenarios/ring_all_gather.toml", "--seed", "7"});
  CHECK(result.status == 0);
  CHECK(result.out.find("verdict:  ok (expected ok: as expected)") != std::string::npos);
  CHECK(result.out.find("8 devices") != std::string::npos);
}

TEST_CASE("the deadlock variant names every blocked core and its printed command reproduces it", "[cli]") {
  const auto result = run_weft({"run", "scenarios/barrier_deadlock.toml", "--seed", "5"});
  CHECK(result.status == 0);
  CHECK(result.out.find("verdict:  deadlock (expected deadlock") != std::string::npos);
  for (int device = 0; device < 4; ++device)
    CHECK(result.out.find("device " + std::to_string(device) + " core 0 at right_permute.cpp") != std::string::npos);
  CHECK(result.out.find("needs 3, holds 2") != std::string::npos);

  const auto by_seed = run_weft({"replay", "scenarios/barrier_deadlock.toml", "--seed", "5"});
  CHECK(by_seed.out == result.out);
  const std::string schedule = line_after(result.out, "--schedule ");
  const auto by_schedule = run_weft({"replay", "scenarios/barrier_deadlock.toml", "--schedule", schedule});
  CHECK(by_schedule.status == 0);
  CHECK(line_after(by_schedule.out, "what happened:\n") == line_after(result.out, "what happened:\n"));
  CHECK(line_after(by_schedule.out, "--schedule ") == schedule);
}

TEST_CASE("The --expect option overrides the expected verdict and a mismatch exits 1", "[cli]") {
  CHECK(run_weft({"run", "scenarios/barrier_deadlock.toml", "--expect", "ok"}).status == 1);
  CHECK(run_weft({"run", "ring_all_reduce", "--expect", "deadlock"}).status == 1);
  CHECK(run_weft({"run", "ring_all_reduce", "--expect", "ok"}).status == 0);
}

TEST_CASE("configuration errors exit 2 and name file, line, column and key", "[cli]") {
  SECTION("a malformed file") {
    const auto file = temp_file("malformed.toml", "[topology]\ndevices = = 3\n");
    const auto result = run_weft({"run", "ring_all_gather", "--config", file});
    CHECK(result.status == 2);
    CHECK(result.err.find(file + ":2:") != std::string::npos);
  }
  SECTION("an unknown key") {
    const auto file = temp_file("unknown.toml", "[dma]\nexecution = \"async\"\nspeed = 3\n");
    const auto result = run_weft({"run", "ring_all_gather", "--config", file});
    CHECK(result.status == 2);
    CHECK(result.err.find(file + ":3:1: key 'dma.speed'") != std::string::npos);
  }
  SECTION("a wrong type") {
    const auto file = temp_file("type.toml", "[topology]\ndevices = \"four\"\n");
    const auto result = run_weft({"run", "ring_all_gather", "--config", file});
    CHECK(result.status == 2);
    CHECK(result.err.find(file + ":2:11: key 'topology.devices'") != std::string::npos);
  }
  SECTION("an out-of-range value") {
    const auto result = run_weft({"run", "ring_all_gather", "--set", "topology.devices=0"});
    CHECK(result.status == 2);
    CHECK(result.err.find("--set:1:") != std::string::npos);
    CHECK(result.err.find("topology.devices") != std::string::npos);
  }
  SECTION("an unknown scenario, verdict or schedule") {
    CHECK(run_weft({"run", "no_such_kernel"}).status == 2);
    CHECK(run_weft({"run", "ring_all_gather", "--expect", "fine"}).status == 2);
    CHECK(run_weft({"replay", "ring_all_gather", "--schedule", "c0,x1"}).status == 2);
    CHECK(run_weft({"replay", "ring_all_gather", "--schedule", "r7"}).status == 2);
    CHECK(run_weft({"replay", "ring_all_gather"}).status == 2);
    CHECK(run_weft({"sweep", "ring_all_gather", "--seeds", "5..1"}).status == 2);
  }
}

TEST_CASE("The --set option reaches the kernel's parameters and the machine", "[cli]") {
  const auto result =
      run_weft({"run", "right_permute", "--set", "params.barrier_waits=3", "--set", "topology.devices=2"});
  CHECK(result.status == 1);
  CHECK(result.out.find("deadlock") != std::string::npos);
  CHECK(result.out.find("2 devices") != std::string::npos);
  CHECK(result.out.find("--set params.barrier_waits=3 --set topology.devices=2 --seed 0") != std::string::npos);
}

TEST_CASE("an unknown verb, or none, is exit 2 naming every verb", "[cli]") {
  for (const auto& args : {std::vector<std::string>{"frob"}, std::vector<std::string>{}}) {
    const auto result = run_weft(args);
    CHECK(result.status == 2);
    CHECK(result.err.find(args.empty() ? "weft: give a verb: " : "weft: unknown verb 'frob'; the verbs: ") !=
          std::string::npos);
    for (const char* verb : {"list", "run", "replay", "sweep", "explore", "merge"})
      CHECK(result.err.find(verb) != std::string::npos);
  }
}

TEST_CASE("list shows every built-in scenario", "[cli]") {
  const auto result = run_weft({"list"});
  CHECK(result.status == 0);
  for (const char* name : {"right_permute", "ring_all_gather", "ring_all_reduce", "core_pipeline"})
    CHECK(result.out.find(name) != std::string::npos);
  CHECK(result.out.find("configs/ring8.toml") != std::string::npos);
}
