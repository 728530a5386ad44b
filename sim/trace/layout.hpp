#pragma once
// TraceLayout: where each recorded operation sits on a timeline, shared by the Chrome trace and
// the HTML timeline so both draw the same picture.
//
// Time is the scheduler step: an operation of step s fills [s, s + 1). The timeline has one
// column more than the run has steps, for what stands at the end (the blocked waits of a
// deadlock). Lanes are grouped by device: one lane per core, then the device's DMA lanes.
//
// A DMA lives on a DMA lane of its starter's device from its start to the end of its write
// phase (or to the end of the run if it never landed), with its read and write phases inside
// that span. DMA lanes are assigned greedily in start order (interval colouring), so spans on
// one lane never overlap and a device needs as many lanes as it has DMAs in flight at once.
// A phase that runs in its DMA's start step (eager DMAs run both there) gets half the step:
// the read the first half, the write the second, shared in order by the write's chunks when it
// lands in several (dma.chunk_bytes).
//
// Failure sites become marks: a racing access marks its own operation (or, for the access that
// failed and so never took effect, its step on its lane); a blocked wait marks the end column.

#include <cstddef>
#include <string>
#include <vector>

#include "sim/trace/recorder.hpp"
#include "sim/trace/trace_header.hpp"

namespace weft::sim {

struct Lane {
  enum class Kind { core, dma };
  Kind kind = Kind::core;
  int device = 0;
  int row = 0;           // position within the device: cores first, then DMA lanes
  int global_core = -1;  // core lanes only
  std::string name;      // "core 0", "DMA 1"
};

// A stretch of one lane, in steps: [start, start + width); width 0 is an instant.
struct Slot {
  int lane = -1;
  double start = 0;
  double width = 1;
  double middle() const { return start + width / 2; }
};

struct DmaSpan {
  int dma = 0;
  Slot slot;          // from its start to its end
  int device_to = 0;  // the device its write phase lands on
};

struct FailureMark {
  std::size_t site = 0;  // index into the header's sites
  Slot slot;
  std::size_t record = no_record;  // the marked operation, if it took effect
  std::string label;
};

class TraceLayout {
 public:
  TraceLayout(const TraceRecorder& recorder, const TraceHeader& header);

  double columns() const { return columns_; }  // steps + 1
  const std::vector<Lane>& lanes() const { return lanes_; }
  // The lane and stretch of record `index`; finish records are instants at their step's end.
  const Slot& slot(std::size_t index) const { return slots_[index]; }
  const std::vector<DmaSpan>& dma_spans() const { return spans_; }
  const std::vector<FailureMark>& marks() const { return marks_; }
  int core_lane(int global_core) const;
  // Where core `global_core`'s kernel ends on the timeline (its finish, else the last column).
  double kernel_end(int global_core) const { return kernel_end_[static_cast<std::size_t>(global_core)]; }

 private:
  void place_dmas(const TraceRecorder& recorder);
  const DmaSpan* span_of(int dma) const;
  // `chunk` of `chunks`: a write chunk's place among its DMA's chunks of that step.
  static Slot phase_slot(const DmaSpan& span, std::uint64_t step, bool write, std::size_t chunk = 0,
                         std::size_t chunks = 1);
  void place_records(const TraceRecorder& recorder);
  void place_marks(const TraceRecorder& recorder, const TraceHeader& header);

  double columns_;
  int cores_per_device_;
  std::vector<Lane> lanes_;
  std::vector<int> core_lanes_;  // per global core: its lane
  std::vector<Slot> slots_;
  std::vector<DmaSpan> spans_;
  std::vector<FailureMark> marks_;
  std::vector<double> kernel_end_;
};

}  // namespace weft::sim
