#pragma once
// A machine's race detection (model/race_detector.hpp) over the clocks the configuration
// chooses (`race_detection.clocks`): dense vector clocks (model/vector_clock.hpp), the default
// and the reference, or tree clocks (model/tree_clock.hpp), whose joins cost what they change.
// Both find the same races and write the same reports, byte for byte
// (tests/explain/clock_kinds_differential_test.cpp). Dense clocks stay the default because they
// measured faster on every workload here, rings of 1,024 cores included (docs/performance.md,
// "Tree clocks"). One of the two detectors exists; each call goes to it.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/race_detector.hpp"

namespace weft::model {

enum class ClockKind { tree, vector };

class Races {
 public:
  Races(const Topology& topology, SemaphoreClocks mode, ClockKind clocks, bool keep_going) {
    if (clocks == ClockKind::tree) tree_ = std::make_unique<RaceDetector<TreeClock>>(topology, mode, keep_going);
    else vector_ = std::make_unique<RaceDetector<VectorClock>>(topology, mode, keep_going);
  }

  void signal(Accessor by, int semaphore, int global_core, std::int64_t amount, bool final = false) {
    tree_ ? tree_->signal(by, semaphore, global_core, amount, final)
          : vector_->signal(by, semaphore, global_core, amount, final);
  }
  void consume(int global_core, int semaphore, std::int64_t amount) {
    tree_ ? tree_->consume(global_core, semaphore, amount) : vector_->consume(global_core, semaphore, amount);
  }
  void dma_started(int global_core, int dma_id) {
    tree_ ? tree_->dma_started(global_core, dma_id) : vector_->dma_started(global_core, dma_id);
  }
  void barrier_arrive(int global_core) {
    tree_ ? tree_->barrier_arrive(global_core) : vector_->barrier_arrive(global_core);
  }
  void barrier_leave(int global_core) {
    tree_ ? tree_->barrier_leave(global_core) : vector_->barrier_leave(global_core);
  }
  template <class Describe>
  bool access(const Access& access, std::uint64_t step, Describe describe_actor, Failure& failure) {
    return tree_ ? tree_->access(access, step, describe_actor, failure)
                 : vector_->access(access, step, describe_actor, failure);
  }

  const std::vector<std::string>& reports() const { return tree_ ? tree_->reports() : vector_->reports(); }
  const std::vector<FailureSite>& sites() const { return tree_ ? tree_->sites() : vector_->sites(); }

 private:
  std::unique_ptr<RaceDetector<TreeClock>> tree_;
  std::unique_ptr<RaceDetector<VectorClock>> vector_;
};

}  // namespace weft::model
