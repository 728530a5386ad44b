#include <catch2/catch.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "scenarios/registry.hpp"
#include "sim/engine/explore_messages.hpp"
#include "sim/engine/explore_over_ranks.hpp"
#include "tests/sim/generated_kernels.hpp"
#include "tests/sim/sim_test_support.hpp"

// One exploration shared by ranks (sim/engine/explore_over_ranks.hpp), each rank a thread here,
// their messages passed through mailboxes: every message is encoded and decoded as between MPI
// ranks. Against the one-thread explorer: the same complete runs and verdicts, and a failure's
// representative that replays it.

using namespace weft;
namespace messages = weft::sim::explore_messages;

namespace {

const sim::ScenarioDefinition& builtin(const std::string& name) {
  static const auto registry = scenarios::builtin_scenarios();
  return *sim::find_scenario(registry, name);
}

// A mailbox per rank.
class Mailboxes {
 public:
  explicit Mailboxes(int ranks) : boxes_(static_cast<std::size_t>(ranks)) {}
  void put(int to, sim::RankTransport::Message message) {
    Box& box = boxes_[static_cast<std::size_t>(to)];
    const std::lock_guard guard(box.mutex);
    box.messages.push_back(std::move(message));
    box.arrived.notify_one();
  }
  std::optional<sim::RankTransport::Message> get(int rank, bool wait) {
    Box& box = boxes_[static_cast<std::size_t>(rank)];
    std::unique_lock lock(box.mutex);
    if (wait) box.arrived.wait(lock, [&] { return !box.messages.empty(); });
    if (box.messages.empty()) return std::nullopt;
    sim::RankTransport::Message message = std::move(box.messages.front());
    box.messages.pop_front();
    return message;
  }
  int ranks() const { return static_cast<int>(boxes_.size()); }

 private:
  struct Box {
    std::mutex mutex;
    std::condition_variable arrived;
    std::deque<sim::RankTransport::Message> messages;
  };
  std::vector<Box> boxes_;
};

class MailboxTransport final : public sim::RankTransport {
 public:
  MailboxTransport(Mailboxes& boxes, int rank) : boxes_(boxes), rank_(rank) {}
  int rank() const override { return rank_; }
  int ranks() const override { return boxes_.ranks(); }
  void send(int to, std::string_view bytes) override { boxes_.put(to, {rank_, std::string(bytes)}); }
  std::optional<Message> receive(bool wait) override { return boxes_.get(rank_, wait); }

 private:
  Mailboxes& boxes_;
  int rank_;
};

struct Shared {
  sim::ExploreReport report;
  sim::OwnerFigures figures;
};

Shared explore_ranks(int ranks, const sim::ScenarioDefinition& scenario, const sim::Config& config, bool keep_going,
                     const scheduler::ExploreOptions& options = {}) {
  Mailboxes boxes(ranks);
  std::vector<std::thread> helpers;
  for (int rank = 1; rank < ranks; ++rank)
    helpers.emplace_back([&, rank] {
      MailboxTransport transport(boxes, rank);
      sim::Simulation simulation(config, scenario, scenario.params);
      sim::help_explore(simulation, transport);
    });
  MailboxTransport transport(boxes, 0);
  sim::Simulation simulation(config, scenario, scenario.params);
  Shared shared;
  shared.report = sim::explore_over_ranks(simulation, transport, options, keep_going, {}, &shared.figures);
  for (std::thread& helper : helpers) helper.join();
  return shared;
}

std::map<model::Verdict, std::uint64_t> tallies(const sim::ExploreReport& report) {
  std::map<model::Verdict, std::uint64_t> runs;
  for (const auto& found : report.verdicts) runs[found.verdict] = found.runs;
  return runs;
}

}  // namespace

TEST_CASE("ranks sharing one exploration run lastzero and readers' counts", "[sim][explore]") {
  for (const int cores : {3, 4}) {
    for (const char* name : {"lastzero", "readers"}) {
      const sim::Config config = sim::test::machine_of(1, cores, false);
      const sim::ExploreReport one = sim::test::explore(builtin(name), config);
      REQUIRE(one.exhausted);
      for (const int ranks : {1, 2, 3}) {
        CAPTURE(name, cores, ranks);
        const Shared shared = explore_ranks(ranks, builtin(name), config, true);
        CHECK(shared.report.exhausted);
        CHECK(shared.report.complete == one.complete);
        CHECK(shared.report.abandoned == 0);
        CHECK(tallies(shared.report) == tallies(one));
        CHECK(shared.figures.ranks == ranks);
        if (ranks == 1) CHECK(shared.figures.helper_runs == 0);
      }
    }
  }
}

// Generated kernels (tests/sim/generated_kernels.hpp), with and without race detection, some of
// them failing: with --keep-going, the verdicts of one thread, and its complete runs where its
// runs are one per class (no race detection: every run goes to its end).
TEST_CASE("ranks sharing one exploration give one thread's verdicts on generated kernels", "[sim][explore]") {
  int failing = 0;
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    const int cores = 2 + static_cast<int>(seed % 3);
    const auto scenario = generated::scenario_of(generated::generate_program(seed, cores, generated::first_verbs));
    for (const bool races : {false, true}) {
      sim::Config config = sim::test::machine_of(1, cores, races);
      config.machine.dma_execution = model::DmaExecution::async;
      CAPTURE(seed, races);
      const sim::ExploreReport one = sim::test::explore(scenario, config);
      const Shared shared = explore_ranks(3, scenario, config, true);
      CHECK(shared.report.exhausted == one.exhausted);
      auto verdicts = [](const sim::ExploreReport& report) {
        std::vector<model::Verdict> found;
        for (const auto& each : report.verdicts) found.push_back(each.verdict);
        std::sort(found.begin(), found.end());
        return found;
      };
      CHECK(verdicts(shared.report) == verdicts(one));
      if (!races) CHECK(shared.report.complete == one.complete);
      failing += one.found(model::Verdict::ok) && one.verdicts.size() == 1 ? 0 : 1;
    }
  }
  CHECK(failing > 0);
}

TEST_CASE("a failure found by ranks stops them all, and its run replays it", "[sim][explore]") {
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    const int cores = 2 + static_cast<int>(seed % 3);
    const auto scenario = generated::scenario_of(generated::generate_program(seed, cores, generated::first_verbs));
    sim::Config config = sim::test::machine_of(1, cores, true);
    config.machine.dma_execution = model::DmaExecution::async;
    const sim::ExploreReport all = sim::test::explore(scenario, config);
    if (all.verdicts.size() == 1 && all.found(model::Verdict::ok)) continue;
    CAPTURE(seed);
    const Shared shared = explore_ranks(3, scenario, config, false);
    CHECK(shared.report.stopped_early);
    CHECK_FALSE(shared.report.exhausted);
    for (const sim::FoundVerdict& found : shared.report.verdicts) {
      CHECK(all.found(found.verdict));
      sim::Simulation simulation(config, scenario, scenario.params);
      CHECK(simulation.run_schedule(found.first.schedule).verdict == found.verdict);
      CHECK_FALSE(found.first.details.empty() == (found.verdict != model::Verdict::ok));
    }
  }
}

TEST_CASE("ranks stop at --max-executions", "[sim][explore]") {
  scheduler::ExploreOptions options;
  options.max_executions = 10;
  for (const int ranks : {1, 3}) {
    CAPTURE(ranks);
    const Shared shared = explore_ranks(ranks, builtin("readers"), sim::test::machine_of(1, 5, false), true, options);
    CHECK(shared.report.bound_hit);
    CHECK(shared.report.complete + shared.report.abandoned == 10);
  }
}

// Rank 0 against a helper played by the test: its failure, then its stopped run.
TEST_CASE("rank 0 stops at a helper's failure or stopped run and reports it", "[sim][explore]") {
  const sim::Config config = sim::test::machine_of(1, 13, false);
  for (const bool fails : {true, false}) {
    CAPTURE(fails);
    Mailboxes boxes(2);
    std::thread helper([&] {
      MailboxTransport transport(boxes, 1);
      transport.send(0, messages::encode_ready());
      for (;;) {
        const auto message = transport.receive(true);
        if (messages::kind_of(message->bytes) == messages::Kind::stop) return;
        messages::Outcome stopped;
        stopped.stopped = true;
        transport.send(0, fails ? messages::encode_error("out of luck")
                                : messages::encode_run({}, 0, {}, {{}, {}, {}, {0}}, stopped));
      }
    });
    MailboxTransport transport(boxes, 0);
    sim::Simulation simulation(config, builtin("readers"), builtin("readers").params);
    std::optional<sim::ExploreReport> report;
    std::string error;
    try {
      report = sim::explore_over_ranks(simulation, transport, {}, true);
    } catch (const std::runtime_error& thrown) {
      error = thrown.what();
    }
    helper.join();
    // Rank 0 may have explored everything before the helper asked: then nothing stopped it.
    if (report && report->exhausted) continue;
    if (fails) {
      CHECK(error == "explore: rank 1: out of luck");
    } else {
      REQUIRE(report);
      CHECK(report->interrupted);
    }
  }
}

// A helper played against by the test: it reports a claim it cannot replay (a core its machine
// does not have) as its failure, and with its stop flag raised, its run as stopped.
TEST_CASE("a helper reports its failure and its stop flag to rank 0", "[sim][explore]") {
  const sim::Config config = sim::test::machine_of(1, 3, false);
  for (const bool stopping : {false, true}) {
    CAPTURE(stopping);
    const std::atomic<bool> stop{stopping};
    sim::ExploreWatch watch;
    watch.stop = &stop;
    Mailboxes boxes(2);
    std::thread helper([&] {
      MailboxTransport transport(boxes, 1);
      sim::Simulation simulation(config, builtin("readers"), builtin("readers").params);
      sim::help_explore(simulation, transport, watch);
    });
    MailboxTransport owner(boxes, 0);
    CHECK(messages::kind_of(owner.receive(true)->bytes) == messages::Kind::ready);
    scheduler::SharedWakeupTree::Claim claim;
    claim.first = stopping;
    if (!stopping) {
      claim.forced = {{scheduler::Actor::Kind::core, 40, 0}};
      claim.sleeps = {{}};
    }
    owner.send(1, messages::encode_claim(claim));
    const auto answer = owner.receive(true);
    if (stopping) {
      CHECK(messages::decode_run(answer->bytes).outcome.stopped);
    } else {
      CHECK_THAT(messages::decode_error(answer->bytes),
                 Catch::Matchers::StartsWith("explorer: the forced prefix did not replay"));
    }
    owner.send(1, messages::encode_stop());
    helper.join();
  }
}
