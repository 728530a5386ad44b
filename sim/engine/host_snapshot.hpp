#pragma once
// Host inputs filled once. A scenario's setup allocates the host buffers and fills the inputs
// (the same every execution: it sees only the parameters and the topology). Filling them is
// per-element work of the scenario's own code, a sixth of a small collective's execution, so a
// simulation runs the setup at its first execution only and keeps what it left: each host
// buffer's name, type, shape and every device's bytes. Later executions allocate the same
// buffers in the same order (the same ids, the same memory accounting) and copy the bytes back.
//
// The contract this leans on, in docs/kernel-api.md: a setup is a function of the parameters
// and the topology. One that throws leaves no snapshot, so the next execution runs it again
// (and throws again).
//
// A snapshot is a second copy of the host memory, kept for the simulation's life (one per sweep
// worker). Host buffers may be as large as the host memory budget allows (model/host_memory.hpp),
// so host memory above `max_bytes` is not kept: the setup then runs at every execution, as it
// did before snapshots, and the simulation's memory stays what its executions need.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/memory.hpp"

namespace weft::sim {

class HostSnapshot {
 public:
  static constexpr std::size_t max_bytes = std::size_t{64} << 20;
  // The host buffers of `memory` as they are now; nothing when they hold more than max_bytes.
  // A device's copy the setup left as it started (all `fill`: an output) is not kept, only
  // filled again at a restore.
  static std::optional<HostSnapshot> take(const model::Memory& memory, model::Uninitialized fill);
  // Allocates the snapshot's host buffers in `memory` (which has none yet) and fills them.
  void restore(model::Memory& memory) const;

 private:
  struct HostBuffer {
    std::string name;
    model::ElementType type;
    model::Shape shape;
    std::vector<std::vector<std::byte>> bytes;  // per device; empty: as it started
  };
  std::vector<HostBuffer> buffers_;  // in allocation order
};

}  // namespace weft::sim
