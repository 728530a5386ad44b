#include "scheduler/strategies/race_analysis.hpp"

#include <algorithm>
#include <map>

namespace weft::scheduler {

RaceAnalysis::RaceAnalysis(std::vector<Event>& run, std::size_t length, std::span<const StableActor> last_enabled)
    : run_(run), length_(length) {
  mark_end(last_enabled);
  order_ = &own_order_.emplace(run, length);
}

RaceAnalysis::RaceAnalysis(std::vector<Event>& run, std::size_t length, std::span<const StableActor> last_enabled,
                           HappensBefore order)
    : run_(run), length_(length) {
  mark_end(last_enabled);
  order_ = &own_order_.emplace(std::move(order));
}

RaceAnalysis::RaceAnalysis(std::vector<Event>& run, std::size_t length, std::span<const StableActor> last_enabled,
                           AnalysisMemory& memory, std::size_t kept)
    : run_(run), length_(length) {
  mark_end(last_enabled);
  order_ = &memory.order.grow(run, length, kept);
  kept = memory.order.reused();
  memory.reversibility.grow(run, length, *order_, kept);
  auto& reversible = memory.reversible;
  while (!reversible.empty() && reversible.back().first >= kept) reversible.pop_back();
  reversible_races(memory.reversibility, kept, reversible);
  memory_ = &memory;
}

void RaceAnalysis::reversible_races(const Reversibility& reversibility, std::size_t from,
                                    std::vector<std::pair<std::size_t, std::size_t>>& out) const {
  const std::vector<Event>& run = run_;
  for (std::size_t j = from; j < run.size(); ++j) {
    if (j + read_ahead_events < run.size()) read_ahead(run[j + read_ahead_events]);
    for (std::size_t i : order_->races(j)) {
      if (i >= length_) break;  // two transitions left at the end: neither ran, nothing to reverse
      if (reversibility.reversible(i, j)) out.emplace_back(j, i);
    }
  }
}

void RaceAnalysis::mark_end(std::span<const StableActor> last_enabled) {
  if (length_ == 0) return;
  const Touch end_of_run{{run_end_object}, TouchMode::write};
  run_[length_ - 1].footprint.touches.push_back(end_of_run);
  for (std::size_t k = length_; k < run_.size(); ++k)
    if (std::find(last_enabled.begin(), last_enabled.end(), run_[k].actor) != last_enabled.end())
      run_[k].footprint.touches.push_back({end_of_run.object, TouchMode::read});
}

RaceAnalysis::~RaceAnalysis() {
  run_.resize(length_);
  if (length_ > 0) run_[length_ - 1].footprint.touches.pop_back();
}

void RaceAnalysis::reversals(const std::function<const Sleep&(std::size_t)>& sleep_at,
                             const std::function<void(Reversal&)>& take) const {
  const std::vector<Event>& run = run_;
  const std::size_t length = length_;
  const HappensBefore& order = *order_;

  // Whether an actor asleep at the state before e_i is a weak initial of v (then v is covered).
  // For each sleeping actor, the first transition after e_i not ordered after it that is related
  // to it, and the first of its own process, are found once per state (v holds every such
  // transition, whatever the race): most checks are then a comparison.
  struct Asleep {
    std::size_t first_related, first_own;
  };
  // By state, made for the states a reversible race starts at (a few a run): a table as long as
  // the run, zeroed at every run, cost more than the summaries.
  std::map<std::size_t, std::vector<Asleep>> asleep_at;
  std::vector<std::size_t> rest;        // notdep(e_i), for the summaries
  const std::size_t none = run.size();  // past every event, the left ones included
  const auto sleep_covers = [&](std::size_t i, std::size_t j, const Sequence& sequence) {
    const Sleep& sleep = sleep_at(i);
    const auto [at, made] = asleep_at.try_emplace(i);
    std::vector<Asleep>& summaries = at->second;
    if (made && !sleep.empty()) {
      rest.clear();
      order.not_after(i, length, rest);
      for (const auto& [actor, footprint] : sleep) {
        Asleep summary{none, none};
        for (auto k_at = rest.begin();
             k_at != rest.end() && (summary.first_related == none || summary.first_own == none); ++k_at) {
          const std::size_t k = *k_at;
          const StableActor other = run[k].actor;
          if (summary.first_own == none && same_process(actor, other)) summary.first_own = k;
          if (summary.first_related == none && related(actor, footprint, other, run[k].footprint))
            summary.first_related = k;
        }
        summaries.push_back(summary);
      }
    }
    const Event& last = run[j];
    for (std::size_t s = 0; s < sleep.size(); ++s) {
      const auto& [actor, footprint] = sleep[s];
      if (summaries[s].first_own != none || same_process(actor, last.actor)) {
        if (sequence.weak_initial(actor, footprint)) return true;
      } else if (summaries[s].first_related == none && !related(actor, footprint, last.actor, last.footprint)) {
        return true;
      }
    }
    return false;
  };

  // Whether a reversal can run is known without building it (reversibility.hpp): most races
  // (a wait and the signal that let it through) cannot be reversed, and building each one's v
  // cost the run's length.
  std::vector<std::pair<std::size_t, std::size_t>> found;
  if (memory_ == nullptr) reversible_races(Reversibility(run, length, order), 0, found);
  for (const auto& [j, i] : memory_ != nullptr ? memory_->reversible : found) {
    Reversal reversal = this->reversal(i, j);
    if (sleep_covers(i, j, reversal.sequence)) continue;
    take(reversal);
  }
}

Reversal RaceAnalysis::reversal(std::size_t i, std::size_t j) const {
  // v: notdep(e_i), every transition of the run after e_i that does not happen after it (those
  // after e_j too: they do not happen after e_j either), then e_j.
  const HappensBefore& order = *order_;
  std::vector<std::size_t> rest;
  order.not_after(i, length_, rest);
  std::vector<Sequence::Step> v;
  v.reserve(rest.size() + 1);
  for (const std::size_t k : rest)
    if (k != j) v.push_back({run_[k].actor, &run_[k].footprint, k});
  v.push_back({run_[j].actor, &run_[j].footprint, j});
  return {i, Sequence(std::move(v), order)};
}

}  // namespace weft::scheduler
