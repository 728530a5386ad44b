#pragma once
// What a Pallas kernel body sees at one grid point (pl.program_id, pl.num_programs, the refs of
// its operands' current blocks, its scratch, its scalar prefetch), and the core it runs on for
// everything else (loads, stores, DMAs, semaphores: sim/api/core.hpp).

#include <cstdint>
#include <vector>

#include "sim/api/core.hpp"
#include "sim/pallas/grid.hpp"
#include "sim/pallas/pipeline.hpp"
#include "sim/pallas/spec.hpp"

namespace weft::sim::pallas {

// A launch's scratch, allocated once per core: buffers and semaphore arrays, in spec order.
struct ScratchSet {
  std::vector<model::Buffer*> buffers{};             // null for semaphore entries
  std::vector<std::vector<Semaphore>> semaphores{};  // empty for buffer entries
};

class Program {
 public:
  Program(Core& core, const Grid& grid, const GridIndex& point, const Pipeline& pipeline, int inputs,
          const ScratchSet& scratch, const ScalarPrefetch& prefetch)
      : core_(core),
        grid_(grid),
        point_(point),
        pipeline_(pipeline),
        inputs_(inputs),
        scratch_(scratch),
        prefetch_(prefetch) {}

  Core& core() const { return core_; }
  std::int64_t program_id(int axis) const { return point_[axis]; }
  std::int64_t num_programs(int axis) const { return grid_.size(axis); }
  const GridIndex& point() const { return point_; }

  // Input or output `i`: its block now (a VMEM slot), or the whole array (Memory::any).
  template <class T>
  Ref<T> in(int i, Location loc = Location::current()) const {
    return view<T>(i, loc);
  }
  template <class T>
  Ref<T> out(int i, Location loc = Location::current()) const {
    return view<T>(inputs_ + i, loc);
  }
  // Scratch entry `i` (a buffer), or semaphore `k` of scratch entry `i` (an array of them).
  template <class T>
  Ref<T> scratch(int i, Location loc = Location::current()) const {
    return core_.ref<T>(scratch_.buffers.at(static_cast<std::size_t>(i)), loc);
  }
  Semaphore semaphore(int i, int k = 0) const {
    return scratch_.semaphores.at(static_cast<std::size_t>(i)).at(static_cast<std::size_t>(k));
  }
  const ScalarPrefetch& prefetch() const { return prefetch_; }

  // The same, untyped, for bindings of other languages (python/): operand `i` (inputs, then
  // outputs) as a slice, and scratch entry `i`'s buffer (null for a semaphore entry).
  const model::Slice& operand(int i) const { return pipeline_.current(i); }
  const ScratchSet& scratch_set() const { return scratch_; }

 private:
  template <class T>
  Ref<T> view(int operand, Location loc) const {
    const model::Slice& slice = pipeline_.current(operand);
    return core_.ref<T>(slice.buffer, loc).window(slice.rect);
  }

  Core& core_;
  const Grid& grid_;
  const GridIndex& point_;
  const Pipeline& pipeline_;
  int inputs_;
  const ScratchSet& scratch_;
  const ScalarPrefetch& prefetch_;
};

}  // namespace weft::sim::pallas
