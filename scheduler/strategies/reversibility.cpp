#include "scheduler/strategies/reversibility.hpp"

#include <algorithm>

#include "scheduler/strategies/held_bytes.hpp"

namespace weft::scheduler {
void Reversibility::grow(std::span<const Event> run, std::size_t length, const HappensBefore& order, std::size_t kept) {
  kept = std::min(kept, length_);
  while (!changed_.empty() && counters_.at(changed_.back()).back().event >= kept) {
    counters_.at(changed_.back()).pop_back();
    changed_.pop_back();
  }
  run_ = run;
  length_ = length;
  order_ = &order;
  for (std::size_t k = kept; k < length; ++k) {
    if (k + read_ahead_events < length) read_ahead(run[k + read_ahead_events]);
    for (const Touch& touch : run[k].footprint.touches) {
      if (touch.mode != TouchMode::add && touch.mode != TouchMode::take) continue;
      const std::int64_t delta = touch.mode == TouchMode::add ? touch.amount : -touch.amount;
      const std::uint32_t counter = counters_.index(touch.object);
      std::vector<Change>& changes = counters_.at(counter);
      if (!changes.empty() && changes.back().event == k) {
        changes.back().delta += delta;
        changes.back().total += delta;
      } else {
        changes.push_back({k, delta, (changes.empty() ? 0 : changes.back().total) + delta});
        changed_.push_back(counter);
      }
    }
  }
}

bool Reversibility::reversible(std::size_t i, std::size_t j) const {
  for (const Touch& take : run_[j].footprint.touches) {
    if (take.mode != TouchMode::take) continue;
    std::int64_t held = 0;
    const std::uint32_t found = counters_.find(take.object);
    if (found != counters_.absent) {
      const std::vector<Change>& changes = counters_.at(found);
      // Everything before e_i.
      auto at = std::lower_bound(changes.begin(), changes.end(), i,
                                 [](const Change& change, std::size_t event) { return change.event < event; });
      if (at != changes.begin()) held = std::prev(at)->total;
      // The reversal's transitions before e_j: after e_i, not after it in happens-before.
      const std::size_t until = std::min(j, length_);
      for (; at != changes.end() && at->event < until; ++at)
        if (at->event > i && !order_->before(i, at->event)) held += at->delta;
    }
    if (held < take.amount) return false;
  }
  return true;
}

std::size_t Reversibility::memory_bytes() const {
  std::size_t bytes = counters_.memory_bytes() + held_bytes(changed_);
  for (std::uint32_t counter = 0; counter < counters_.size(); ++counter) bytes += held_bytes(counters_.at(counter));
  return bytes;
}

}  // namespace weft::scheduler
