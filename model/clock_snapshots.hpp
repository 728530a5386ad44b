#pragma once
// Clocks kept by index for records that hold one while they wait to be consumed (a precise-mode
// pending signal keeps its releaser's clock: model/race_detector.hpp). A record holds a 4-byte
// index where it held a clock handle, and the table holds a handle only while some record needs
// it: dropping an index lets go of the clock's storage (so its other holders may write it in
// place) and hands the index to the next keep. Memory is the clocks held at once, not a handle
// per record; the table keeps its capacity, so a warm execution allocates nothing.
//
// Deterministic: the index a keep returns depends only on the order of keeps and drops (the last
// dropped is reused first).

#include <cstddef>
#include <vector>

namespace weft::model {

template <class Clock>
class ClockSnapshots {
 public:
  // Keeps a copy of `clock` (sharing its storage) until dropped; returns its index.
  int keep(const Clock& clock) {
    if (free_.empty()) {
      clocks_.push_back(clock);
      return static_cast<int>(clocks_.size()) - 1;
    }
    const int index = free_.back();
    free_.pop_back();
    clocks_[static_cast<std::size_t>(index)] = clock;
    return index;
  }
  // Valid until the next keep.
  const Clock& at(int index) const { return clocks_[static_cast<std::size_t>(index)]; }
  void drop(int index) {
    clocks_[static_cast<std::size_t>(index)].clear();
    free_.push_back(index);
  }
  std::size_t held_at_most() const { return clocks_.size(); }

 private:
  std::vector<Clock> clocks_;
  std::vector<int> free_;  // indices no record holds
};

}  // namespace weft::model
