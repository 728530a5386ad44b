#pragma once
// What the kernel API (Core, Dma: sim/api/core.hpp) asks of the engine that runs the kernel:
// the machine it runs on, the launch handles must come from, and the performing of a visible
// operation. The engine implements it (sim/engine/execution.hpp); the API holds only this
// interface, so the API's library (weft_api) and the Pallas library above it link without the
// engine, and a call from them into the engine fails the link (docs/architecture.md).

#include <cstdint>

#include "model/failure.hpp"
#include "model/machine.hpp"

namespace weft::sim {

class CoreServices {
 public:
  // How the engine performs an entry of one kind of the table, on the services it was given
  // (its own object), as perform_entry describes.
  using Performer = void (*)(CoreServices& services, int global, void* entry, model::SourceLine line);

  CoreServices(const CoreServices&) = delete;
  CoreServices& operator=(const CoreServices&) = delete;

  // The machine the kernel runs on (its memory, semaphores, topology): read by the API's checks
  // and identity queries, changed only by the operations performed.
  model::Machine& machine() const { return machine_; }
  // Which launch (execution) this is, counted from 1; every handle carries the one that made it.
  std::uint64_t launch_number() const { return launch_; }

  // Performs a visible operation of core `global` (docs/semantics.md §3), made at `line` of the
  // kernel: `entry` points at an entry of the operation table (sim/ops/table.hpp) whose index
  // there is `kind`. Called on the core's own fiber, after the API's checks of its own misuse;
  // stops the core until the scheduler picks it, then applies the entry, and writes its results
  // (a buffer made, a count read, a DMA's id) into it. A failure it finds ends the execution and
  // does not return to the kernel. One indirect call: the engine's performer of that kind.
  void perform_entry(int global, std::uint8_t kind, void* entry, model::SourceLine line) {
    performers_[kind](*this, global, entry, line);
  }
  // Ends the execution with `failure`, a finding about core `global`; never returns.
  [[noreturn]] virtual void fail(int global, model::Failure failure) = 0;

 protected:
  // `performers[kind]` performs the entries of each kind of the operation table.
  CoreServices(model::Machine& machine, const Performer* performers) : machine_(machine), performers_(performers) {}
  ~CoreServices() = default;
  void set_launch(std::uint64_t launch) { launch_ = launch; }

  model::Machine& machine_;

 private:
  const Performer* performers_;
  std::uint64_t launch_ = 0;
};

}  // namespace weft::sim
