#include <catch2/catch.hpp>

#include <atomic>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/registry.hpp"
#include "scheduler/rng.hpp"
#include "sim/engine/explore_checkpoint.hpp"
#include "tests/sim/generated_kernels.hpp"
#include "tests/sim/sim_test_support.hpp"

// Checkpoints (sim/engine/explore_checkpoint.hpp, the explorer's state and drop_run): an
// exploration stopped at many points, midway through a run or between runs, saved through a
// checkpoint's bytes and resumed, runs the same runs in the same order as one never stopped.

using namespace weft;

namespace {

const sim::ScenarioDefinition& builtin(const std::string& name) {
  static const auto registry = scenarios::builtin_scenarios();
  return *sim::find_scenario(registry, name);
}

struct Stopped {};

// The explorer's strategy, stopped (Stopped thrown) at its pick number `at` of the run.
class StopAt final : public scheduler::Strategy {
 public:
  StopAt(scheduler::Strategy& inner, std::size_t at) : inner_(inner), at_(at) {}
  std::size_t pick(std::span<const scheduler::Actor> enabled, const scheduler::StepContext& context) override {
    if (picks_++ == at_) throw Stopped{};
    return inner_.pick(enabled, context);
  }
  void after_step(scheduler::Actor actor, const scheduler::StepContext& context) override {
    inner_.after_step(actor, context);
  }
  void at_end(std::span<const scheduler::Actor> enabled, const scheduler::StepContext& context) override {
    inner_.at_end(enabled, context);
  }

 private:
  scheduler::Strategy& inner_;
  std::size_t at_;
  std::size_t picks_ = 0;
};

// What an exploration ran: each complete run's schedule and verdict, in order.
struct Runs {
  std::vector<scheduler::Schedule> schedules;
  std::vector<model::Verdict> verdicts;
  std::uint64_t abandoned = 0;
  double estimate = 0;
  bool exhausted = false, bound_hit = false;
  std::size_t stops = 0;  // how many times it was stopped and restored
  bool operator==(const Runs& other) const {
    return schedules == other.schedules && verdicts == other.verdicts && abandoned == other.abandoned &&
           estimate == other.estimate && exhausted == other.exhausted && bound_hit == other.bound_hit;
  }
};

// The explorer driven to its end. With `stop_seed`, each run is stopped once at a pick drawn from
// it (up to the last complete run's length: a pick beyond the run's end stops nothing), then dropped, its state saved
// as a checkpoint's bytes, and a new explorer made from them runs it again.
Runs drive(const sim::ScenarioDefinition& scenario, const sim::Config& config, const scheduler::ExploreOptions& options,
           std::optional<std::uint64_t> stop_seed) {
  sim::Simulation simulation(config, scenario, scenario.params);
  auto explorer = std::make_unique<scheduler::Explorer>(options);
  std::optional<scheduler::Rng> random;
  if (stop_seed) random.emplace(*stop_seed);
  Runs runs;
  bool stopped_this_run = false;
  std::uint64_t last_steps = 8;
  while (explorer->next()) {
    const std::size_t at = random && !stopped_this_run ? static_cast<std::size_t>(random->below(last_steps))
                                                       : std::numeric_limits<std::size_t>::max();
    StopAt strategy(explorer->strategy(), at);
    bool complete = true;
    sim::ExecutionResult result;
    try {
      result = simulation.run(strategy);
    } catch (const scheduler::ExecutionAbandoned&) {
      complete = false;
    } catch (const Stopped&) {
      explorer->drop_run();
      const sim::ExploreCheckpoint checkpoint{{"v", "s", "d"}, {explorer->state(), {}, 0, 0, 0, false}};
      const sim::ExploreCheckpoint back = sim::decode_checkpoint(sim::encode_checkpoint(checkpoint));
      REQUIRE(back == checkpoint);
      explorer = std::make_unique<scheduler::Explorer>(options, back.saved.explorer);
      ++runs.stops;
      stopped_this_run = true;
      continue;
    }
    stopped_this_run = false;
    explorer->finish(complete);
    if (complete) {
      last_steps = std::max<std::uint64_t>(result.steps, 1);
      runs.schedules.push_back(result.schedule);
      runs.verdicts.push_back(result.verdict);
    }
  }
  runs.abandoned = explorer->abandoned_runs();
  runs.estimate = explorer->estimated_classes();
  runs.exhausted = explorer->exhausted();
  runs.bound_hit = explorer->bound_hit();
  return runs;
}

// How many times an exploration was stopped and restored, and how many runs it made.
struct Stops {
  std::size_t stops = 0, runs = 0;
};

Stops same_runs_when_stopped(const sim::ScenarioDefinition& scenario, const sim::Config& config,
                             const scheduler::ExploreOptions& options = {}) {
  const Runs whole = drive(scenario, config, options, std::nullopt);
  REQUIRE_FALSE(whole.schedules.empty());
  Stops counted;
  for (const std::uint64_t seed : {1, 2}) {
    CAPTURE(seed);
    const Runs stopped = drive(scenario, config, options, seed);
    CHECK(stopped == whole);
    counted.stops += stopped.stops;
    counted.runs += whole.schedules.size() + whole.abandoned;
  }
  return counted;
}

std::map<model::Verdict, std::uint64_t> tallies(const sim::ExploreReport& report) {
  std::map<model::Verdict, std::uint64_t> runs;
  for (const auto& found : report.verdicts) runs[found.verdict] = found.runs;
  return runs;
}

// sim::explore stopped by its flag after `every` runs of each process, each time resumed from the
// checkpoint its last save gave (through bytes), until it ends.
sim::ExploreReport explore_in_pieces(const sim::ScenarioDefinition& scenario, const sim::Config& config,
                                     bool keep_going, std::uint64_t every, int* pieces) {
  std::optional<sim::ExploreSaved> saved;
  for (*pieces = 1;; ++*pieces) {
    sim::Simulation simulation(config, scenario, scenario.params);
    std::atomic<bool> stop{false};
    std::uint64_t runs = 0;
    sim::ExploreWatch watch;
    watch.stop = &stop;
    watch.progress = [&](const sim::ExploreProgress&) {
      if (++runs == every) stop = true;
    };
    std::optional<sim::ExploreSaved> last;
    watch.save = [&](const sim::ExploreSaved& state) { last = state; };
    watch.save_every_seconds = 1e9;  // only at the stop
    watch.resume = saved ? &*saved : nullptr;
    const sim::ExploreReport report = sim::explore(simulation, {}, keep_going, nullptr, watch);
    REQUIRE(last);
    saved = sim::decode_checkpoint(sim::encode_checkpoint({{}, *last})).saved;
    if (!report.interrupted) return report;
  }
}

}  // namespace

TEST_CASE("an explorer stopped midway through runs and restored from a checkpoint runs what it would have",
          "[sim][explore]") {
  Stops all;
  const auto add = [&](Stops some) {
    all.stops += some.stops;
    all.runs += some.runs;
  };
  for (const char* name : {"lastzero", "readers"})
    for (const int cores : {3, 5}) {
      CAPTURE(name, cores);
      add(same_runs_when_stopped(builtin(name), sim::test::machine_of(1, cores, false)));
    }
  CAPTURE("generated kernels");
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    const int cores = 2 + static_cast<int>(seed % 3);
    const auto scenario = generated::scenario_of(generated::generate_program(seed, cores, generated::first_verbs));
    for (const bool races : {false, true}) {
      CAPTURE(seed, races);
      sim::Config config = sim::test::machine_of(1, cores, races);
      config.machine.dma_execution = model::DmaExecution::async;
      add(same_runs_when_stopped(scenario, config));
    }
  }
  CHECK(all.stops * 2 > all.runs);  // most runs were stopped once, midway or at their start
}

TEST_CASE("a restored explorer keeps its bounds and the plain enumeration", "[sim][explore]") {
  const sim::Config config = sim::test::machine_of(1, 3, false);
  scheduler::ExploreOptions bounded;
  bounded.preemption_bound = 1;
  same_runs_when_stopped(builtin("readers"), config, bounded);
  scheduler::ExploreOptions plain;
  plain.reduction = false;
  same_runs_when_stopped(builtin("lastzero"), config, plain);
  scheduler::ExploreOptions few;
  few.max_executions = 7;
  same_runs_when_stopped(builtin("readers"), config, few);
}

TEST_CASE("explore stopped by its flag and resumed from its checkpoints ends as one never stopped", "[sim][explore]") {
  const auto check = [](const sim::ScenarioDefinition& scenario, const sim::Config& config, bool keep_going) {
    sim::Simulation simulation(config, scenario, scenario.params);
    const sim::ExploreReport whole = sim::explore(simulation, {}, keep_going);
    for (const std::uint64_t every : {1, 2, 3, 7, 50}) {
      CAPTURE(every);
      int pieces = 0;
      const sim::ExploreReport resumed = explore_in_pieces(scenario, config, keep_going, every, &pieces);
      if (whole.complete + whole.abandoned > every) CHECK(pieces > 1);
      CHECK(resumed.complete == whole.complete);
      CHECK(resumed.abandoned == whole.abandoned);
      CHECK(resumed.exhausted == whole.exhausted);
      CHECK(resumed.stopped_early == whole.stopped_early);
      CHECK(resumed.steps == whole.steps);
      CHECK(resumed.frontier == whole.frontier);
      CHECK(resumed.estimated_classes == whole.estimated_classes);
      CHECK(tallies(resumed) == tallies(whole));
      REQUIRE(resumed.verdicts.size() == whole.verdicts.size());
      for (std::size_t k = 0; k < whole.verdicts.size(); ++k) {
        CHECK(resumed.verdicts[k].verdict == whole.verdicts[k].verdict);
        CHECK(resumed.verdicts[k].first.schedule == whole.verdicts[k].first.schedule);
        CHECK(resumed.verdicts[k].first.details == whole.verdicts[k].first.details);
      }
    }
  };
  check(builtin("lastzero"), sim::test::machine_of(1, 4, false), true);
  check(builtin("readers"), sim::test::machine_of(1, 4, false), true);
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    const int cores = 2 + static_cast<int>(seed % 3);
    const auto scenario = generated::scenario_of(generated::generate_program(seed, cores, generated::first_verbs));
    sim::Config config = sim::test::machine_of(1, cores, true);
    config.machine.dma_execution = model::DmaExecution::async;
    for (const bool keep_going : {true, false}) {
      CAPTURE(seed, keep_going);
      check(scenario, config, keep_going);
    }
  }
}

TEST_CASE("a checkpoint refuses truncated and altered bytes, and names what differs in its identity",
          "[sim][explore]") {
  sim::Simulation simulation(sim::test::machine_of(1, 3, false), builtin("readers"), builtin("readers").params);
  std::optional<sim::ExploreSaved> last;
  sim::ExploreWatch watch;
  watch.save = [&](const sim::ExploreSaved& state) { last = state; };
  scheduler::ExploreOptions options;
  options.max_executions = 5;
  sim::explore(simulation, options, true, nullptr, watch);
  REQUIRE(last);
  const sim::CheckpointIdentity identity{"1.2.3", "readers", "0123456789abcdef", 5, std::nullopt, true, true};
  const std::string bytes = sim::encode_checkpoint({identity, *last});
  CHECK(sim::decode_checkpoint(bytes).saved == *last);
  CHECK(sim::read_identity(bytes) == identity);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut)
    CHECK_THROWS_AS(sim::decode_checkpoint(bytes.substr(0, cut)), sim::byte_codec::DecodeError);
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    std::string altered = bytes;
    altered[at] = static_cast<char>(altered[at] ^ 0x10);
    CHECK_THROWS_AS(sim::decode_checkpoint(altered), sim::byte_codec::DecodeError);
  }
  CHECK_THROWS_WITH(sim::decode_checkpoint("not one"), Catch::Contains("not a weft explore checkpoint"));

  CHECK_FALSE(sim::identity_difference(identity, identity));
  sim::CheckpointIdentity other = identity;
  other.scenario = "lastzero";
  other.preemption_bound = 2;
  CHECK(sim::identity_difference(other, identity) ==
        "the scenario: lastzero here, readers in the checkpoint; --preemption-bound: 2 here, none in the checkpoint");
  other = identity;
  other.weft_version = "1.2.4";
  CHECK(sim::identity_difference(other, identity) == "the weft version: 1.2.4 here, 1.2.3 in the checkpoint");
}

TEST_CASE("a wakeup tree as deep as a long run is written and read back", "[sim][explore]") {
  // A chain of branches, as a reversal's rest makes, with a sibling at every tenth level.
  std::vector<scheduler::Branch> tree(1);
  std::vector<scheduler::Branch>* level = &tree;
  for (std::uint32_t depth = 0; depth < 20'000; ++depth) {
    scheduler::Branch& branch = level->front();
    branch.actor = {scheduler::Actor::Kind::core, depth % 3, 0};
    branch.footprint.touches.push_back({{7, depth, 0, 0}, scheduler::TouchMode::write, {}, 0, false});
    branch.children.resize(depth % 10 == 0 ? 2 : 1);
    if (depth % 10 == 0) branch.children.back().actor = {scheduler::Actor::Kind::dma_read, depth, 1};
    level = &branch.children;
  }
  sim::byte_codec::ByteWriter out;
  out.tree(tree);
  const std::string bytes = out.take();
  sim::byte_codec::ByteReader in(bytes, 0, "test");
  CHECK(in.tree() == tree);
  in.end();
}

TEST_CASE("the shared explorers refuse checkpoints", "[sim][explore]") {
  sim::Simulation a(sim::test::machine_of(1, 3, false), builtin("readers"), builtin("readers").params);
  sim::Simulation b(sim::test::machine_of(1, 3, false), builtin("readers"), builtin("readers").params);
  sim::Simulation* both[] = {&a, &b};
  sim::ExploreWatch watch;
  watch.save = [](const sim::ExploreSaved&) {};
  CHECK_THROWS_AS(sim::explore_in_parallel(both, {}, true, watch), std::invalid_argument);
}
