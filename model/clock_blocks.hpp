#pragma once
// A clock's entries, stored as the 64-slot blocks that may be non-zero (model/vector_clock.hpp
// keeps its storage in these). A bitmap names the blocks held; their entries lie in block order,
// 64 each, so a clock's memory is the blocks it holds, not every slot up to its highest. A join
// visits the other clock's blocks (and, when it gains blocks, this clock's above the lowest one
// gained), a copy copies the blocks a clock holds and a reset touches nothing; none costs the
// slots of the machine. On a ring whose actors' slots are adjacent (model/clock_slots.hpp) a
// clock holds its ring's blocks alone.
//
// Invariants: `values` holds 64 entries for each block whose bit is set, block k's at
// 64 * (the set blocks before k); a block not set reads as all zeros. `words[w].before` counts the
// blocks set in the words before w. `size` is one past the highest slot written since the last
// reset (what a clock reports as its size); `words` has the words that cover it, and no block at
// or past it is set. Values and words keep their capacity across resets, and grow by what they
// need, so a warm execution allocates nothing.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft::model {

// 64 blocks of the bitmap, and how many blocks the words before hold.
struct ClockWord {
  std::uint64_t bits = 0;
  std::uint32_t before = 0;
};

struct ClockBlocks {
  static constexpr std::size_t block = 64;                  // slots a block, and blocks a word
  static constexpr std::size_t word_slots = block * block;  // slots a word covers

  std::vector<std::uint32_t> values;
  std::vector<ClockWord> words;
  std::size_t size = 0;

  // The entry at `slot` of blocks whose words (`word_count` of them) and values start at the
  // pointers given (a clock reads its storage through them without the arena).
  static std::uint32_t read(const ClockWord* words, std::size_t word_count, const std::uint32_t* values,
                            std::size_t slot) {
    const std::size_t index = slot / word_slots;
    if (index >= word_count) return 0;
    const std::uint64_t bit = bit_of(slot);
    if ((words[index].bits & bit) == 0) return 0;
    return values[position(words[index], bit) * block + slot % block];
  }
  std::uint32_t get(std::size_t slot) const { return read(words.data(), words.size(), values.data(), slot); }
  // Blocks held.
  std::size_t blocks() const { return values.size() / block; }
  bool holds(std::size_t block_index) const {
    const std::size_t index = block_index / block;
    return index < words.size() && (words[index].bits & (std::uint64_t{1} << (block_index % block))) != 0;
  }

  // Grows to cover `slots` slots (zeros), for writes below it.
  void reach(std::size_t slots) {
    if (slots <= size) return;  // the words cover `size` already
    size = slots;
    const std::size_t needed = (size + word_slots - 1) / word_slots;
    if (needed > words.size()) {
      words.reserve(needed);
      words.resize(needed, ClockWord{0, static_cast<std::uint32_t>(blocks())});
    }
  }
  void write(std::size_t slot, std::uint32_t value) {
    reach(slot + 1);
    const std::size_t index = slot / word_slots;
    const std::uint64_t bit = bit_of(slot);
    if ((words[index].bits & bit) == 0) {
      if (value == 0) return;  // an absent block reads as zeros already
      const std::size_t at = position(words[index], bit) * block;
      values.reserve(values.size() + block);
      values.insert(values.begin() + static_cast<std::ptrdiff_t>(at), block, 0);
      words[index].bits |= bit;
      for (std::size_t later = index + 1; later < words.size(); ++later) ++words[later].before;
    }
    values[position(words[index], bit) * block + slot % block] = value;
  }
  // Back to all zeros and size 0.
  void reset() {
    values.clear();
    words.clear();
    size = 0;
  }
  // Becomes `other`.
  void assign(const ClockBlocks& other) {
    if (&other == this) return;
    values.assign(other.values.begin(), other.values.end());
    words.assign(other.words.begin(), other.words.end());
    size = other.size;
  }
  // The entry-wise maximum with `other`: makes room for the blocks only `other` holds, then
  // passes over `other`'s blocks.
  void join(const ClockBlocks& other) {
    reach(other.size);
    std::size_t gained = 0;
    for (std::size_t index = 0; index < other.words.size(); ++index)
      gained += static_cast<std::size_t>(std::popcount(other.words[index].bits & ~words[index].bits));
    if (gained > 0) make_room(other, gained);
    std::uint32_t* out = values.data();
    const std::uint32_t* in = other.values.data();
    for (std::size_t index = 0; index < other.words.size(); ++index) {
      const std::uint64_t theirs = other.words[index].bits;
      if (theirs == 0) continue;
      if (theirs == words[index].bits) {  // the same blocks (a ring's clocks): one run
        const auto run = static_cast<std::size_t>(std::popcount(theirs)) * block;
        maximum(out + words[index].before * block, in, run);
        in += run;
        continue;
      }
      for (std::uint64_t bits = theirs; bits != 0; bits &= bits - 1) {
        maximum(out + position(words[index], bits & -bits) * block, in, block);
        in += block;
      }
    }
  }

 private:
  static void maximum(std::uint32_t* to, const std::uint32_t* in, std::size_t entries) {
    for (std::size_t i = 0; i < entries; ++i) to[i] = to[i] < in[i] ? in[i] : to[i];
  }
  static std::uint64_t bit_of(std::size_t slot) { return std::uint64_t{1} << (slot / block % block); }
  // Where the block of `bit` (set or not) is or would be among the blocks held.
  static std::size_t position(const ClockWord& word, std::uint64_t bit) {
    const std::uint64_t below = word.bits & (bit - 1);
    return word.before + (below == 0 ? 0 : static_cast<std::size_t>(std::popcount(below)));
  }
  // Holds, besides its own blocks, the `gained` blocks only `other` holds, as zeros: from the
  // highest block down, its own blocks move up to their new places until none is left to move.
  void make_room(const ClockBlocks& other, std::size_t gained) {
    std::size_t from = blocks();
    std::size_t to = from + gained;
    values.reserve(to * block);
    values.resize(to * block);
    std::uint32_t* data = values.data();
    for (std::size_t index = words.size(); index-- > 0 && from != to;) {
      const std::uint64_t own = words[index].bits;
      std::uint64_t all = own | (index < other.words.size() ? other.words[index].bits : 0);
      for (; all != 0 && from != to; all &= ~(std::uint64_t{1} << (63 - std::countl_zero(all)))) {
        --to;
        const std::uint64_t bit = std::uint64_t{1} << (63 - std::countl_zero(all));
        if ((own & bit) != 0)
          std::copy_n(data + --from * block, block, data + to * block);  // upwards, whole blocks apart
        else std::fill_n(data + to * block, block, 0);
      }
    }
    std::uint32_t before = 0;
    for (std::size_t index = 0; index < words.size(); ++index) {
      if (index < other.words.size()) words[index].bits |= other.words[index].bits;
      words[index].before = before;
      before += static_cast<std::uint32_t>(std::popcount(words[index].bits));
    }
  }
};

}  // namespace weft::model
