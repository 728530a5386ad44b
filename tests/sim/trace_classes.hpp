#pragma once
// The interleaving class (Mazurkiewicz trace) of a recorded run, for tests that count classes
// apart from any explorer: a run's transitions in a canonical order, the least actor first among
// those whose related predecessors (scheduler/strategies/dependence.hpp) are all placed. Two runs
// get the same string exactly when one is the other with adjacent independent transitions
// swapped.

#include <span>
#include <string>
#include <vector>

#include "scheduler/step_loop.hpp"
#include "scheduler/strategies/dependence.hpp"
#include "scheduler/strategy.hpp"

namespace weft::testing_classes {

inline std::string trace_class(std::span<const scheduler::Event> run) {
  const std::size_t length = run.size();
  std::vector<int> before(length, 0);  // related predecessors not yet placed
  std::vector<std::vector<std::size_t>> after(length);
  for (std::size_t i = 0; i < length; ++i)
    for (std::size_t k = i + 1; k < length; ++k)
      if (scheduler::related(run[i].actor, run[i].footprint, run[k].actor, run[k].footprint)) {
        after[i].push_back(k);
        ++before[k];
      }
  std::vector<bool> placed(length, false);
  std::string text;
  for (std::size_t n = 0; n < length; ++n) {
    std::size_t least = length;
    for (std::size_t i = 0; i < length; ++i)
      if (!placed[i] && before[i] == 0 && (least == length || run[i].actor < run[least].actor)) least = i;
    placed[least] = true;
    for (const std::size_t k : after[least]) --before[k];
    const scheduler::StableActor actor = run[least].actor;
    text += std::to_string(static_cast<int>(actor.kind)) + "." + std::to_string(actor.owner) + "." +
            std::to_string(actor.sequence) + " ";
  }
  return text;
}

// Records the transitions of a run that another strategy chooses, with their footprints as they
// ran.
class Recorder final : public scheduler::Strategy {
 public:
  explicit Recorder(scheduler::Strategy& inner) : inner_(inner) {}
  std::size_t pick(std::span<const scheduler::Actor> enabled, const scheduler::StepContext& context) override {
    const std::size_t chosen = inner_.pick(enabled, context);
    run_.push_back({context.process->stable(enabled[chosen]), {}});
    context.process->footprint(enabled[chosen], run_.back().footprint);
    return chosen;
  }
  void after_step(scheduler::Actor actor, const scheduler::StepContext& context) override {
    inner_.after_step(actor, context);
    context.process->add_after_touches(actor, run_.back().footprint);
  }
  void at_end(std::span<const scheduler::Actor> enabled, const scheduler::StepContext& context) override {
    inner_.at_end(enabled, context);
  }
  // The class of the run so far; starts the next one.
  std::string take_class() {
    std::string text = trace_class(run_);
    run_.clear();
    return text;
  }

 private:
  scheduler::Strategy& inner_;
  std::vector<scheduler::Event> run_;
};

}  // namespace weft::testing_classes
