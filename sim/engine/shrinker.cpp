#include "sim/engine/shrinker.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "scheduler/strategies/lenient_replay.hpp"

namespace weft::sim {

namespace {

using scheduler::Actor;
using scheduler::Schedule;

// A run of one actor: the "c3:5" of a schedule string.
struct Segment {
  Actor actor;
  std::size_t count = 0;
};
using Segments = std::vector<Segment>;

Segments segments_of(const Schedule& schedule) {
  Segments segments;
  for (const Actor& actor : schedule) {
    if (!segments.empty() && segments.back().actor == actor) ++segments.back().count;
    else segments.push_back({actor, 1});
  }
  return segments;
}

Schedule schedule_of(const Segments& segments) {
  Schedule schedule;
  for (const Segment& segment : segments) schedule.insert(schedule.end(), segment.count, segment.actor);
  return schedule;
}

// The segments without those in [first, first + count).
Segments without(const Segments& segments, std::size_t first, std::size_t count) {
  Segments kept(segments.begin(), segments.begin() + static_cast<std::ptrdiff_t>(first));
  const std::size_t end = std::min(segments.size(), first + count);
  kept.insert(kept.end(), segments.begin() + static_cast<std::ptrdiff_t>(end), segments.end());
  return kept;
}

// One shrinking search: the best execution so far, and the budget spent.
class Search {
 public:
  Search(Simulation& simulation, const ShrinkOptions& options) : simulation_(simulation), options_(options) {}

  // Replays the original and takes it as the best so far; false when it does not replay.
  bool start(const ExecutionResult& failing) {
    scheduler::LenientReplayStrategy strategy(failing.schedule);
    best_ = simulation_.run(strategy);
    ++executions_;
    preemptions_ = strategy.preemptions();
    return best_.verdict == failing.verdict && best_.schedule == failing.schedule;
  }

  bool stopped() const { return options_.stop != nullptr && options_.stop->load(); }
  bool spent() const { return executions_ >= options_.max_executions || stopped(); }
  std::size_t executions() const { return executions_; }
  std::size_t preemptions() const { return preemptions_; }
  const ExecutionResult& best() const { return best_; }
  Segments segments() const { return segments_of(best_.schedule); }

  // Runs `candidate` leniently; keeps the recorded run when it has the verdict and is simpler.
  bool attempt(const Schedule& candidate) {
    if (spent() || candidate == best_.schedule) return false;
    scheduler::LenientReplayStrategy strategy(candidate);
    ExecutionResult result = simulation_.run(strategy);
    ++executions_;
    const std::size_t preemptions = strategy.preemptions();
    const bool simpler =
        preemptions < preemptions_ || (preemptions == preemptions_ && result.schedule.size() < best_.schedule.size());
    const bool no_longer = segments_of(result.schedule).size() <= segments_of(best_.schedule).size();
    if (result.verdict != best_.verdict || !simpler || !no_longer) return false;
    best_ = std::move(result);
    preemptions_ = preemptions;
    return true;
  }
  bool attempt(const Segments& candidate) { return attempt(schedule_of(candidate)); }

  // Keeps only the first 0, 1, 2, 4, ... segments; stops at the first (shortest) that works.
  bool truncate_tail() {
    const std::size_t size = segments().size();
    for (std::size_t keep = 0; keep < size && !spent(); keep = keep == 0 ? 1 : keep * 2) {
      Segments prefix = segments();
      prefix.resize(keep);
      if (attempt(prefix)) return true;
    }
    return false;
  }

  // ddmin over segments: delete chunks of 1/n of them, n = 2, 4, ...; after a success, n - 1.
  bool delete_chunks() {
    bool any = false;
    std::size_t n = 2;
    while (!spent()) {
      const Segments current = segments();
      if (current.size() < 2) break;
      n = std::min(n, current.size());
      const std::size_t chunk = (current.size() + n - 1) / n;
      bool accepted = false;
      for (std::size_t first = 0; first < current.size() && !accepted && !spent(); first += chunk)
        accepted = attempt(without(current, first, chunk));
      if (accepted) {
        any = true;
        n = std::max<std::size_t>(n - 1, 2);
      } else if (n >= current.size()) {
        break;
      } else {
        n = std::min(n * 2, current.size());
      }
    }
    return any;
  }

  // Drops half of a segment's steps, else one of them, segment by segment; a segment that
  // shrank is looked at again.
  bool shorten_segments() {
    bool any = false;
    std::size_t i = 0;
    while (!spent()) {
      Segments current = segments();
      if (i >= current.size()) break;
      const std::size_t count = current[i].count;
      bool accepted = false;
      if (count >= 2) {
        current[i].count = count - count / 2;
        accepted = attempt(current);
        if (!accepted && count > 2) {
          current[i].count = count - 1;
          accepted = attempt(current);
        }
      }
      any = any || accepted;
      if (!accepted) ++i;
    }
    return any;
  }

 private:
  Simulation& simulation_;
  const ShrinkOptions& options_;
  std::size_t executions_ = 0;
  ExecutionResult best_;
  std::size_t preemptions_ = 0;
};

}  // namespace

ShrinkResult Shrinker::shrink(const ExecutionResult& failing) {
  Search search(simulation_, options_);
  if (!search.start(failing))
    throw NotReplayable("shrink: the execution does not replay to the same verdict on this simulation");
  ShrinkResult shrunk;
  shrunk.preemptions_before = search.preemptions();
  shrunk.steps_before = search.best().steps;

  bool progress = true;
  while (progress && !search.spent()) {
    progress = search.truncate_tail();
    progress = search.delete_chunks() || progress;
    progress = search.shorten_segments() || progress;
  }

  shrunk.result = search.best();
  shrunk.preemptions_after = search.preemptions();
  shrunk.executions = search.executions();
  shrunk.stopped = search.stopped();
  shrunk.budget_exhausted = search.executions() >= options_.max_executions;
  return shrunk;
}

}  // namespace weft::sim
