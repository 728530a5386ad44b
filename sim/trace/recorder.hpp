#pragma once
// TraceRecorder: a TraceSink that keeps one execution's events for the trace writers (Chrome
// JSON, HTML timeline, text listing), and derives from them what the events do not say
// outright: which signal woke which wait, and each DMA's start and phases.
//
// What: every event becomes a TraceRecord, a plain copy (buffers are copied by value into a
// table of TracedBuffer, source lines into "file.cpp:42"), because the machine, its buffers and
// the kernel's file names are gone or meaningless once the execution ends.
//
// Wake edges (signal -> wait) follow the precise semaphore semantics of docs/semantics.md §3: each
// cell (semaphore id, target core) keeps a FIFO of signalled units, in signal order; a wait of
// N consumes N units from the front, and gets an edge from every signal whose units it
// consumed (one signal may feed several waits, one wait may drain several signals). A DMA
// phase that signals a semaphore is a signal like a core's.
//
// Invariants: records are in step order (the order the execution emitted them); every edge
// goes from an earlier record to a later one; nothing depends on a pointer's value or a hash
// order, so two recordings of one seed are equal. The recorder costs nothing when absent:
// the execution emits events only when a sink is attached.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "model/buffer.hpp"
#include "model/failure.hpp"
#include "model/unit_fifo.hpp"
#include "sim/events/trace_event.hpp"

namespace weft::sim {

inline constexpr std::size_t no_record = static_cast<std::size_t>(-1);

struct TraceRecord {
  TraceEvent::Kind kind = TraceEvent::Kind::load;
  std::uint64_t step = 0;
  scheduler::Actor actor;
  std::string line;  // "file.cpp:42" (empty when the event has none)
  int buffer = -1;   // index into TraceRecorder::buffers(), or -1
  model::Rect rect;
  int target_buffer = -1;  // dma_start / dma_write: the target buffer
  model::Rect target_rect;
  int semaphore_id = -1;
  int target_core = -1;  // global core id of the semaphore cell (or a DMA's destination)
  std::int64_t amount = 0;
  std::int64_t count = 0;  // the cell's count after the event
  int dma = -1;
  int recv_semaphore_id = -1;  // dma_start: the semaphore its landing signals on target_core
  std::string origin;  // DMA records of a library's DMA: "fetch of in[0] 'x' for grid point (0, 1), block (0, 1)"

  // Does this record add `amount` units to the cell (semaphore_id, target_core)?
  bool signals() const;
};

// A signal whose units a wait consumed.
struct WakeEdge {
  std::size_t signal = 0;  // record index of the signal (a core's signal or a DMA phase)
  std::size_t wait = 0;    // record index of the wait
  std::int64_t units = 0;
};

// Units of a signal no wait consumed by the end of the recording.
struct Unconsumed {
  std::size_t signal = 0;  // record index of the signal
  std::int64_t units = 0;
};

// One DMA as the trace saw it: record indices of its start and phases (no_record if absent).
// Its write phase may land in chunks (dma.chunk_bytes), a record each: `write` is the record of
// the one that completed it, no_record while some of it has not landed.
struct TracedDma {
  int id = 0;
  std::size_t start = no_record, read = no_record, write = no_record;
  std::vector<std::size_t> chunks;  // every record of its write phase, in order
  std::int64_t bytes = 0;           // the copy's (its start's amount)
  std::int64_t landed = 0;          // what its write records have landed
  model::DmaOrigin origin;          // who started it for the kernel (what null: the kernel itself)

  // Its record of the access `site` names (the read, or the chunk of the write that touched
  // site.rect, at site.step): no_record if it has none (the access failed).
  std::size_t record_of(const std::vector<TraceRecord>& records, const model::FailureSite& site) const;
  // The record of the DMA's that comes right before `record`, its own: its start, read or
  // previous chunk (no_record for its start).
  std::size_t before(std::size_t record) const;
};

class TraceRecorder final : public TraceSink {
 public:
  TraceRecorder(int devices, int cores_per_device) : devices_(devices), cores_per_device_(cores_per_device) {}

  void on_event(const TraceEvent& event) override;

  int devices() const { return devices_; }
  int cores_per_device() const { return cores_per_device_; }
  const std::vector<TraceRecord>& records() const { return records_; }
  const std::vector<model::BufferInfo>& buffers() const { return buffers_; }
  const std::vector<WakeEdge>& edges() const { return edges_; }
  const std::vector<TracedDma>& dmas() const { return dmas_; }  // ascending id
  // The edges into wait record `wait` (ascending signal order).
  std::vector<WakeEdge> woken_by(std::size_t wait) const;
  // The DMA with this id, or nullptr.
  const TracedDma* dma(int id) const;
  // What the kernel calls semaphore `id` (model/naming.hpp), or "".
  const std::string& semaphore_called(int id) const;
  // Every signal with units left unconsumed, by cell (semaphore id, core), then signal order.
  std::vector<Unconsumed> unconsumed() const;

 private:
  int buffer_index(const model::Buffer* buffer);
  TracedDma& dma_slot(int id);
  void consume(const TraceRecord& wait, std::size_t index);

  int devices_;
  int cores_per_device_;
  std::vector<TraceRecord> records_;
  std::vector<model::BufferInfo> buffers_;
  std::map<std::tuple<int, int, int, int>, int> buffer_of_;            // (space, id, device, core) -> index
  std::map<std::pair<int, int>, model::UnitFifo<std::size_t>> cells_;  // (semaphore id, core) -> signal records
  std::vector<WakeEdge> edges_;
  std::map<int, std::string> semaphores_called_;  // semaphore id -> what the kernel calls it
  std::vector<TracedDma> dmas_;
};

}  // namespace weft::sim
