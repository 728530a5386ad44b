#pragma once
// The machine state of one execution and its operations as plain state transitions: no fibers,
// no choices. The simulator asks "may this happen?" and "do it"; every buffer access goes
// through `record()`, where race detection and tracing attach.

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "model/access.hpp"
#include "model/device_barrier.hpp"
#include "model/dma.hpp"
#include "model/dma_records.hpp"
#include "model/launches.hpp"
#include "model/memory.hpp"
#include "model/races.hpp"
#include "model/semaphores.hpp"
#include "model/topology.hpp"

namespace weft::model {

// A core's access to a slice, as a verb describes it (sim/ops): the rectangles `parts` of the
// slice's buffer, disjoint and within slice.rect, read or written. Unmasked, `parts` is the one
// rectangle slice.rect; masked (model/mask.hpp), the elements the mask keeps, possibly none.
// `verb` names the access in an out_of_bounds message ("loads", "stores", "swaps").
struct SliceAccess {
  const Slice& slice;
  std::span<const Rect> parts;
  bool is_write = false;
  bool masked = false;
  std::string_view verb;
};

class Machine {
 public:
  explicit Machine(const MachineSpec& spec);

  const MachineSpec& spec() const { return spec_; }
  const Topology& topology() const { return topology_; }
  Memory& memory() { return memory_; }
  const Memory& memory() const { return memory_; }
  Semaphores& semaphores() { return semaphores_; }
  const Semaphores& semaphores() const { return semaphores_; }
  const DmaRecords& dmas() const { return dmas_; }
  const Launches& launches() const { return launches_; }
  // The program has `count` launches, as a scenario's host code made them (sim::Host::
  // set_program_launches): only before the kernels start, when nothing has been allocated.
  void set_launches(int count);
  void set_observer(AccessObserver* observer) { observer_ = observer; }
  void enable_race_detection(SemaphoreClocks mode, bool keep_going, ClockKind clocks = ClockKind::vector) {
    races_ = std::make_unique<Races>(topology_, mode, clocks, keep_going);
  }
  const Races* races() const { return races_.get(); }
  // The scheduler step now running, for race reports.
  void set_step(std::uint64_t step) { step_ = step; }
  std::string describe_actor(Accessor who) const;  // "device 0 core 1" or "DMA 3 (started by ...)"

  // The primitive effects the verbs of sim/ops are made of. Each returns false and fills
  // `failure` when the operation is a kernel bug.
  //
  // access: checks and records core `by`'s access (race detection, the observer), before the
  // verb moves the data itself. A part outside the buffer is an out_of_bounds failure for a
  // write, and for a read under memory.out_of_bounds_reads = raise; otherwise a read's part is
  // recorded clipped to the buffer. A masked access records only its non-empty parts, and checks
  // every part before it records any.
  // (`line` by reference: passed by value, in two registers, its 4-byte number is read back as 8
  // bytes from where the caller stored it, a store-forwarding stall at every load and store.)
  // Inline, so that a verb whose access is known where it is performed (one rectangle, read or
  // written) calls its own case directly.
  bool access(CoreId by, const SliceAccess& access, const SourceLine& line, Failure& failure) {
    if (access.masked) return access_parts(by, access, line, failure);
    return access.is_write ? write_rect(by, access.slice, access.verb, line, failure)
                           : read_rect(by, access.slice, access.verb, line, failure);
  }
  // add: `by` adds `amount` to the cell (semaphore, target) (a signal).
  bool add(CoreId by, int semaphore, CoreId target, std::int64_t amount, Failure& failure, SourceLine line = {});
  // take: `amount` leaves the cell (semaphore, global_core), which holds at least that much (a
  // wait, once enabled).
  void take(int semaphore, int global_core, std::int64_t amount) {
    semaphores_.add(semaphore, global_core, -amount);
    if (races_) races_->consume(global_core, semaphore, amount);
  }

  // The device barrier (model/device_barrier.hpp): `by` arrives; a core leaves once every core
  // of its device has arrived.
  const DeviceBarrier& device_barrier() const { return barrier_; }
  void arrive_at_barrier(CoreId by) {
    const int global = topology_.global(by);
    barrier_.arrive(global);
    for (int core = global - by.core; core < global - by.core + topology_.cores_per_device(); ++core)
      released_cells_.push_back(core);
    if (races_) races_->barrier_arrive(global);
  }
  void leave_barrier(int global_core) {
    barrier_.leave(global_core);
    if (races_) races_->barrier_leave(global_core);
  }

  // Starts the DMA `request` asks for; returns its id, which joins started_dmas().
  int start_dma(CoreId by, const DmaRequest& request, SourceLine line, Failure& failure);
  // Runs the next step of DMA `id`: its read phase, or the next chunk of its write phase (all
  // of it unless dma.chunk_bytes is set: model/dma_chunks.hpp).
  bool run_dma_phase(int id, Failure& failure);
  // The DMAs started since the caller last cleared this list (the engine then applies its DMA
  // execution policy to them, whichever verb started them).
  std::vector<int>& started_dmas() { return started_dmas_; }
  // The semaphore cell (semaphore index, global core) the next phase of `id` signals, or
  // semaphore -1 if it signals none.
  std::pair<int, int> next_phase_signal(int id) const;

  // The global cores whose semaphore or barrier cells were signalled since the caller last
  // cleared this list (a scheduler re-checks only those waiters).
  std::vector<int>& released_cells() { return released_cells_; }

  // The DMA records' storage (model/dma_records.hpp), emptied with its capacity kept, for the
  // next execution's machine: the executions of a simulation then grow no vector of records or
  // pool of in-flight parts, and fault in no fresh pages for them.
  DmaRecords release_dma_storage() {
    dmas_.clear();
    return std::move(dmas_);
  }
  void reuse_dma_storage(DmaRecords storage) {
    storage.clear();
    dmas_ = std::move(storage);
  }

  // The end of `by`'s innermost scope (run_scoped; model/memory.hpp) at `line`: a DMA that has
  // still to read one of its buffers or to land in one is dma_in_flight; then the end writes each buffer
  // (race detection: a DMA that landed in it unawaited races with the end), and frees them.
  // `ending` names what ends in a message ("ends launch 1"; empty: a run_scoped scope).
  bool close_scope(CoreId by, SourceLine line, Failure& failure, std::string_view ending = {});

  // `by` ends its launch at `line` (model/machine_launches.cpp; docs/semantics.md §12): its
  // launch's scratch is freed (as a scope's end: a DMA still in flight into or out of it is
  // dma_in_flight), a cell of its launch's semaphores left non-zero is a semaphore_leak, its
  // semaphore ids start again, it counts as in the next launch, and it arrives at its device's
  // barrier (the caller then waits there).
  bool end_launch(CoreId by, SourceLine line, Failure& failure);

  // Notes for the report of a wrong result: what the hardware did legally that loses data (a
  // Pallas output block revisited and not read back in), in the order they were made.
  void note(std::string text) { notes_.push_back(std::move(text)); }
  const std::vector<std::string>& notes() const { return notes_; }

  // The exit checks once every core has finished: dma_in_flight, then semaphore_leak.
  std::optional<Failure> exit_check() const;

 private:
  bool record(const Access& access, Failure& failure) {
    if (access.buffer->freed) return touched_after_scope(access, failure);
    if (observer_ != nullptr && !observer_->on_access(access, failure)) return false;
    return races_ == nullptr || races_->access(
                                    access, step_, [this](Accessor who) { return describe_actor(who); }, failure);
  }
  // `final`: a DMA's last event (RaceDetector::signal).
  void release(Accessor by, int semaphore, int global_core, std::int64_t amount, bool final = false) {
    semaphores_.add(semaphore, global_core, amount);
    released_cells_.push_back(global_core);
    if (races_) races_->signal(by, semaphore, global_core, amount, final);
  }
  Failure out_of_bounds(CoreId by, SourceLine line, const Slice& slice, std::string_view what) const;
  // crossed_launch (model/machine_launches.cpp): core `by`, in launch `from`, signals `semaphore`
  // in `target_global`'s cell at `line`; a DMA `dma` reaches `target_global` (`what` it does
  // there). True when both sides are in the same launch, or the object carries across.
  bool same_launch(CoreId by, int from, int semaphore, int target_global, SourceLine line, Failure& failure) const;
  // (`origin` and `array` name a library's DMA: model/dma_records.hpp's describe_origin.)
  bool same_launch(const Dma& dma, const DmaOrigin* origin, const Buffer* array, int target_global,
                   std::string_view what, Failure& failure) const;
  bool carries_across(int semaphore) const { return semaphores_.launch(semaphore) < 0; }
  // "device 0 core 0, which is still in launch 1" and what its launch holds in the slot.
  std::string launch_of(int global_core, int from) const;
  // kernel_error: `access` touches a buffer whose scope ended.
  bool touched_after_scope(const Access& access, Failure& failure) const;
  // The masked accesses' steps: every part inside the buffer (else the failure of `verb`, which
  // names the part outside), and every part recorded as an access.
  bool parts_inside(CoreId by, const Slice& slice, std::span<const Rect> parts, std::string_view verb, SourceLine line,
                    Failure& failure) const;
  bool record_parts(CoreId by, const Slice& slice, std::span<const Rect> parts, bool is_write, SourceLine line,
                    Failure& failure);
  // access()'s cases: a masked access, and the one rectangle slice.rect written or read.
  bool access_parts(CoreId by, const SliceAccess& access, const SourceLine& line, Failure& failure);
  bool write_rect(CoreId by, const Slice& slice, std::string_view verb, const SourceLine& line, Failure& failure);
  bool read_rect(CoreId by, const Slice& slice, std::string_view verb, const SourceLine& line, Failure& failure);

  MachineSpec spec_;
  Topology topology_;
  Memory memory_;
  Semaphores semaphores_;
  Launches launches_;
  DeviceBarrier barrier_;
  DmaRecords dmas_;
  std::vector<int> dmas_started_;  // per global core
  std::vector<int> released_cells_;
  std::vector<int> started_dmas_;
  AccessObserver* observer_ = nullptr;
  std::unique_ptr<Races> races_;
  std::uint64_t step_ = 0;
  std::vector<std::string> notes_;
};

}  // namespace weft::model
