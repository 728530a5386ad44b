#pragma once
// What a trace subscriber sees: one event per visible operation as it takes effect, in step
// order. The execution emits them only when a sink is attached; with none, the cost is one
// branch per operation.

#include <cstdint>
#include <string_view>

#include "model/buffer.hpp"
#include "model/dma.hpp"
#include "model/failure.hpp"
#include "model/rect.hpp"
#include "scheduler/actor.hpp"

namespace weft::sim {

struct TraceEvent {
  enum class Kind : std::uint8_t {
    allocate,        // buffer, or semaphore_id (the first) and amount (how many) for semaphores
    load,            // buffer, rect; masked: amount (the elements the mask kept)
    store,           // buffer, rect; masked: amount (the elements the mask kept)
    swap,            // buffer, rect, amount (the elements swapped)
    signal,          // semaphore_id, target_core, amount, count (the target cell after)
    wait,            // semaphore_id, target_core (the waiter), amount, count (after)
    read,            // semaphore_id, target_core, count
    barrier_arrive,  // target_core (the core), amount (the device's cores), count (its barrier cell after)
    barrier_leave,   // the same; amount is what the departure took
    dma_start,       // dma, buffer/rect (source), target_buffer/target_rect, target_core
    dma_read,        // dma, buffer/rect (source); signals semaphore_id on target_core by amount if >= 0
    dma_write,       // dma, target_buffer/target_rect; signals semaphore_id on target_core by amount
    scope_end,       // the end of a run_scoped scope: buffer (the first freed, or null), amount (how many)
    launch_end,      // the end of one launch of several: target_core (the core), amount (the launch ended, from 1)
    finish,          // the core's kernel returned
  };
  Kind kind = Kind::load;
  std::uint64_t step = 0;
  scheduler::Actor actor{};  // the core, or the DMA phase
  model::SourceLine line{};  // the kernel line (for DMA phases: the dma_start line)
  const model::Buffer* buffer = nullptr;
  model::Rect rect{};
  const model::Buffer* target_buffer = nullptr;
  model::Rect target_rect{};
  int semaphore_id = -1;
  int target_core = -1;  // global core id
  std::int64_t amount = 0;
  std::int64_t count = 0;
  int dma = -1;
  int recv_semaphore_id = -1;  // dma_start: the semaphore its landing signals on target_core
  model::DmaOrigin origin{};   // DMA events: who started it for the kernel (what null: the kernel itself)
  std::string_view name{};     // allocate (a semaphore): the name the kernel gave it, or empty
};

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void on_event(const TraceEvent& event) = 0;
};

}  // namespace weft::sim
