#pragma once
// A dense clock's entries with a summary of where they may be non-zero: a bitmap of 64-slot
// blocks (model/vector_clock.hpp keeps its storage in these). A join visits only the blocks the
// other clock has, a copy copies only its own blocks and recycling zeroes only them, so each
// costs the blocks a clock spans, not the slots of the machine. On a ring whose actors' slots are
// adjacent (model/clock_slots.hpp) a clock spans its ring's blocks alone.
//
// Invariants: `values` is as long as a whole number of blocks and every block not in `blocks` is
// all zeros; `size` is one past the highest slot written since the last reset (what a clock
// reports as its size), and no block at or past it is in `blocks`. Values and bitmap keep their
// length and capacity across resets, so a warm execution allocates nothing.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft::model {

struct ClockBlocks {
  static constexpr std::size_t block = 64;  // slots a block, and blocks a bitmap word

  std::vector<std::uint32_t> values;
  std::vector<std::uint64_t> blocks;
  std::size_t size = 0;

  // Grows to hold `slots` slots (zeros), for writes below it.
  void reach(std::size_t slots) {
    if (slots > size) size = slots;
    const std::size_t whole = (slots + block - 1) / block;
    if (whole * block > values.size()) values.resize(whole * block, 0);
    const std::size_t words = (whole + block - 1) / block;
    if (words > blocks.size()) blocks.resize(words, 0);
  }
  void write(std::size_t slot, std::uint32_t value) {
    reach(slot + 1);
    values[slot] = value;
    blocks[slot / (block * block)] |= std::uint64_t{1} << (slot / block % block);
  }
  // The bitmap words that cover `size` (the rest are zero).
  std::size_t words() const { return ((size + block - 1) / block + block - 1) / block; }
  // Calls `visit(first_slot)` for each block in the bitmap, in slot order.
  template <class Visit>
  void for_each_block(Visit&& visit) const {
    for (std::size_t word = 0, n = words(); word < n; ++word)
      for (std::uint64_t bits = blocks[word]; bits != 0; bits &= bits - 1)
        visit((word * block + static_cast<std::size_t>(std::countr_zero(bits))) * block);
  }
  // Back to all zeros and size 0, touching only the blocks in the bitmap.
  void reset() {
    for_each_block(
        [&](std::size_t first) { std::fill_n(values.begin() + static_cast<std::ptrdiff_t>(first), block, 0); });
    std::fill_n(blocks.begin(), words(), 0);
    size = 0;
  }
  // Becomes `other` (this one freshly reset).
  void assign(const ClockBlocks& other) {
    reach(other.size);
    other.for_each_block([&](std::size_t first) {
      std::copy_n(other.values.begin() + static_cast<std::ptrdiff_t>(first), block,
                  values.begin() + static_cast<std::ptrdiff_t>(first));
    });
    std::copy_n(other.blocks.begin(), other.words(), blocks.begin());
  }
  // The entry-wise maximum with `other`, over `other`'s blocks only.
  void join(const ClockBlocks& other) {
    reach(other.size);
    std::uint32_t* out = values.data();
    const std::uint32_t* in = other.values.data();
    other.for_each_block([&](std::size_t first) {
      for (std::size_t i = first; i < first + block; ++i) out[i] = out[i] < in[i] ? in[i] : out[i];
    });
    for (std::size_t word = 0, n = other.words(); word < n; ++word) blocks[word] |= other.blocks[word];
  }
};

}  // namespace weft::model
