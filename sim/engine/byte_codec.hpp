#pragma once
// The explorer's values as bytes, for what crosses between processes (explore_messages.hpp) and
// what outlives one (explore_checkpoint.hpp): integers as LEB128 varints (signed ones zigzagged),
// actors, footprints, sleep sets, wakeup trees. The encoding is private to weft: compact, since
// footprints are most of what is written.
//
// Contract: what a ByteReader reads back is what the ByteWriter wrote, in the same order, but for
// footprints written without their run's end touches (scheduler/footprint.hpp, run_end_object).
// A reader never reads past its bytes and never makes a value out of its type's range: bytes that
// are not what it expects throw DecodeError, whose text starts with the reader's `what`.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "scheduler/strategies/race_analysis.hpp"
#include "scheduler/strategies/wakeup_tree.hpp"

namespace weft::sim::byte_codec {

struct DecodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ByteWriter {
 public:
  void number(std::uint64_t value);
  void signed_number(std::int64_t value);
  void flag(bool value) { number(value ? 1 : 0); }
  void text(std::string_view value);
  void actor(scheduler::StableActor actor);
  void actors(const std::vector<scheduler::StableActor>& actors);
  // `run_end`: with the touches of the run's end (false: the reader's own analysis adds them).
  void footprint(const scheduler::Footprint& footprint, bool run_end = false);
  void sleep(const scheduler::Sleep& sleep, bool run_end = false);
  // Each branch with its footprint (run's end touches included) and its children.
  void tree(const std::vector<scheduler::Branch>& tree);
  const std::string& bytes() const { return bytes_; }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class ByteReader {
 public:
  // Reads `bytes` from `at` on; `what` names them in errors ("explore message").
  ByteReader(std::string_view bytes, std::size_t at, std::string what)
      : bytes_(bytes), at_(at), what_(std::move(what)) {}
  std::uint64_t number();
  std::int64_t signed_number();
  std::uint64_t at_most(std::uint64_t most);
  // A count of items that take at least a byte each: never more than the bytes left.
  std::size_t count() { return static_cast<std::size_t>(at_most(bytes_.size() - at_)); }
  bool flag() { return at_most(1) == 1; }
  std::string text();
  scheduler::StableActor actor();
  std::vector<scheduler::StableActor> actors();
  scheduler::Footprint footprint();
  scheduler::Sleep sleep();
  std::vector<scheduler::Branch> tree();
  // Throws unless every byte was read.
  void end() const;
  [[noreturn]] void fail(const std::string& why) const;

 private:
  std::string_view bytes_;
  std::size_t at_;
  std::string what_;
};

}  // namespace weft::sim::byte_codec
