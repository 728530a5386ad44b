#pragma once
// Storage shared by reference count and recycled with its capacity, as clocks hold it
// (vector_clock.hpp, tree_clock.hpp): a holder keeps an index; copying a holder retains the
// index, and the last release puts it on a free list for the next acquire, which empties the
// contents through the caller's `reset` and keeps their heap buffers, so a warm execution
// allocates nothing. An acquire may move the records (a reference to contents is valid until
// the next acquire), never the contents' buffers.

#include <cstddef>
#include <vector>

namespace weft::model {

template <class Contents>
class SharedStorage {
 public:
  // Storage held once, its contents emptied by `reset(Contents&)` when recycled.
  template <class Reset>
  int acquire(Reset&& reset) {
    int storage = 0;
    if (!free_.empty()) {
      storage = free_.back();
      free_.pop_back();
      reset(records_[static_cast<std::size_t>(storage)].contents);
    } else {
      storage = static_cast<int>(records_.size());
      records_.emplace_back();
    }
    records_[static_cast<std::size_t>(storage)].holders = 1;
    return storage;
  }
  void retain(int storage) { ++records_[static_cast<std::size_t>(storage)].holders; }
  void release(int storage) {
    if (--records_[static_cast<std::size_t>(storage)].holders == 0) free_.push_back(storage);
  }
  bool shared(int storage) const { return records_[static_cast<std::size_t>(storage)].holders > 1; }
  Contents& contents(int storage) { return records_[static_cast<std::size_t>(storage)].contents; }
  const Contents& contents(int storage) const { return records_[static_cast<std::size_t>(storage)].contents; }
  std::size_t storages() const { return records_.size(); }  // ever held at once, at most

 private:
  struct Record {
    int holders = 0;
    Contents contents{};
  };
  std::vector<Record> records_;
  std::vector<int> free_;  // storages nobody holds
};

}  // namespace weft::model
