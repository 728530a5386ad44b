#include "scheduler/strategies/touch_index.hpp"

#include <algorithm>
#include <utility>

#include "scheduler/strategies/held_bytes.hpp"

namespace weft::scheduler {
namespace {

std::size_t later(std::size_t a, std::size_t b) {
  if (a == TouchIndex::none) return b;
  if (b == TouchIndex::none) return a;
  return std::max(a, b);
}

}  // namespace

void TouchIndex::file(std::size_t event, std::uint32_t chain, const Footprint& footprint) {
  const bool queried = &footprint == queried_;
  for (std::size_t t = 0; t < footprint.touches.size(); ++t) {
    const Touch& touch = footprint.touches[t];
    const std::uint32_t object = queried ? looked_up_[t] : objects_.index(touch.object);
    std::vector<Lists>& by_chain = objects_.at(object);
    if (by_chain.size() <= chain) by_chain.resize(chain + 1);
    Lists& lists = by_chain[chain];
    Undo& undo = filed_.emplace_back(
        Undo{event, lists.newest, none, none, 0, 0, object, chain, touch.mode, touch.ordered, touch.box.rank});
    lists.newest = event;
    switch (touch.mode) {
      case TouchMode::add:
        undo.latest = std::exchange(touch.ordered ? lists.ordered_adds : lists.adds, event);
        break;
      case TouchMode::take:
        undo.latest = std::exchange(lists.takes, event);
        break;
      case TouchMode::observe:
        undo.latest = std::exchange(lists.observes, event);
        break;
      case TouchMode::read:
      case TouchMode::write: {
        Boxed& boxed = touch.mode == TouchMode::read ? lists.reads : lists.writes;
        undo.latest = std::exchange(boxed.latest, event);
        if (touch.box.rank == 0) {
          undo.box_latest = std::exchange(boxed.whole_latest, event);
          break;
        }
        Rank& rank = boxed.ranks[touch.box.rank];
        undo.box_latest = std::exchange(rank.latest, event);
        undo.extent = rank.extent;
        undo.start = touch.box.start[0];
        rank.extent = std::max(rank.extent, touch.box.size[0]);
        rank.by_start[touch.box.start[0]].push_back({event, &touch});
        break;
      }
    }
  }
}

void TouchIndex::truncate(std::size_t kept) {
  queried_ = nullptr;
  while (!filed_.empty() && filed_.back().event >= kept) {
    const Undo& undo = filed_.back();
    Lists& lists = objects_.at(undo.object)[undo.chain];
    lists.newest = undo.newest;
    switch (undo.mode) {
      case TouchMode::add:
        (undo.ordered ? lists.ordered_adds : lists.adds) = undo.latest;
        break;
      case TouchMode::take:
        lists.takes = undo.latest;
        break;
      case TouchMode::observe:
        lists.observes = undo.latest;
        break;
      case TouchMode::read:
      case TouchMode::write: {
        Boxed& boxed = undo.mode == TouchMode::read ? lists.reads : lists.writes;
        boxed.latest = undo.latest;
        if (undo.rank == 0) {
          boxed.whole_latest = undo.box_latest;
          break;
        }
        const auto rank = boxed.ranks.find(undo.rank);
        rank->second.latest = undo.box_latest;
        rank->second.extent = undo.extent;
        const auto bucket = rank->second.by_start.find(undo.start);
        bucket->second.pop_back();
        if (bucket->second.empty()) rank->second.by_start.erase(bucket);
        if (rank->second.by_start.empty()) boxed.ranks.erase(rank);
        break;
      }
    }
    filed_.pop_back();
  }
}

std::size_t TouchIndex::meeting(const Boxed& boxed, const Box& box, std::uint32_t known) const {
  if (box.rank == 0) return above(boxed.latest, known);  // the whole object meets every box
  std::size_t found = above(boxed.whole_latest, known);
  for (const auto& [rank, filed] : boxed.ranks) {
    if (rank != box.rank) {  // another view of the object: Box::overlaps assumes they meet
      found = later(found, above(filed.latest, known));
      continue;
    }
    // Every entry of the rank is of one chain, so none is above `known` when its latest is not,
    // and none is later than `found` when its latest is not: no bucket to walk.
    if (above(filed.latest, known) == none || (found != none && filed.latest <= found)) continue;
    // An empty extent meets nothing; a box starting at or after this one's end, or `extent` or
    // more before its start, does not meet it in the first dimension.
    if (box.size[0] <= 0 || filed.extent <= 0) continue;
    const auto first = filed.by_start.upper_bound(box.start[0] - filed.extent);
    const auto end = filed.by_start.lower_bound(box.start[0] + box.size[0]);
    for (auto bucket = first; bucket != end; ++bucket) {
      const std::vector<Entry>& entries = bucket->second;
      for (auto entry = entries.rbegin(); entry != entries.rend() && positions_[entry->event] > known; ++entry) {
        if (found != none && entry->event <= found) break;
        if (box.overlaps(entry->touch->box)) {
          found = entry->event;
          break;
        }
      }
    }
  }
  return found;
}

void TouchIndex::latest_dependent(const Footprint& footprint, std::uint32_t own, std::span<const std::uint32_t> known,
                                  std::vector<std::size_t>& latest) {
  queried_ = &footprint;
  looked_up_.clear();
  for (const Touch& touch : footprint.touches) {
    // Made when absent (empty: it holds nothing to find), so that file() finds it here.
    looked_up_.push_back(objects_.index(touch.object));
    std::vector<Lists>& by_chain = objects_.at(looked_up_.back());
    for (std::uint32_t p = 0; p < by_chain.size(); ++p) {
      if (p == own) continue;
      const Lists& lists = by_chain[p];
      const std::uint32_t k = known[p];
      if (above(lists.newest, k) == none) continue;
      std::size_t found = none;
      const auto consider = [&](std::size_t event) { found = later(found, above(event, k)); };
      // The conflicts of scheduler/footprint.cpp: any touch of a counter conflicts with a take,
      // and with an add or an observe unless both are unordered adds or both observes; reads
      // and writes conflict with every counter touch, and with each other where their boxes
      // meet, unless both read.
      switch (touch.mode) {
        case TouchMode::read:
          found = meeting(lists.writes, touch.box, k);
          consider(lists.adds);
          consider(lists.ordered_adds);
          consider(lists.takes);
          consider(lists.observes);
          break;
        case TouchMode::write:
          found = later(meeting(lists.reads, touch.box, k), meeting(lists.writes, touch.box, k));
          consider(lists.adds);
          consider(lists.ordered_adds);
          consider(lists.takes);
          consider(lists.observes);
          break;
        case TouchMode::add:
          if (touch.ordered) consider(lists.adds);
          consider(lists.ordered_adds);
          consider(lists.takes);
          consider(lists.observes);
          consider(lists.reads.latest);
          consider(lists.writes.latest);
          break;
        case TouchMode::take:
          consider(lists.adds);
          consider(lists.ordered_adds);
          consider(lists.takes);
          consider(lists.observes);
          consider(lists.reads.latest);
          consider(lists.writes.latest);
          break;
        case TouchMode::observe:
          consider(lists.adds);
          consider(lists.ordered_adds);
          consider(lists.takes);
          consider(lists.reads.latest);
          consider(lists.writes.latest);
          break;
      }
      latest[p] = later(latest[p], found);
    }
  }
}

std::size_t TouchIndex::memory_bytes() const {
  std::size_t bytes = held_bytes(filed_) + held_bytes(looked_up_) + objects_.memory_bytes();
  const auto boxed_bytes = [](const Boxed& boxed) {
    std::size_t sum = 0;
    for (const auto& [rank, entries] : boxed.ranks) {
      sum += map_node_bytes + sizeof(std::pair<const int, Rank>);
      for (const auto& [start, filed] : entries.by_start)
        sum += map_node_bytes + sizeof(std::pair<const std::int64_t, std::vector<Entry>>) + held_bytes(filed);
    }
    return sum;
  };
  for (std::uint32_t object = 0; object < objects_.size(); ++object) {
    bytes += held_bytes(objects_.at(object));
    for (const Lists& lists : objects_.at(object)) bytes += boxed_bytes(lists.reads) + boxed_bytes(lists.writes);
  }
  return bytes;
}

}  // namespace weft::scheduler
