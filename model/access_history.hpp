#pragma once
// The race detector's shadow state of one buffer: the access records still able to race with a
// later access (rectangle, read or write, the actor's epoch, source line, step), each packed into
// 64 bytes (model/access_record.hpp). A rectangle that does not fit 32-bit numbers is kept in
// the history's table of wide rectangles, whose entry is given back when its record is dropped.
//
// Records are filed by the bucket of their first row (dimension 0 of the rectangle), so an
// access looks only at records that can overlap it in that dimension: those starting at most
// `longest - 1` rows before it (the longest dimension-0 extent recorded) up to its last row.
// A ring all-gather's output, one slot per device written by one DMA and read by the next,
// keeps a record per slot; each access then looks at its own slot, not at all of them. A
// buffer has at most max_buckets buckets (when it is taller, a power of two of neighbouring
// rows share one, so that finding a row's bucket is a shift, not a division), and
// a bucket's vector keeps its capacity, so an access allocates nothing once the history is warm.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/access_record.hpp"
#include "model/rect.hpp"

namespace weft::model {

class AccessHistory {
 public:
  using Record = AccessRecord;

  explicit AccessHistory(const Shape& shape);

  // Calls `visit(record, its rectangle)` for every record whose rectangle may overlap `rect` (a
  // superset: the caller checks the overlap), in bucket order then filing order, and drops each
  // record for which it returns true.
  template <class Visit>
  void sweep(const Rect& rect, Visit visit) {
    latest_bucket_ = no_latest;  // the sweep may move it
    const auto [first, last] = window(rect);
    for (std::size_t bucket = first; bucket <= last; ++bucket) {
      std::vector<Record>& records = buckets_[bucket];
      std::size_t kept = 0;
      for (std::size_t i = 0; i < records.size(); ++i) {
        if (visit(static_cast<const Record&>(records[i]), rect_of(records[i]))) {
          if (records[i].is_wide()) free_wide_.push_back(records[i].wide_index());
          continue;
        }
        if (kept != i) records[kept] = records[i];
        ++kept;
      }
      records.resize(kept);
    }
  }
  // Files a record of `rect`, stamped by `stamp(record)` (AccessRecord::stamp); `alone`: the
  // sweep before it kept no other record overlapping it.
  template <class Stamp>
  void add(const Rect& rect, Stamp stamp, bool alone) {
    longest_ = std::max(longest_, extent(rect));
    latest_bucket_ = alone ? bucket_of(start(rect)) : no_latest;
    Record& record = buckets_[bucket_of(start(rect))].emplace_back(AccessRecord::fits(rect) ? AccessRecord::narrow(rect)
                                                                                            : wide(rect));
    stamp(record);
  }
  Rect rect_of(const Record& record) const { return record.is_wide() ? wide_[record.wide_index()] : record.rect(); }
  // The record filed last if it was filed alone and no sweep has happened since, else nothing.
  Record* latest_alone() { return latest_bucket_ == no_latest ? nullptr : &buckets_[latest_bucket_].back(); }

  static constexpr std::size_t max_buckets = 1024;

 private:
  static std::int64_t start(const Rect& rect) { return rect.rank == 0 ? 0 : rect.start[0]; }
  static std::int64_t extent(const Rect& rect) { return rect.rank == 0 ? 1 : rect.size[0]; }
  std::size_t bucket_of(std::int64_t row) const {
    return static_cast<std::size_t>(std::clamp<std::int64_t>(row >> bucket_shift_, 0, buckets_.size() - 1));
  }
  // The buckets that may hold a record overlapping `rect` in dimension 0.
  std::pair<std::size_t, std::size_t> window(const Rect& rect) const {
    return {bucket_of(start(rect) - longest_ + 1),
            bucket_of(start(rect) + std::max<std::int64_t>(extent(rect), 1) - 1)};
  }

  // A wide record of `rect`, in a free entry of the wide table or a new one.
  Record wide(const Rect& rect) {
    if (free_wide_.empty()) {
      wide_.push_back(rect);
      return AccessRecord::wide(static_cast<std::uint32_t>(wide_.size() - 1));
    }
    const std::uint32_t index = free_wide_.back();
    free_wide_.pop_back();
    wide_[index] = rect;
    return AccessRecord::wide(index);
  }

  static constexpr std::size_t no_latest = ~std::size_t{0};

  std::size_t latest_bucket_ = no_latest;
  int bucket_shift_ = 0;  // a bucket holds 2^bucket_shift_ rows
  std::int64_t longest_ = 1;
  std::vector<std::vector<Record>> buckets_;
  std::vector<Rect> wide_;                // the rectangles of wide records
  std::vector<std::uint32_t> free_wide_;  // entries of wide_ no record holds
};

}  // namespace weft::model
