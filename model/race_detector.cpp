#include "model/race_detector.hpp"

namespace weft::model {
namespace {

std::string_view operation(Accessor who, bool is_write) {
  if (who.kind == Accessor::Kind::core) return is_write ? "store" : "load";
  return is_write ? "DMA write" : "DMA read";
}

}  // namespace

template <class Clock>
RaceDetector<Clock>::RaceDetector(const Topology& topology, SemaphoreClocks mode, bool keep_going)
    : cores_(topology.cores()),
      mode_(mode),
      keep_going_(keep_going),
      slots_(topology.devices(), topology.cores_per_device()),
      free_lanes_(static_cast<std::size_t>(cores_)),
      barriers_(arena_, cores_, topology.cores_per_device()) {
  clocks_.reserve(static_cast<std::size_t>(cores_));
  for (int core = 0; core < cores_; ++core) {
    actor_slots_.push_back(slots_.core(core));
    clocks_.emplace_back(arena_).set(actor_slots_.back(), 1);
  }
}

template <class Clock>
template <class Kind, class Fresh>
Kind& RaceDetector<Clock>::cell(std::vector<std::vector<Kind>>& table, int semaphore, int global_core, Fresh fresh) {
  if (semaphore >= static_cast<int>(table.size())) table.resize(static_cast<std::size_t>(semaphore) + 1);
  auto& row = table[semaphore];
  if (row.empty()) row.resize(static_cast<std::size_t>(cores_), fresh());
  return row[global_core];
}

template <class Clock>
AccessHistory& RaceDetector<Clock>::new_history(const Buffer& buffer) {
  if (buffer.serial >= static_cast<int>(histories_.size()))
    histories_.resize(static_cast<std::size_t>(buffer.serial) + 1);
  auto& found = histories_[buffer.serial];
  if (!found) found = std::make_unique<AccessHistory>(buffer.info().shape);
  return *found;
}

template <class Clock>
int RaceDetector<Clock>::take_lane(int global_core) {
  std::vector<int>& free = free_lanes_[global_core];
  if (!free.empty()) {
    const int lane = free.back();
    free.pop_back();
    return lane;
  }
  clocks_.emplace_back(arena_);
  actor_slots_.push_back(slots_.open_lane(global_core));
  return static_cast<int>(clocks_.size()) - cores_ - 1;
}

template <class Clock>
void RaceDetector<Clock>::signal(Accessor by, int semaphore, int global_core, std::int64_t amount, bool final) {
  const std::size_t releaser_actor = actor(by);
  const Clock& releaser = clocks_[releaser_actor];
  const int lane = final ? static_cast<int>(releaser_actor) - cores_ : -1;
  if (mode_ == SemaphoreClocks::precise) {
    cell(cells_, semaphore, global_core, [] { return Cell{}; }).pending.push(amount, {snapshots_.keep(releaser), lane});
  } else {
    AccumulatedCell& target = cell(accumulated_cells_, semaphore, global_core, fresh_accumulated());
    target.accumulated.join(releaser);
    if (lane >= 0) target.lanes.push_back(lane);
  }
  clocks_[releaser_actor].tick(actor_slots_[releaser_actor]);
}

template <class Clock>
void RaceDetector<Clock>::consume(int global_core, int semaphore, std::int64_t amount) {
  Clock& acquirer = clocks_[global_core];
  std::vector<int>& free = free_lanes_[global_core];
  if (mode_ == SemaphoreClocks::accumulate) {
    AccumulatedCell& source = cell(accumulated_cells_, semaphore, global_core, fresh_accumulated());
    acquirer.join(source.accumulated);
    free.insert(free.end(), source.lanes.begin(), source.lanes.end());
    source.lanes.clear();
    return;
  }
  Cell& source = cell(cells_, semaphore, global_core, [] { return Cell{}; });
  source.pending.take(amount, [&](Release& release, std::int64_t, bool emptied) {
    acquirer.join(snapshots_.at(release.clock));
    if (release.lane >= 0) {  // the acquirer now knows the whole lane
      free.push_back(release.lane);
      release.lane = -1;
    }
    // Lets go of the shared storage, so its other holders may write it in place.
    if (emptied) snapshots_.drop(release.clock);
  });
}

template <class Clock>
void RaceDetector<Clock>::dma_started(int global_core, int dma_id) {
  const int lane = take_lane(global_core);  // may grow clocks_: take references after it
  if (dma_id >= static_cast<int>(lane_of_.size())) lane_of_.resize(static_cast<std::size_t>(dma_id) + 1, -1);
  lane_of_[dma_id] = lane;
  const auto own_actor = static_cast<std::size_t>(cores_ + lane);
  const std::size_t own_slot = actor_slots_[own_actor];
  Clock& own = clocks_[own_actor];
  Clock& starter = clocks_[global_core];
  // The lane goes on past every event of its earlier DMAs, all of which the starter knows.
  own.continue_from(starter, own_slot, own.get(own_slot) + 1);
  starter.tick(slots_.core(global_core));
}

template <class Clock>
std::vector<FailureSite> RaceDetector<Clock>::sites(const Access& access, std::uint64_t step, const Earlier& earlier) {
  Accessor before = earlier.who, after = access.who;
  before.is_write = earlier.is_write;
  after.is_write = access.is_write;
  return {{before,
           earlier.step,
           earlier.line,
           std::string(operation(earlier.who, earlier.is_write)) + " " + to_string(earlier.rect),
           {},
           earlier.rect},
          {after,
           step,
           access.line,
           std::string(operation(access.who, access.is_write)) + " " + to_string(access.rect),
           {},
           access.rect}};
}

template <class Clock>
std::optional<std::string> RaceDetector<Clock>::report(const Access& access, std::uint64_t step, const Earlier& earlier,
                                                       const std::string& later_actor,
                                                       const std::string& earlier_actor) {
  std::string first = to_string(earlier.line), second = to_string(access.line);
  const std::string key = std::min(first, second) + "|" + std::max(first, second) + "|" +
                          std::to_string(static_cast<int>(access.buffer->info().space)) + ":" +
                          std::to_string(access.buffer->info().id);
  if (!reported_.insert(key).second) return std::nullopt;
  const auto line = [](std::string_view op, const Rect& rect, const std::string& actor, SourceLine where,
                       std::uint64_t at) {
    return std::string(op) + " " + to_string(rect) + " by " + actor + " at " + to_string(where) + ", step " +
           std::to_string(at);
  };
  return "data race on " + describe(access.buffer->info()) + ":\n  " +
         line(operation(earlier.who, earlier.is_write), earlier.rect, earlier_actor, earlier.line, earlier.step) +
         "\n  " + line(operation(access.who, access.is_write), access.rect, later_actor, access.line, step) +
         "\n  neither happens before the other";
}

template class RaceDetector<TreeClock>;
template class RaceDetector<VectorClock>;

}  // namespace weft::model
