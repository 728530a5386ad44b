// Tree clocks against the dense vector clocks they replace (model/races.hpp): on generated
// kernels (tests/sim/generated_kernels.hpp, longer ones of up to eight cores), in every DMA
// execution mode, with both semaphore clock modes and with keep_going, and on the built-in
// scenarios, every schedule gives the same verdict, report, failure sites and steps with either
// clocks, and every race the same explanation, byte for byte.

#include <catch2/catch.hpp>

#include <string>

#include "scenarios/registry.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/explain/explain.hpp"
#include "tests/sim/generated_kernels.hpp"

using namespace weft;
using namespace weft::generated;

namespace {

// What a run gives that a user reads: its verdict and report, where it failed, its schedule,
// and for a race or other failure the explanation.
std::string outcome(sim::Simulation& simulation, std::uint64_t seed) {
  const sim::ExecutionResult result = simulation.run_seed(seed);
  std::string text = std::string(model::to_string(result.verdict)) + "\n" + result.details + "\nsteps " +
                     std::to_string(result.steps) + "\n" + scheduler::encode(result.schedule) + "\n";
  for (const auto& site : result.sites)
    text += std::to_string(static_cast<int>(site.who.kind)) + " " + std::to_string(site.who.index) + " step " +
            std::to_string(site.step) + " " + model::to_string(site.line) + " " + site.what + " " +
            model::to_string(site.rect) + "\n";
  if (result.verdict == model::Verdict::data_race) text += sim::format_explanation(sim::explain(simulation, result));
  return text;
}

sim::Config with_clocks(sim::Config config, model::ClockKind clocks) {
  config.race_detection.clocks = clocks;
  return config;
}

// Every seed of `seeds` under `config`, with tree clocks and with dense ones; the count of races.
int compare(const sim::ScenarioDefinition& scenario, const sim::Config& config, const sim::Params& params,
            std::uint64_t seeds) {
  sim::Simulation tree(with_clocks(config, model::ClockKind::tree), scenario, params);
  sim::Simulation dense(with_clocks(config, model::ClockKind::vector), scenario, params);
  int races = 0;
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    CAPTURE(seed);
    const std::string a = outcome(tree, seed), b = outcome(dense, seed);
    REQUIRE(a == b);
    races += a.rfind("data_race", 0) == 0 ? 1 : 0;
  }
  return races;
}

// Kernels first_seed..last_seed: 2 to 8 cores, each core's program three generated ones in a row.
void compare_generated(std::uint64_t first_seed, std::uint64_t last_seed) {
  const Kinds* families[] = {&later_verbs, &wide_verbs, &scoped_verbs, &first_verbs};
  int kernels = 0, races = 0;
  for (std::uint64_t seed = first_seed; seed <= last_seed; ++seed) {
    const int cores = 2 + static_cast<int>(seed % 7);
    const Kinds& kinds = *families[seed % 4];
    Program program = generate_program(seed, cores, kinds);
    for (std::uint64_t more : {1'000'003u, 2'000'003u}) {
      const Program next = generate_program(seed + more, cores, kinds);
      for (int core = 0; core < cores; ++core)
        program[static_cast<std::size_t>(core)].insert(program[static_cast<std::size_t>(core)].end(),
                                                       next[static_cast<std::size_t>(core)].begin(),
                                                       next[static_cast<std::size_t>(core)].end());
    }
    const auto scenario = scenario_of(program);
    ++kernels;
    for (const auto mode : {model::DmaExecution::async, model::DmaExecution::eager, model::DmaExecution::on_wait})
      for (const auto clocks : {model::SemaphoreClocks::precise, model::SemaphoreClocks::accumulate})
        for (const bool keep_going : {false, true}) {
          CAPTURE(seed, cores, static_cast<int>(mode), static_cast<int>(clocks), keep_going);
          sim::Config config;
          config.machine.mesh = {1};
          config.machine.cores_per_device = cores;
          config.machine.uninitialized = model::Uninitialized::zero;
          config.machine.dma_execution = mode;
          config.machine.dma_chunk_bytes = seed % 3 == 0 ? 4 : 0;
          config.race_detection.semaphore_clocks = clocks;
          config.race_detection.keep_going = keep_going;
          races += compare(scenario, config, scenario.params, 6);
        }
  }
  INFO(kernels << " kernels, " << races << " schedules with a race");
  CHECK(races > kernels);  // the kernels do race, often: the reports were compared
}

}  // namespace

TEST_CASE("tree clocks find the races dense clocks find with the same reports and explanations", "[sim][race]") {
  compare_generated(0, 99);
}

TEST_CASE("tree clocks and dense clocks agree on 300 more generated kernels", "[.long]") {
  compare_generated(100, 399);
}

TEST_CASE("tree clocks and dense clocks agree on every built-in scenario", "[sim][race]") {
  const auto registry = scenarios::builtin_scenarios();
  int races = 0;
  for (const auto& scenario : registry) {
    if (scenario.name == "hostile_spin") continue;  // each of its runs waits for the watchdog
    CAPTURE(scenario.name);
    sim::Config config;
    config.machine.mesh = {8};
    config.machine.cores_per_device = 2;
    config.scheduler.watchdog_seconds = 0.2;
    config.scheduler.max_steps = 20'000;
    for (const bool keep_going : {false, true}) {
      config.race_detection.keep_going = keep_going;
      races += compare(scenario, config, scenario.params, 6);
    }
  }
  CHECK(races > 10);
}
