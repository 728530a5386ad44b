#pragma once
// A strategy picks which enabled actor runs at each step. The step loop hands it the enabled
// actors in a deterministic order (cores by global id, then DMA phases by id) and the actor that
// ran last; it returns an index into that list. Each strategy is one file of
// scheduler/strategies/, and the seeded ones are made by name (strategies/registry.hpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "scheduler/actor.hpp"
#include "scheduler/schedule.hpp"

namespace weft::scheduler {

class Process;

struct StepContext {
  std::uint64_t step = 0;
  std::optional<Actor> last{};       // the actor of the previous step
  const Process* process = nullptr;  // the execution, for strategies that look at footprints
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::size_t pick(std::span<const Actor> enabled, const StepContext& context) = 0;
  // Called after the picked actor's transition ran (context.step is still its step).
  virtual void after_step(Actor, const StepContext&) {}
  // Called once when the process stopped (every core finished, or a failure): the actors still
  // enabled then, which will never run (DMA phases pending at the end).
  virtual void at_end(std::span<const Actor>, const StepContext&) {}
  // True when pick, after_step and at_end need little stack, well within the headroom a core
  // keeps at each visible operation: an execution may then run them on a core's fiber stack and
  // switch from core to core directly (sim/engine/direct_steps.cpp).
  virtual bool runs_on_core_stacks() const { return false; }
};

}  // namespace weft::scheduler
