#pragma once
// One access record of the race detector's shadow state (model/access_history.hpp), packed into
// 64 bytes: a 1,024-core ring keeps half a million of them.
//
// Contract. A record holds exactly what the access said (rectangle, read or write, accessor,
// epoch, source line, step) and gives each back unchanged:
// - the rectangle's rank, and its start and size as 32-bit numbers when all eight of them fit
//   (every entry, the unused ones too, so the rectangle comes back equal in every field); when
//   one does not (a buffer with a dimension of 2^31 elements or more), the record is *wide*: it
//   holds an index into its history's table of wide rectangles instead, and only the history
//   (which owns that table) turns a record back into its rectangle;
// - the line as an index into the race detector's table of the execution's lines
//   (model/line_table.hpp), which only that detector reads back;
// - the step in 64 bits (an execution's steps are not bounded by 2^32);
// - read or write, the accessor's kind and phase, and wideness as bits of one byte.

#include <array>
#include <cstdint>

#include "model/failure.hpp"
#include "model/rect.hpp"
#include "model/vector_clock.hpp"

namespace weft::model {

class AccessRecord {
 public:
  // A record of `rect` when it fits 32 bits, with the other fields zero; see fits().
  static AccessRecord narrow(const Rect& rect) {
    AccessRecord record;
    record.rank_ = static_cast<std::uint8_t>(rect.rank);
    for (int d = 0; d < max_rank; ++d) {
      record.start_[d] = static_cast<std::int32_t>(rect.start[d]);
      record.size_[d] = static_cast<std::int32_t>(rect.size[d]);
    }
    return record;
  }
  // A record whose rectangle is entry `index` of its history's wide table.
  static AccessRecord wide(std::uint32_t index) {
    AccessRecord record;
    record.flags_ = wide_bit;
    record.start_[0] = static_cast<std::int32_t>(index);
    return record;
  }
  // Whether every start and size of `rect` fits a 32-bit number.
  static bool fits(const Rect& rect) {
    // value + 2^31 (modulo 2^64) is below 2^32 exactly when value is a 32-bit number.
    constexpr std::uint64_t shift = std::uint64_t{1} << 31;
    std::uint64_t any = 0;
    for (int d = 0; d < max_rank; ++d)
      any |= (static_cast<std::uint64_t>(rect.start[d]) + shift) | (static_cast<std::uint64_t>(rect.size[d]) + shift);
    return any >> 32 == 0;
  }

  bool is_wide() const { return (flags_ & wide_bit) != 0; }
  std::uint32_t wide_index() const { return static_cast<std::uint32_t>(start_[0]); }  // only when wide
  Rect rect() const {                                                                 // only when narrow
    Rect rect;
    rect.rank = rank_;
    for (int d = 0; d < max_rank; ++d) {
      rect.start[d] = start_[d];
      rect.size[d] = size_[d];
    }
    return rect;
  }

  // Everything but the rectangle: what the access was, who made it, when and where (`line`: an
  // index into the execution's line table).
  void stamp(Epoch epoch, bool is_write, Accessor who, std::uint32_t line, std::uint64_t step) {
    epoch_ = epoch;
    step_ = step;
    who_index_ = who.index;
    line_ = line;
    flags_ =
        static_cast<std::uint8_t>((flags_ & wide_bit) | (is_write ? write_bit : 0) |
                                  (who.kind == Accessor::Kind::dma ? dma_bit : 0) | (who.is_write ? who_write_bit : 0));
  }
  Epoch epoch() const { return epoch_; }
  bool is_write() const { return (flags_ & write_bit) != 0; }
  Accessor who() const {
    return {(flags_ & dma_bit) != 0 ? Accessor::Kind::dma : Accessor::Kind::core, who_index_,
            (flags_ & who_write_bit) != 0};
  }
  std::uint32_t line() const { return line_; }
  std::uint64_t step() const { return step_; }

 private:
  static constexpr std::uint8_t write_bit = 1, dma_bit = 2, who_write_bit = 4, wide_bit = 8;

  std::array<std::int32_t, max_rank> start_{};  // wide: start_[0] is the wide table's index
  std::array<std::int32_t, max_rank> size_{};
  Epoch epoch_{};
  std::uint64_t step_ = 0;
  int who_index_ = 0;
  std::uint32_t line_ = 0;
  std::uint8_t rank_ = 0;
  std::uint8_t flags_ = 0;
};

static_assert(sizeof(AccessRecord) <= 64);

}  // namespace weft::model
