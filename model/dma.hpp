#pragma once
// One DMA (semantics.md §4): a copy of a source rectangle into a destination rectangle, possibly
// on another device, in two phases. The read phase snapshots the source and signals the send
// semaphore on the starting core; the write phase stores the snapshot and signals the receive
// semaphore on the destination core. When each phase runs is the scheduler's choice.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/buffer.hpp"
#include "model/failure.hpp"
#include "model/topology.hpp"

namespace weft::model {

// A buffer and the rectangle of it a ref names; `view` is the ref's shape (indexed dimensions
// dropped), which is what DMA shapes are compared by.
struct Slice {
  Buffer* buffer = nullptr;
  Rect rect;
  Shape view;
};

enum class DmaPhase { read, write, done };

struct Dma {
  int id = 0;        // in start order across the machine
  int sequence = 0;  // how many DMAs its starter had started before it
  CoreId starter;
  CoreId destination;  // the core whose recv semaphore cell the write phase signals
  Slice source;
  Slice target;        // resolved on the destination device
  int recv_semaphore = -1;
  int send_semaphore = -1;  // -1: none
  std::int64_t bytes = 0;
  DmaPhase next = DmaPhase::read;
  std::vector<std::byte> snapshot;
  SourceLine line;

  bool remote() const { return !(starter == destination); }
};

std::string describe(const Dma& dma);  // "dma 3 from (device 0, core 0) at ring.cpp:42: hbm buffer 1 ... -> ..."

}  // namespace weft::model
