#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "scenarios/registry.hpp"
#include "scheduler/rng.hpp"
#include "scheduler/strategies/claimed_run.hpp"
#include "scheduler/strategies/explorer.hpp"
#include "sim/engine/explore.hpp"
#include "tests/sim/generated_kernels.hpp"
#include "tests/sim/sim_test_support.hpp"
#include "tests/sim/trace_classes.hpp"

// `explore --jobs N`: several workers sharing one tree (scheduler/strategies/shared_wakeup_tree.hpp)
// against the one-thread explorer and against plain enumeration, in interleaving classes.

using namespace weft;
using namespace weft::generated;
using testing_classes::Recorder;

namespace {

sim::Config one_device(int cores) { return sim::test::machine_of(1, cores, false); }

const sim::ScenarioDefinition& builtin(const std::string& name) {
  static const auto registry = scenarios::builtin_scenarios();
  return *sim::find_scenario(registry, name);
}

using Tallies = std::map<model::Verdict, std::uint64_t>;

Tallies tallies(const sim::ExploreReport& report) {
  Tallies runs;
  for (const auto& found : report.verdicts) runs[found.verdict] = found.runs;
  return runs;
}

std::set<model::Verdict> verdicts_of(const Tallies& tallies) {
  std::set<model::Verdict> verdicts;
  for (const auto& [verdict, runs] : tallies) verdicts.insert(verdict);
  return verdicts;
}

// With threads, as `weft explore --jobs`.
sim::ExploreReport explore_with_threads(int jobs, const sim::ScenarioDefinition& scenario, const sim::Config& config,
                                        const scheduler::ExploreOptions& options = {}) {
  std::vector<std::unique_ptr<sim::Simulation>> owned;
  std::vector<sim::Simulation*> simulations;
  for (int k = 0; k < jobs; ++k) {
    owned.push_back(std::make_unique<sim::Simulation>(config, scenario, scenario.params));
    simulations.push_back(owned.back().get());
  }
  return sim::explore_in_parallel(simulations, options, true);
}

// The classes an exploration ran, each with how many complete runs it got.
struct Classes {
  std::map<std::string, int> runs;
  Tallies verdicts;
  std::uint64_t abandoned = 0;
  bool exhausted = false;
};

// The one-thread explorer (or, without reduction, plain enumeration) with every run recorded.
Classes explore_recorded(const sim::ScenarioDefinition& scenario, const sim::Config& config, bool reduction,
                         std::uint64_t max_executions) {
  scheduler::ExploreOptions options;
  options.reduction = reduction;
  options.max_executions = max_executions;
  scheduler::Explorer explorer(options);
  sim::Simulation simulation(config, scenario, scenario.params);
  Classes classes;
  while (explorer.next()) {
    Recorder recorder(explorer.strategy());
    bool complete = true;
    model::Verdict verdict = model::Verdict::ok;
    try {
      verdict = simulation.run(recorder).verdict;
    } catch (const scheduler::ExecutionAbandoned&) {
      complete = false;
    }
    explorer.finish(complete);
    const std::string run_class = recorder.take_class();
    if (!complete) {
      ++classes.abandoned;
      continue;
    }
    ++classes.runs[run_class];
    ++classes.verdicts[verdict];
  }
  classes.exhausted = explorer.exhausted();
  return classes;
}

// The shared tree driven by one thread, its workers' turns in a seeded order: a worker claims a
// branch and runs it at once, and puts the run into the tree at a later turn, as a thread that
// was slower would. What threads do by timing, this does by seed, so any difference replays.
Classes explore_interleaved(const sim::ScenarioDefinition& scenario, const sim::Config& config, int workers,
                            std::uint64_t seed) {
  struct Worker {
    std::unique_ptr<sim::Simulation> simulation;
    scheduler::ClaimedRun strategy;
    bool busy = false, complete = false;
    model::Verdict verdict = model::Verdict::ok;
    std::string run_class;
    std::optional<scheduler::SharedWakeupTree::Path> near;
  };
  scheduler::SharedWakeupTree tree;
  std::vector<Worker> pool(static_cast<std::size_t>(workers));
  for (Worker& worker : pool) worker.simulation = std::make_unique<sim::Simulation>(config, scenario, scenario.params);
  scheduler::Rng rng(seed);
  Classes classes;
  const auto claim_and_run = [&](Worker& worker) {
    auto claim = tree.claim(worker.near ? &*worker.near : nullptr, &worker.strategy.sleeps());
    worker.near.reset();
    tree.prune();
    if (!claim) return;
    worker.strategy.start(std::move(*claim));
    Recorder recorder(worker.strategy);
    worker.busy = true;
    worker.complete = true;
    try {
      worker.verdict = worker.simulation->run(recorder).verdict;
    } catch (const scheduler::ExecutionAbandoned&) {
      worker.complete = false;
    }
    worker.run_class = recorder.take_class();
  };
  const auto finish = [&](Worker& worker) {
    std::vector<scheduler::Reversal>& reversals = worker.strategy.analyse();
    auto states = worker.strategy.new_states();
    worker.near = tree.finish(worker.strategy.claim(), std::move(states), worker.strategy.run(), reversals);
    worker.busy = false;
    if (!worker.complete) {
      ++classes.abandoned;
      return;
    }
    ++classes.runs[worker.run_class];
    ++classes.verdicts[worker.verdict];
  };
  const auto busy = [&] { return std::any_of(pool.begin(), pool.end(), [](const Worker& w) { return w.busy; }); };
  for (std::uint64_t turns = 0; !tree.done() || busy(); ++turns) {
    REQUIRE(turns < 10'000'000);
    Worker& worker = pool[rng.below(pool.size())];
    if (worker.busy) finish(worker);
    if (!worker.busy) claim_and_run(worker);
  }
  classes.exhausted = true;
  return classes;
}

bool each_once(const Classes& classes) {
  return std::all_of(classes.runs.begin(), classes.runs.end(), [](const auto& entry) { return entry.second == 1; });
}

bool within(const Classes& some, const Classes& all) {
  return std::all_of(some.runs.begin(), some.runs.end(),
                     [&](const auto& entry) { return all.runs.count(entry.first) > 0; });
}

}  // namespace

TEST_CASE("explore with several threads runs lastzero and readers' published counts", "[sim][explore]") {
  for (int n = 1; n <= 4; ++n) {
    for (const char* name : {"lastzero", "readers"}) {
      sim::Simulation simulation(one_device(n + 1), builtin(name), builtin(name).params);
      const auto one = sim::explore(simulation, {}, true);
      REQUIRE(one.exhausted);
      for (const int jobs : {1, 2, 3}) {
        CAPTURE(name, n, jobs);
        const auto shared = explore_with_threads(jobs, builtin(name), one_device(n + 1));
        CHECK(shared.exhausted);
        CHECK(shared.complete == one.complete);
        CHECK(shared.abandoned == 0);
        CHECK(tallies(shared) == tallies(one));
      }
    }
  }
}

// Turns in seeded orders, on generated kernels whose races are not detected (each run goes to its
// end, the one-thread explorer's setting for one run per class): every class once, every class
// the one-thread explorer runs, the same verdicts, and where plain enumeration ends within its
// bound, exactly the classes it runs, for the shared tree and for one thread. Runs cut short by
// their sleep sets are bounded at one in a hundred (docs/decisions/explorer-abandoned-runs.md).
TEST_CASE("the shared tree with seeded turns runs each class once and every class one thread runs", "[sim][explore]") {
  int kernels = 0, enumerated = 0;
  std::uint64_t runs = 0, abandoned = 0;
  for (const Kinds* kinds : {&first_verbs, &later_verbs, &wide_verbs}) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      const int cores = 2 + static_cast<int>(seed % 3);
      const auto scenario = scenario_of(generate_program(seed, cores, *kinds));
      for (const auto mode : {model::DmaExecution::async, model::DmaExecution::eager}) {
        sim::Config config = one_device(cores);
        config.machine.dma_execution = mode;
        config.machine.dma_chunk_bytes = kinds == &wide_verbs ? 4 : 0;
        const Classes one = explore_recorded(scenario, config, true, 3000);
        if (!one.exhausted) continue;
        const Classes all = explore_recorded(scenario, config, false, 3000);
        if (all.exhausted) CHECK(within(all, one));
        for (std::uint64_t turns = 0; turns < 8; ++turns) {
          CAPTURE(kinds->size(), seed, cores, static_cast<int>(mode), turns);
          const Classes shared = explore_interleaved(scenario, config, 2 + static_cast<int>(turns % 2), turns);
          CHECK(each_once(shared));
          CHECK(within(one, shared));
          CHECK(verdicts_of(shared.verdicts) == verdicts_of(one.verdicts));
          if (all.exhausted) CHECK((within(shared, all) && within(all, shared)));
          runs += shared.runs.size();
          abandoned += shared.abandoned;
        }
        ++kernels;
        enumerated += all.exhausted ? 1 : 0;
      }
    }
  }
  INFO(kernels << " kernels, " << enumerated << " of them also enumerated; " << abandoned << " runs cut short, " << runs
               << " complete");
  CHECK(abandoned * 100 <= runs);
  CHECK(kernels >= 60);
  CHECK(enumerated >= 30);
}

// The kernels on which the one-thread explorer once missed classes, while v was cut at e_j
// instead of holding all of notdep(e_i) (race_analysis.hpp): 67 of 68 on the first (core 2's
// signals to cores 1 and 3 both before the waits they could satisfy), 2,311 of 2,319 on the
// second. Plain enumeration of the second takes some seconds: `[.long]`.
namespace {

// One thread's classes against plain enumeration's, which must end within `plain_bound` runs and
// find `classes`; one thread's, for the caller's own checks.
Classes one_thread_runs_every_class(const Program& program, int cores, model::DmaExecution mode, std::uint64_t bound,
                                    std::uint64_t plain_bound, std::size_t classes) {
  const auto scenario = scenario_of(program);
  sim::Config config = one_device(cores);
  config.machine.dma_execution = mode;
  const Classes one = explore_recorded(scenario, config, true, bound);
  const Classes all = explore_recorded(scenario, config, false, plain_bound);
  REQUIRE(all.exhausted);
  CHECK(all.runs.size() == classes);
  CHECK(each_once(one));
  CHECK((within(all, one) && within(one, all)));
  return one;
}

}  // namespace

TEST_CASE("one thread runs every class plain enumeration finds on the kernels it once missed some of",
          "[sim][explore]") {
  const Classes one = one_thread_runs_every_class(generate_program(29, 4, later_verbs), 4, model::DmaExecution::eager,
                                                  3000, 100000, 68);
  CHECK(one.runs.size() == 68);
}

TEST_CASE("one thread runs every class of the first verbs' kernel of seed 3", "[.long]") {
  one_thread_runs_every_class(generate_program(3, 2, first_verbs), 2, model::DmaExecution::async, 10000, 5000000, 2319);
}

// With threads, on generated kernels of every family, race detection on and off: the verdicts one
// thread finds. Under race detection a run stops at its first race, and the one-thread explorer
// itself runs some classes more than once there (explorer.hpp, "A run's end"): the counts may
// differ, the verdicts may not.
TEST_CASE("explore with several threads finds the verdicts one thread finds on generated kernels", "[sim][explore]") {
  int kernels = 0;
  for (const Kinds* kinds : {&later_verbs, &wide_verbs, &polling_verbs, &scoped_verbs}) {
    for (std::uint64_t seed = 0; seed < 16; ++seed) {
      const int max_cores = kinds == &scoped_verbs ? 3 : 4;
      const int cores = 2 + static_cast<int>(seed % static_cast<std::uint64_t>(max_cores - 1));
      const auto scenario = scenario_of(generate_program(seed, cores, *kinds));
      for (const auto mode : {model::DmaExecution::async, model::DmaExecution::eager}) {
        for (const bool races : {false, true}) {
          CAPTURE(kinds->size(), seed, cores, static_cast<int>(mode), races);
          sim::Config config = one_device(cores);
          config.machine.dma_execution = mode;
          config.machine.dma_chunk_bytes = kinds == &wide_verbs ? 4 : 0;
          config.race_detection.enabled = races;
          scheduler::ExploreOptions options;
          options.max_executions = 5000;
          sim::Simulation simulation(config, scenario, scenario.params);
          const auto one = sim::explore(simulation, options, true);
          if (!one.exhausted) continue;
          for (const int jobs : {2, 3}) {
            CAPTURE(jobs);
            const auto shared = explore_with_threads(jobs, scenario, config, options);
            CHECK(shared.exhausted);
            CHECK(verdicts_of(tallies(shared)) == verdicts_of(tallies(one)));
          }
          ++kernels;
        }
      }
    }
  }
  CHECK(kernels >= 100);
}

TEST_CASE("explore with several threads stops at the first failure, or the bound, and says so", "[sim][explore]") {
  const auto& scenario = builtin("lastzero");
  sim::Config config = one_device(6);
  scheduler::ExploreOptions options;
  options.max_executions = 40;
  const auto bounded = explore_with_threads(2, scenario, config, options);
  CHECK(bounded.bound_hit);
  CHECK_FALSE(bounded.exhausted);
  CHECK(bounded.complete + bounded.abandoned == 40);  // every claimed run ran to its end

  // Stopped at the first failure: the failure's run replays to it from its schedule.
  sim::Config racy = one_device(4);
  racy.race_detection.enabled = true;
  std::vector<std::unique_ptr<sim::Simulation>> owned;
  std::vector<sim::Simulation*> simulations;
  for (int k = 0; k < 2; ++k) {
    owned.push_back(std::make_unique<sim::Simulation>(racy, builtin("readers"), builtin("readers").params));
    simulations.push_back(owned.back().get());
  }
  const auto stopped = sim::explore_in_parallel(simulations, {}, false);
  CHECK(stopped.stopped_early);
  CHECK_FALSE(stopped.exhausted);
  const auto failure = std::find_if(stopped.verdicts.begin(), stopped.verdicts.end(),
                                    [](const sim::FoundVerdict& found) { return found.verdict != model::Verdict::ok; });
  REQUIRE(failure != stopped.verdicts.end());
  CHECK(failure->verdict == model::Verdict::data_race);
  sim::Simulation replay(racy, builtin("readers"), builtin("readers").params);
  CHECK(replay.run_schedule(failure->first.schedule).verdict == failure->verdict);

  // A preemption bound or no reduction stays with one thread.
  options = {};
  options.preemption_bound = 1;
  CHECK_THROWS_AS(explore_with_threads(2, scenario, config, options), std::invalid_argument);
}

TEST_CASE("explore with several threads rethrows a worker's error after stopping every worker", "[sim][explore]") {
  // The kernel's behaviour depends on how often it ran before (state outside the simulation), so
  // a forced prefix does not replay: the explorer throws in the worker that ran it.
  auto runs = std::make_shared<std::atomic<int>>(0);
  sim::ScenarioDefinition flaky;
  flaky.name = "flaky";
  flaky.kernel = [runs](sim::Core& core) {
    auto x = core.vmem_shared<std::int32_t>({1});
    const int extra = core.core_id() == 0 ? (*runs)++ % 3 : 0;
    for (int i = 0; i < 2 + extra; ++i) core.store(x, sim::Tile<std::int32_t>::Constant(1, 1, i));
  };
  CHECK_THROWS_AS(explore_with_threads(2, flaky, one_device(3)), std::logic_error);
}

TEST_CASE("explore with several threads takes runs of 200,000 steps", "[sim][explore]") {
  // The shared tree holds a state per step of a run: its walks and its freeing take no recursion.
  sim::Config config = one_device(2);
  config.machine.dma_execution = model::DmaExecution::async;
  config.race_detection.enabled = false;
  config.scheduler.max_steps = 1'000'000;
  const sim::ScenarioDefinition& pipeline = builtin("core_pipeline");
  sim::ScenarioDefinition long_pipeline = pipeline;
  long_pipeline.params = {{"tiles", 10'000}, {"rows", 1}, {"cols", 128}, {"tile_offset", 0}};
  scheduler::ExploreOptions options;
  options.max_executions = 6;
  const sim::ExploreReport report = explore_with_threads(2, long_pipeline, config, options);
  CHECK(report.bound_hit);
  CHECK(report.complete >= 6);
  CHECK(verdicts_of(tallies(report)) == std::set<model::Verdict>{model::Verdict::ok});
}
