#include "model/race_detector.hpp"

namespace weft::model {
namespace {

std::string_view operation(Accessor who, bool is_write) {
  if (who.kind == Accessor::Kind::core) return is_write ? "store" : "load";
  return is_write ? "DMA write" : "DMA read";
}

}  // namespace

RaceDetector::RaceDetector(const Topology& topology, SemaphoreClocks mode, bool keep_going)
    : cores_(topology.cores()), mode_(mode), keep_going_(keep_going), clocks_(static_cast<std::size_t>(cores_)) {
  for (int core = 0; core < cores_; ++core) clocks_[core].set(static_cast<std::size_t>(core), 1);
}

VectorClock& RaceDetector::clock(Accessor who) {
  const std::size_t at = slot(who);
  if (at >= clocks_.size()) clocks_.resize(at + 1);
  return clocks_[at];
}

RaceDetector::Cell& RaceDetector::cell(int semaphore, int global_core) {
  if (semaphore >= static_cast<int>(cells_.size())) cells_.resize(static_cast<std::size_t>(semaphore) + 1);
  auto& row = cells_[semaphore];
  if (row.empty()) row.resize(static_cast<std::size_t>(cores_));
  return row[global_core];
}

std::vector<RaceDetector::Record>& RaceDetector::records(const Buffer& buffer) {
  if (buffer.serial >= static_cast<int>(records_.size())) records_.resize(static_cast<std::size_t>(buffer.serial) + 1);
  return records_[buffer.serial];
}

void RaceDetector::signal(Accessor by, int semaphore, int global_core, std::int64_t amount) {
  VectorClock& releaser = clock(by);
  Cell& target = cell(semaphore, global_core);
  if (mode_ == SemaphoreClocks::precise)
    target.pending.push_back({amount, releaser});
  else
    target.accumulated.join(releaser);
  releaser.tick(slot(by));
}

void RaceDetector::consume(int global_core, int semaphore, std::int64_t amount) {
  VectorClock& acquirer = clocks_[global_core];
  Cell& source = cell(semaphore, global_core);
  if (mode_ == SemaphoreClocks::accumulate) {
    acquirer.join(source.accumulated);
    return;
  }
  while (amount > 0 && !source.pending.empty()) {
    SignalUnits& front = source.pending.front();
    acquirer.join(front.clock);
    const std::int64_t taken = std::min(amount, front.units);
    amount -= taken;
    front.units -= taken;
    if (front.units == 0) source.pending.pop_front();
  }
}

void RaceDetector::dma_started(int global_core, int dma_id) {
  const Accessor dma{Accessor::Kind::dma, dma_id};
  VectorClock& own = clock(dma);  // may grow clocks_: take the starter's reference after it
  VectorClock& starter = clocks_[global_core];
  own = starter;
  own.set(slot(dma), 1);
  starter.tick(static_cast<std::size_t>(global_core));
}

std::vector<FailureSite> RaceDetector::sites(const Access& access, std::uint64_t step, const Record& earlier) {
  Accessor before = earlier.who, after = access.who;
  before.is_write = earlier.is_write;
  after.is_write = access.is_write;
  return {{before, earlier.step, earlier.line, std::string(operation(earlier.who, earlier.is_write)) + " " + to_string(earlier.rect)},
          {after, step, access.line, std::string(operation(access.who, access.is_write)) + " " + to_string(access.rect)}};
}

std::optional<std::string> RaceDetector::report(const Access& access, std::uint64_t step, const Record& earlier,
                                                const std::string& later_actor, const std::string& earlier_actor) {
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

}  // namespace weft::model
