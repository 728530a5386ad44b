// The explorer's analysis of a run, grown from the last run's over the events they share
// (scheduler/strategies/growing_order.hpp, race_analysis.hpp's AnalysisMemory), against each run
// analysed whole: two explorers of the same generated kernel, one of each, run side by side must
// be in the same state after every run (the same trees, sleep sets and counts), and find the
// same verdicts, run for run. And the analysis kept for the next run counts in the explorer's
// memory (what its budget measures).

#include <catch2/catch.hpp>

#include <algorithm>

#include "scheduler/strategies/explorer.hpp"
#include "sim/engine/explore.hpp"
#include "tests/sim/generated_kernels.hpp"

using namespace weft;
using namespace weft::generated;

namespace {

// The runs both explorers made, or 0 where a state differed (the test has failed then).
std::uint64_t compare_side_by_side(const sim::ScenarioDefinition& scenario, const sim::Config& config) {
  sim::Simulation whole_simulation(config, scenario, scenario.params),
      grown_simulation(config, scenario, scenario.params);
  scheduler::ExploreOptions whole_options, grown_options;
  whole_options.max_executions = grown_options.max_executions = 3000;
  whole_options.reuse_analysis = false;
  scheduler::Explorer whole(whole_options), grown(grown_options);
  const auto one_run = [](scheduler::Explorer& explorer, sim::Simulation& simulation) {
    try {
      const sim::ExecutionResult result = simulation.run(explorer.strategy());
      explorer.finish(true);
      return std::string(model::to_string(result.verdict));
    } catch (const scheduler::ExecutionAbandoned&) {
      explorer.finish(false);
      return std::string("abandoned");
    }
  };
  std::uint64_t runs = 0;
  while (true) {
    const bool more = whole.next();
    REQUIRE(grown.next() == more);
    if (!more) break;
    CAPTURE(runs);
    REQUIRE(one_run(whole, whole_simulation) == one_run(grown, grown_simulation));
    REQUIRE(whole.state() == grown.state());
    ++runs;
  }
  return runs;
}

void compare_on_generated_kernels(std::uint64_t first_seed, std::uint64_t last_seed, const Kinds& kinds,
                                  int max_cores = 4, int launches = 1) {
  last_seed = last_seed_run(first_seed, last_seed);
  std::uint64_t runs = 0;
  for (std::uint64_t seed = first_seed; seed <= last_seed; ++seed) {
    const int cores = 2 + static_cast<int>(seed % static_cast<std::uint64_t>(max_cores - 1));
    const auto scenario = scenario_of(generate_program(seed, cores, kinds));
    for (const auto mode : {model::DmaExecution::async, model::DmaExecution::eager}) {
      for (const bool races : {false, true}) {
        CAPTURE(seed, cores, static_cast<int>(mode), races);
        runs += compare_side_by_side(scenario, generated_config(cores, mode, races, 0, launches));
      }
    }
  }
  INFO(runs << " runs side by side");
  CHECK(runs > 4 * (last_seed + 1 - first_seed));  // the kernels do branch
}

}  // namespace

TEST_CASE("an analysis grown over the shared events explores as the whole one does", "[sim][explore]") {
  compare_on_generated_kernels(0, 39, first_verbs);
  compare_on_generated_kernels(0, 39, later_verbs);
  compare_on_generated_kernels(0, 29, scoped_verbs, 3);
  compare_on_generated_kernels(0, 29, polling_verbs);
}

TEST_CASE("an analysis grown over the shared events explores programs of two launches as the whole one does",
          "[sim][explore]") {
  const auto without_share = [](Kinds kinds) {
    std::erase(kinds, Op::share);
    return kinds;
  };
  compare_on_generated_kernels(0, 15, without_share(first_verbs), 2, 2);
}

TEST_CASE("the analysis kept for the next run counts in the explorer's memory", "[sim][explore]") {
  // At least its happens-before: a chain, a position, a row start and one clock entry an event
  // (ten launches of a generated kernel, so that the run is long).
  Kinds kinds = first_verbs;
  std::erase(kinds, Op::share);  // a shared buffer is one launch's
  const auto scenario = scenario_of(generate_program(7, 4, kinds));
  const sim::Config config = generated_config(4, model::DmaExecution::async, false, 0, 10);
  sim::Simulation whole_simulation(config, scenario, scenario.params),
      grown_simulation(config, scenario, scenario.params);
  scheduler::ExploreOptions whole_options;
  whole_options.reuse_analysis = false;
  scheduler::Explorer whole(whole_options), grown(scheduler::ExploreOptions{});
  REQUIRE(whole.next());
  REQUIRE(grown.next());
  const sim::ExecutionResult first = whole_simulation.run(whole.strategy());
  const std::size_t steps = first.schedule.size();
  INFO(model::to_string(first.verdict) << " " << first.details);
  REQUIRE(grown_simulation.run(grown.strategy()).schedule.size() == steps);
  whole.finish(true);
  grown.finish(true);
  REQUIRE(whole.state() == grown.state());
  INFO(steps << " steps; " << whole.memory_bytes() << " bytes analysing whole, " << grown.memory_bytes()
             << " keeping the analysis");
  CHECK(steps > 40);
  CHECK(grown.memory_bytes() >= whole.memory_bytes() + steps * (3 * sizeof(std::uint32_t) + sizeof(std::size_t)));
}
