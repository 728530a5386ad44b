#pragma once
// A started DMA, as the kernel holds it: it knows its semaphores and byte count, so waiting on
// it is waiting for those bytes on this core's own cells (the receiving side of a ring waits
// with the descriptor of its own send, as in Pallas).

#include <cstdint>
#include <optional>

#include "sim/api/handles.hpp"
#include "sim/api/location.hpp"

namespace weft::sim {

class Core;

// Where a DMA goes and how it writes: by default into the core with this core's index on this
// device, overwriting the target.
struct DmaOptions {
  std::optional<int> device{};  // the destination device
  std::optional<int> core{};    // the destination core index on that device
  bool add = false;             // add the source to the target (Pallas' async_copy(..., add=True)); not for bool
};

// How a sync copy writes its target.
struct CopyOptions {
  bool add = false;
};

class Dma {
 public:
  Dma(Core& core, int id, Semaphore recv, std::optional<Semaphore> send, std::int64_t bytes, bool remote)
      : core_(&core), id_(id), recv_(recv), send_(send), bytes_(bytes), remote_(remote) {}

  int id() const { return id_; }  // -1 for a copy described, not started (Core::describe_dma)
  std::int64_t bytes() const { return bytes_; }
  // Blocks until the send semaphore holds this DMA's bytes (the source has been read).
  void wait_send(Location loc = Location::current());
  // Blocks until the receive semaphore holds this DMA's bytes.
  void wait_recv(Location loc = Location::current());
  // Blocks: wait_recv for a local copy; wait_send then wait_recv for a remote one.
  void wait(Location loc = Location::current());

 private:
  Core* core_;
  int id_;
  Semaphore recv_;
  std::optional<Semaphore> send_;
  std::int64_t bytes_;
  bool remote_;
};

}  // namespace weft::sim
