#include "sim/engine/byte_codec.hpp"

#include <algorithm>
#include <limits>

namespace weft::sim::byte_codec {

using scheduler::Actor;
using scheduler::Branch;
using scheduler::Footprint;
using scheduler::Sleep;
using scheduler::StableActor;
using scheduler::Touch;
using scheduler::TouchMode;

void ByteWriter::number(std::uint64_t value) {
  do {
    const auto low = static_cast<std::uint8_t>(value & 0x7f);
    value >>= 7;
    bytes_.push_back(static_cast<char>(value != 0 ? low | 0x80 : low));
  } while (value != 0);
}

void ByteWriter::signed_number(std::int64_t value) {  // zigzag: small magnitudes, small varints
  const auto bits = static_cast<std::uint64_t>(value);
  number((bits << 1) ^ (value < 0 ? ~std::uint64_t{0} : 0));
}

void ByteWriter::text(std::string_view value) {
  number(value.size());
  bytes_.append(value);
}

void ByteWriter::actor(StableActor actor) {
  number(static_cast<std::uint8_t>(actor.kind));
  number(actor.owner);
  number(actor.sequence);
}

void ByteWriter::actors(const std::vector<StableActor>& actors) {
  number(actors.size());
  for (const StableActor each : actors) actor(each);
}

void ByteWriter::footprint(const Footprint& footprint, bool run_end) {
  const auto kept = [&](const Touch& touch) { return run_end || !(touch.object == scheduler::run_end_object); };
  number(static_cast<std::uint64_t>(std::count_if(footprint.touches.begin(), footprint.touches.end(), kept)));
  for (const Touch& touch : footprint.touches) {
    if (!kept(touch)) continue;
    number(touch.object.kind);
    signed_number(touch.object.a);
    signed_number(touch.object.b);
    signed_number(touch.object.c);
    number(static_cast<std::uint8_t>(touch.mode));
    signed_number(touch.box.rank);
    for (const std::int64_t start : touch.box.start) signed_number(start);
    for (const std::int64_t size : touch.box.size) signed_number(size);
    signed_number(touch.amount);
    flag(touch.ordered);
  }
  flag(footprint.creates);
}

void ByteWriter::sleep(const Sleep& sleep, bool run_end) {
  number(sleep.size());
  for (const auto& [asleep, footprint] : sleep) {
    actor(asleep);
    this->footprint(footprint, run_end);
  }
}

// Trees are written and read depth first without recursion: a chain of branches (a reversal's
// rest) is as deep as a run is long. `visit` takes a branch (before its children) and returns its
// children, which stay where they are while they are walked.
template <class Branches, class Visit>
void depth_first(Branches& tree, Visit visit) {
  struct Level {
    Branches* branches;
    std::size_t next;
  };
  std::vector<Level> stack{{&tree, 0}};
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.branches->size()) {
      stack.pop_back();
      continue;
    }
    Branches& children = visit((*level.branches)[level.next++]);
    stack.push_back({&children, 0});
  }
}

void ByteWriter::tree(const std::vector<Branch>& tree) {
  number(tree.size());
  depth_first(tree, [&](const Branch& branch) -> const std::vector<Branch>& {
    actor(branch.actor);
    footprint(branch.footprint, true);
    number(branch.children.size());
    return branch.children;
  });
}

void ByteReader::fail(const std::string& why) const { throw DecodeError(what_ + ": " + why); }

std::uint64_t ByteReader::number() {
  std::uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at_ == bytes_.size()) fail("truncated");
    const auto byte = static_cast<std::uint8_t>(bytes_[at_++]);
    value |= std::uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) return value;
  }
  fail("a number longer than 64 bits");
}

std::int64_t ByteReader::signed_number() {
  const std::uint64_t bits = number();
  return static_cast<std::int64_t>((bits >> 1) ^ (~(bits & 1) + 1));
}

std::uint64_t ByteReader::at_most(std::uint64_t most) {
  const std::uint64_t value = number();
  if (value > most) fail("a value out of range");
  return value;
}

std::string ByteReader::text() {
  const std::size_t size = count();
  std::string value(bytes_.substr(at_, size));
  at_ += size;
  return value;
}

StableActor ByteReader::actor() {
  StableActor actor;
  actor.kind = static_cast<Actor::Kind>(at_most(static_cast<std::uint8_t>(Actor::Kind::dma_write)));
  actor.owner = static_cast<std::uint32_t>(at_most(std::numeric_limits<std::uint32_t>::max()));
  actor.sequence = static_cast<std::uint32_t>(at_most(std::numeric_limits<std::uint32_t>::max()));
  return actor;
}

std::vector<StableActor> ByteReader::actors() {
  std::vector<StableActor> actors(count());
  for (StableActor& each : actors) each = actor();
  return actors;
}

Footprint ByteReader::footprint() {
  Footprint footprint;
  footprint.touches.resize(count());
  for (Touch& touch : footprint.touches) {
    touch.object.kind = static_cast<std::uint32_t>(at_most(std::numeric_limits<std::uint32_t>::max()));
    touch.object.a = signed_number();
    touch.object.b = signed_number();
    touch.object.c = signed_number();
    touch.mode = static_cast<TouchMode>(at_most(static_cast<std::uint8_t>(TouchMode::observe)));
    const std::int64_t rank = signed_number();
    if (rank < std::numeric_limits<int>::min() || rank > std::numeric_limits<int>::max()) fail("a value out of range");
    touch.box.rank = static_cast<int>(rank);
    for (std::int64_t& start : touch.box.start) start = signed_number();
    for (std::int64_t& size : touch.box.size) size = signed_number();
    touch.amount = signed_number();
    touch.ordered = flag();
  }
  footprint.creates = flag();
  return footprint;
}

Sleep ByteReader::sleep() {
  Sleep sleep(count());
  for (auto& [asleep, footprint] : sleep) {
    asleep = actor();
    footprint = this->footprint();
  }
  return sleep;
}

std::vector<Branch> ByteReader::tree() {
  std::vector<Branch> tree(count());
  depth_first(tree, [&](Branch& branch) -> std::vector<Branch>& {
    branch.actor = actor();
    branch.footprint = footprint();
    branch.children.resize(count());  // sized once, before its branches are read
    return branch.children;
  });
  return tree;
}

void ByteReader::end() const {
  if (at_ != bytes_.size()) fail("bytes after its end");
}

}  // namespace weft::sim::byte_codec
