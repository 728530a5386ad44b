#pragma once
// The DMAs of one execution (model/dma.hpp), each in two parts. Its record (`Dma`) is kept to
// the end of the execution: whatever reports, explanations, traces and the scheduler read of a
// DMA once it has finished is there, or in the side table of origins that only library DMAs
// (the Pallas pipeline's) fill. Its in-flight part (`DmaFlight`: slices, snapshot, bytes
// landed) sits in a slot of a pool, taken when it starts and given back when its write phase's
// last chunk lands. So the memory of a machine grows with the DMAs started by a record of 72
// bytes, and with the DMAs in flight at once by a slot.
//
// Invariants: record i has id i. While a DMA is not done it holds its slot (flight(i).dma == i).
// A slot given back keeps its contents until a later start takes it (the last given back is
// taken first): the engine reads the in-flight part of the DMA whose last phase just ran to
// describe that step, before any other DMA starts. A slot's snapshot keeps its capacity for the
// next DMA, and clear() keeps every vector's capacity and every slot for the next execution: once
// the pool has grown, starting and running a DMA allocates nothing.

#include <string>
#include <vector>

#include "model/dma.hpp"

namespace weft::model {

class DmaRecords {
 public:
  // Records a DMA that starts: `dma`'s id, origin and slot are filled here. `origin` null: the
  // kernel's own DMA. Returns its id.
  int start(Dma dma, const Slice& source, const Slice& target, const DmaOrigin* origin);
  // Its write phase's last chunk landed: it is done, and its slot goes back to the pool.
  void finish(int id);

  int size() const { return static_cast<int>(dmas_.size()); }
  bool empty() const { return dmas_.empty(); }
  const Dma& operator[](int id) const { return dmas_[static_cast<std::size_t>(id)]; }
  Dma& operator[](int id) { return dmas_[static_cast<std::size_t>(id)]; }
  const std::vector<Dma>& all() const { return dmas_; }
  // The in-flight part of `id`: while it is not done, or just after its last phase (above).
  const DmaFlight& flight(int id) const;
  DmaFlight& flight(int id);
  // Who started it for the kernel; null: the kernel itself.
  const DmaOrigin* origin(int id) const;
  // Calls visit(id) for each DMA not done, in the order of the slots they hold (not of their
  // ids): a pass as long as the most DMAs ever in flight at once, not as the DMAs started.
  template <class Visit>
  void for_each_in_flight(Visit&& visit) const {
    for (const DmaFlight& flight : flights_)
      if (flight.dma >= 0 && flight.dma < size() &&
          (*this)[flight.dma].next != DmaPhase::done)  // a slot kept from an earlier execution names none of these
        visit(flight.dma);
  }

  // "fetch of in[0] 'x' for grid point ..." (the origin with its array's name); "" for the
  // kernel's own DMA.
  std::string describe_origin(int id) const;
  // "DMA 3 started by device 0 core 0 at ring.cpp:42: hbm buffer 1 ... -> ... (read phase
  // pending)", of a DMA whose in-flight part is readable (above).
  std::string describe(int id) const;

  // Forgets every DMA, keeping the storage (the next execution's machine reuses it).
  void clear();

 private:
  struct KeptOrigin {
    DmaOrigin origin;
    const Buffer* array = nullptr;  // the operand's array (the target of a write-back, else the source)
  };

  std::vector<Dma> dmas_;
  std::vector<DmaFlight> flights_;
  std::vector<int> free_flights_;  // slots given back, the last one on top
  std::vector<KeptOrigin> origins_;
};

// The origin with its array's name; "" when `origin` is null.
std::string describe_origin(const DmaOrigin* origin, const Buffer* array);

}  // namespace weft::model
