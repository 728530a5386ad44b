#pragma once
// Small kernels generated from a seed, for the explorer's tests against plain enumeration
// (explore_soundness_test.cpp), of its workers against one thread (explore_in_parallel_test.cpp)
// and of its grown analysis against the whole one (explore_reuse_test.cpp).

#include <algorithm>
#include <cstdint>
#include <vector>

#include "scheduler/rng.hpp"
#include "sim/api/core.hpp"
#include "sim/api/scenario.hpp"
#include "sim/config/config.hpp"

namespace weft::generated {

struct Op {
  // The first eight are the original verbs (unwaited: a DMA never waited, pending at the end or
  // leaking its bytes; leave: the core's kernel returns early, its later operations never run;
  // share: the core allocates a fresh vmem_shared scalar, the same buffer as the other cores'
  // allocation of that rank, and stores into it (other 0) or only allocates it); the rest are
  // the memory and synchronisation verbs of the operation table's later entries; the wide ones
  // copy two elements, which land in two chunks under dma.chunk_bytes = 4; poll and
  // poll_count poll (the spin reduction, sim/engine/poll_window.hpp): until an element is not
  // zero, and until the core's own cell of the semaphore holds a signal; scoped copies an
  // element into a run_scoped vmem scalar, waited for inside the scope when `other` is even.
  enum Kind {
    load,
    store,
    signal,
    wait,
    dma,
    unwaited,
    leave,
    share,
    masked_load,
    masked_store,
    swap,
    barrier,
    sync_copy,
    dma_add,
    wide_dma,
    wide_unwaited,
    poll,
    poll_count,
    scoped
  } kind;
  int slot = 0;   // element of the shared array (load, store, swap, dma and copy source)
  int other = 0;  // store, swap: value; signal: target core; dma and copy: destination element
  int mask = 0;   // masked_load, masked_store: which of the array's three elements are kept (bits)
};

using Program = std::vector<std::vector<Op>>;  // per core

using Kinds = std::vector<Op::Kind>;

// Kernels of the given kinds of Op.
inline Program generate_program(std::uint64_t seed, int cores, const Kinds& kinds) {
  scheduler::Rng random(seed);
  Program program(static_cast<std::size_t>(cores));
  std::vector<int> signals(static_cast<std::size_t>(cores), 0);  // signals to each core
  for (int core = 0; core < cores; ++core) {
    const int length = 1 + static_cast<int>(random.below(cores == 2 ? 3 : 2));
    for (int i = 0; i < length; ++i) {
      Op op{kinds[static_cast<std::size_t>(random.below(kinds.size()))]};
      op.slot = static_cast<int>(random.below(3));
      op.other = static_cast<int>(random.below(3));
      // Drawn only for the masked kinds: kernels of the original verbs are those drawn before the
      // later verbs came.
      if (op.kind == Op::masked_load || op.kind == Op::masked_store) op.mask = static_cast<int>(random.below(8));
      if (op.kind == Op::signal) {
        op.other = static_cast<int>(random.below(static_cast<std::uint64_t>(cores)));
        ++signals[static_cast<std::size_t>(op.other)];
      }
      program[static_cast<std::size_t>(core)].push_back(op);
    }
  }
  // Waits only where some signal may come (else most kernels just deadlock).
  for (int core = 0; core < cores; ++core)
    for (Op& op : program[static_cast<std::size_t>(core)])
      if (op.kind == Op::wait && signals[static_cast<std::size_t>(core)]-- <= 0) op.kind = Op::load;
  return program;
}

inline sim::ScenarioDefinition scenario_of(const Program& program) {
  sim::ScenarioDefinition s;
  s.name = "generated";
  s.setup = [](sim::Host& host) { host.hbm<std::int32_t>("a", {3}); };
  s.kernel = [program](sim::Core& core) {
    auto a = core.hbm<std::int32_t>("a");
    // The barrier semaphore needs no allocation step, which would multiply the interleavings
    // that plain enumeration has to visit; signals, waits and DMAs all count on its cells.
    const auto sem = core.barrier_semaphore();
    std::int32_t seen = 0;
    for (const Op& op : program[static_cast<std::size_t>(core.core_id())]) {
      if (op.kind == Op::leave) return;
      auto at = [&](int slot) { return a.at({sim::ds(slot, 1)}); };
      auto pair = [&](int slot) { return a.at({sim::ds(slot % 2, 2)}); };
      const auto value = [&] { return sim::Tile<std::int32_t>::Constant(1, 1, seen * 3 + op.other + 1); };
      sim::Mask keep(1, 3);
      for (int k = 0; k < 3; ++k) keep(0, k) = (op.mask >> k) & 1;
      switch (op.kind) {
        case Op::load:
          seen += core.load(at(op.slot))(0, 0);
          break;
        case Op::store:
          core.store(at(op.slot), value());
          break;
        case Op::signal:
          core.signal(sem, 1, {.core = op.other});
          break;
        case Op::wait:
          core.wait(sem);
          break;
        case Op::dma:
          core.dma_start(at(op.slot), at(op.other), sem).wait();
          break;
        case Op::unwaited:
          core.dma_start(at(op.slot), at(op.other), sem);
          break;
        case Op::leave:
          break;
        case Op::share: {
          auto shared = core.vmem_shared<std::int32_t>({1});
          if (op.other == 0) core.store(shared, sim::Tile<std::int32_t>::Constant(1, 1, seen + 1));
          break;
        }
        case Op::masked_load:
          seen += core.load(a, keep, 5).sum();
          break;
        case Op::masked_store:
          core.store(a, sim::Tile<std::int32_t>::Constant(1, 3, seen + op.other + 1), keep);
          break;
        case Op::swap:
          seen += core.swap(at(op.slot), value())(0, 0);
          break;
        case Op::barrier:
          core.device_barrier();
          break;
        case Op::sync_copy:
          core.sync_copy(at(op.slot), at(op.other));
          break;
        case Op::dma_add:
          core.dma_start(at(op.slot), at(op.other), sem, std::nullopt, {.add = true}).wait();
          break;
        case Op::wide_dma:
          core.dma_start(pair(op.slot), pair(op.other), sem).wait();
          break;
        case Op::wide_unwaited:
          core.dma_start(pair(op.slot), pair(op.other), sem);
          break;
        case Op::poll:
          while (core.load(at(op.slot))(0, 0) == 0) {
          }
          break;
        case Op::poll_count:
          while (core.read(sem) == 0) {
          }
          break;
        case Op::scoped:
          core.run_scoped([&] {
            auto copy = core.dma_start(at(op.slot), core.vmem<std::int32_t>({1}), sem);
            if (op.other % 2 == 0) copy.wait();
          });
          break;
      }
    }
  };
  return s;
}

// The verbs of each family of generated kernels.
inline const Kinds first_verbs{Op::load, Op::store, Op::signal, Op::wait, Op::dma, Op::unwaited, Op::leave, Op::share};
// All of them: the later verbs with the original ones, DMAs never waited and early returns too.
inline const Kinds later_verbs{Op::load,     Op::store,   Op::signal,    Op::wait,        Op::dma,
                               Op::unwaited, Op::leave,   Op::share,     Op::masked_load, Op::masked_store,
                               Op::swap,     Op::barrier, Op::sync_copy, Op::dma_add};
// Copies of two elements with the original verbs, for DMAs whose write phase lands in chunks.
inline const Kinds wide_verbs{Op::load, Op::store, Op::signal, Op::wait, Op::wide_dma, Op::wide_unwaited};
// Kernels with scoped scratch, among DMAs and the verbs that wait.
inline const Kinds scoped_verbs{Op::load, Op::store,    Op::signal, Op::wait,
                                Op::dma,  Op::unwaited, Op::leave,  Op::scoped};
// Kernels that poll, among the verbs that change what a poller reads.
inline const Kinds polling_verbs{Op::load,     Op::store, Op::signal, Op::wait, Op::dma,
                                 Op::unwaited, Op::leave, Op::swap,   Op::poll, Op::poll_count};

// Under the sanitizers (scripts/sanitize), where a run costs some sixteen times more, the tests
// over generated kernels take the first quarter of their seeds: the same code paths, less of the
// statistics (the full counts run unsanitized).
#ifdef WEFT_SANITIZE_ADDRESS
inline constexpr std::uint64_t kernel_share = 4;
#else
inline constexpr std::uint64_t kernel_share = 1;
#endif

// The seeds first..last, cut to the share above: the last one.
inline std::uint64_t last_seed_run(std::uint64_t first, std::uint64_t last) {
  return first + (last + 1 - first) / kernel_share - 1;
}

// One device of `cores` cores, uninitialized memory read as zeros, as the explorer's tests run a
// generated kernel.
inline sim::Config generated_config(int cores, model::DmaExecution mode, bool races, std::int64_t chunk_bytes = 0,
                                    int launches = 1) {
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = cores;
  config.machine.uninitialized = model::Uninitialized::zero;
  config.machine.dma_execution = mode;
  config.machine.dma_chunk_bytes = chunk_bytes;
  config.machine.launches = launches;
  config.race_detection.enabled = races;
  return config;
}

}  // namespace weft::generated
