#pragma once
// The explorer's names for machine objects (scheduler/footprint.hpp knows them only as opaque
// ids). One object has one name in every execution: a buffer's contents and its existence by
// (space, id, device, core), a semaphore cell by (semaphore id, global core), a device barrier
// cell by its global core, a core's launch by its global core, and one counter of running cores, which every core's
// last transition decrements and every DMA phase observes (a DMA still pending when the last core finishes is in
// flight), and a polling core's release (below).

#include <cstdint>

#include "model/buffer.hpp"
#include "model/machine.hpp"
#include "scheduler/footprint.hpp"

namespace weft::sim::ops {

enum ObjectKind : std::uint32_t {
  buffer_contents = 1,
  semaphore_cell = 2,
  buffer_existence = 3,
  running_cores = 4,
  barrier_cell = 5,
  poll_release = 6,
  core_launch = 7
};

inline scheduler::ObjectId buffer_object(ObjectKind kind, model::Space space, int id, int device, int core) {
  return {kind, (static_cast<std::int64_t>(space) << 32) | static_cast<std::uint32_t>(id), device, core};
}

inline scheduler::ObjectId contents_of(const model::Buffer& buffer) {
  const auto& info = buffer.info();
  return buffer_object(buffer_contents, info.space, info.id, info.device, info.core);
}

scheduler::Box box_of(const model::Rect& rect);

// A read or write of a slice's elements, or of the part of them a mask keeps.
inline scheduler::Touch access(const model::Slice& slice, scheduler::TouchMode mode) {
  return {contents_of(*slice.buffer), mode, box_of(slice.rect)};
}
inline scheduler::Touch access(const model::Slice& slice, const model::Rect& part, scheduler::TouchMode mode) {
  return {contents_of(*slice.buffer), mode, box_of(part)};
}

// A touch of the cell (semaphore index, global core).
scheduler::Touch cell(const model::Machine& machine, int semaphore, int global_core, scheduler::TouchMode mode,
                      std::int64_t amount, bool ordered);

// A touch of the device barrier cell of `global_core` (model/device_barrier.hpp): arrivals add,
// and commute (a barrier's clock is the join of its arrivals, in any order); a departure takes.
inline scheduler::Touch barrier_touch(int global_core, scheduler::TouchMode mode, std::int64_t amount) {
  return {{barrier_cell, global_core, 0, 0}, mode, {}, amount};
}

// The touch every core's finishing transition adds, and every DMA phase's observation of it.
inline scheduler::Touch core_finished_touch() { return {{running_cores, 0, 0, 0}, scheduler::TouchMode::add, {}, 1}; }
inline scheduler::Touch running_cores_observed() { return {{running_cores, 0, 0, 0}, scheduler::TouchMode::observe}; }

// The touches of freeing `by`'s innermost scope (a run_scoped scope's end, a launch's end): the
// existence and the whole contents of each of its buffers, written.
inline void add_freed_scope(const model::Machine& machine, model::CoreId by, scheduler::Footprint& footprint) {
  for (const model::Buffer* buffer : machine.memory().innermost_scope(by)) {
    const auto& info = buffer->info();
    footprint.touches.push_back(
        {buffer_object(buffer_existence, info.space, info.id, info.device, info.core), scheduler::TouchMode::write});
    footprint.touches.push_back(
        {contents_of(*buffer), scheduler::TouchMode::write, box_of(model::Rect::whole(info.shape))});
  }
}
// The launch a core is in (model/launches.hpp), in a program of several launches: its end of a
// launch writes it; every signal, DMA start and DMA phase that reaches the core reads it (the
// crossed_launch check), so each is ordered with the launch's end. Nothing, with one launch.
inline void add_launch_read(const model::Machine& machine, int global_core, scheduler::Footprint& footprint) {
  if (machine.launches().several())
    footprint.touches.push_back({{core_launch, global_core, 0, 0}, scheduler::TouchMode::read});
}
inline scheduler::Touch launch_write(int global_core) {
  return {{core_launch, global_core, 0, 0}, scheduler::TouchMode::write};
}
// The spin reduction's pseudo-counter of a polling core (sim/engine/poll_window.hpp): the step
// that releases it adds, the read it was blocked at takes, so that read's race with the change
// that released it is never reversed.
inline scheduler::Touch poll_release_touch(int global_core, scheduler::TouchMode mode) {
  return {{poll_release, global_core, 0, 0}, mode, {}, 1};
}

}  // namespace weft::sim::ops
