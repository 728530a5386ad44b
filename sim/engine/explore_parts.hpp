#pragma once
// What the one-thread exploration (explore.cpp) and the shared one (explore_in_parallel.cpp)
// have in common: the stop flag's strategy wrapper, when to measure what the explorer keeps,
// which configurations can be explored, and the tally of verdicts.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "scheduler/strategy.hpp"
#include "sim/engine/explore.hpp"

namespace weft::sim::explore_parts {

// What the explorer keeps is measured by a walk over all of it, so not after every run but after
// one run more for each 64 KiB it kept at the last measure: the walks then cost about as much as
// walking 64 KiB per run (walking the whole tree after every run cost 40% of a small kernel's
// exploration), and the budget is passed by at most that many runs' growth (some KB each: a
// few percent of it). Run counts decide, so the point where an exploration stops does not depend
// on the machine's speed.
constexpr std::size_t measure_every_bytes = std::size_t{64} << 10;

// Thrown out of a run when the stop flag is raised.
struct ExploreStopped {};

// The explorer's strategy, with the stop flag looked at before every choice (a relaxed load:
// it never influences a choice, it only ends the run).
class Stoppable final : public scheduler::Strategy {
 public:
  // `halt`: a second flag, the shared exploration's own (a failure found, or a worker's error).
  Stoppable(scheduler::Strategy& inner, const std::atomic<bool>* stop, const std::atomic<bool>* halt = nullptr)
      : inner_(inner), stop_(stop), halt_(halt) {}
  std::size_t pick(std::span<const scheduler::Actor> enabled, const scheduler::StepContext& context) override {
    if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) throw ExploreStopped{};
    if (halt_ != nullptr && halt_->load(std::memory_order_relaxed)) throw ExploreStopped{};
    return inner_.pick(enabled, context);
  }
  void after_step(scheduler::Actor actor, const scheduler::StepContext& context) override {
    ++steps_;
    inner_.after_step(actor, context);
  }
  // What the run left enabled: the explorer analyses it as never run (explorer.hpp, "A run's end").
  void at_end(std::span<const scheduler::Actor> enabled, const scheduler::StepContext& context) override {
    inner_.at_end(enabled, context);
  }
  std::uint64_t steps() const { return steps_; }

 private:
  scheduler::Strategy& inner_;
  const std::atomic<bool>* stop_;
  const std::atomic<bool>* halt_;
  std::uint64_t steps_ = 0;  // of every run, abandoned ones included
};

// The memory the explorer may keep: the watch's budget, else the configuration's host budget.
std::size_t memory_budget(const ExploreWatch& watch, const Config& config);

// Throws std::invalid_argument when the watch asks for checkpoints: only the one-thread explorer
// saves and resumes them. `who` names the exploration ("more than one job").
void refuse_checkpoints(const ExploreWatch& watch, const std::string& who);

// Throws ConfigError when the configuration cannot be explored (dma.execution = on_wait).
void check_explorable(const Config& config);

// Counts a complete run's verdict; a new verdict keeps `result` as its run. With `least`, a
// failure keeps the run with the least schedule of all (a choice that does not depend on which
// worker finished first).
void tally(ExploreReport& report, const ExecutionResult& result, bool least);

}  // namespace weft::sim::explore_parts
