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

#include <cstddef>
#include <string>
#include <vector>

#include "model/memory.hpp"

namespace weft::sim {

class HostSnapshot {
 public:
  // The host buffers of `memory` as they are now.
  static HostSnapshot take(const model::Memory& memory);
  // Allocates the snapshot's host buffers in `memory` (which has none yet) and fills them.
  void restore(model::Memory& memory) const;

 private:
  struct HostBuffer {
    std::string name;
    model::ElementType type;
    model::Shape shape;
    std::vector<std::vector<std::byte>> bytes;  // per device
  };
  std::vector<HostBuffer> buffers_;  // in allocation order
};

}  // namespace weft::sim
