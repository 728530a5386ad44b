#include "sim/explain/race_story.hpp"

#include <deque>
#include <limits>

#include "sim/explain/partial_landing.hpp"
#include "sim/explain/phrases.hpp"
#include "sim/explain/pipeline_advice.hpp"
#include "sim/explain/shared_semaphore.hpp"
#include "sim/trace/describe.hpp"

namespace weft::sim {
namespace {

using Kind = TraceEvent::Kind;

// One racing access as the story speaks of it; it may have no record (the access that failed).
struct Side {
  model::FailureSite site;
  CausalEvent event;
  int core = -1;                  // who performs it: its core, or its DMA's starter
  int dma = -1;                   // its DMA, or -1
  std::size_t start = no_record;  // its DMA's start record
  std::string chunk;              // a chunk of its DMA's write phase, not all of it: " of [15:16, 0:256]"

  Side(const TraceRecorder& recorder, const Causality& causality, const model::FailureSite& failure_site)
      : site(failure_site), event(causality.event_of(failure_site)) {
    if (site.who.kind == model::Accessor::Kind::core) {
      core = site.who.index;
      return;
    }
    dma = site.who.index;
    if (const TracedDma* traced = recorder.dma(dma); traced && traced->start != no_record) {
      start = traced->start;
      core = static_cast<int>(recorder.records()[start].actor.index);
      if (site.who.is_write && !(site.rect == recorder.records()[start].target_rect))
        chunk = " of " + model::to_string(site.rect);
    }
  }
  bool recorded() const { return event.record != no_record; }
  std::string line() const { return model::to_string(site.line); }
  // "read", "write" (a DMA's phase; "write of [15:16, 0:256]" for a chunk of it), "load", "store"
  std::string operation() const {
    if (dma >= 0) return site.who.is_write ? "write" + chunk : "read";
    return site.what.substr(0, site.what.find(' '));
  }
  // "DMA 17's read", "the store by device 0 core 0"
  std::string completion(const Phrases& words) const {
    if (dma >= 0) return model::words::dma(dma) + "'s " + operation();
    return "the " + operation() + " by " + words.core(core);
  }
};

// The story of why `first` does not happen before `second`, as if the kernel meant it to.
class RaceStory {
 public:
  RaceStory(const TraceRecorder& recorder, const Causality& causality, const Side& first, const Side& second)
      : recorder_(recorder),
        records_(recorder.records()),
        causality_(causality),
        first_(first),
        second_(second),
        words_(recorder, first.line()) {
    past_second_ = causality_.past(second_.event);
    future_first_ =
        first_.recorded() ? causality_.future(first_.event.record) : std::vector<bool>(records_.size(), false);
    choose_break();
    path_ = chain_path();
    for (std::size_t i = 1; i < path_.size(); ++i) hops_ += wake_between(path_[i - 1], path_[i]) ? 1 : 0;
  }

  // How much of an ordering the kernel built in this direction: a chain of signals and waits
  // (3), the second access after the first's DMA start in program order (2: it forgot to
  // wait), program order only (1), nothing (0).
  int strength() const {
    if (path_.empty()) return 0;
    if (hops_ > 0) return 3;
    return first_.start != no_record && past_second_[first_.start] ? 2 : 1;
  }
  bool ordered() const { return first_.recorded() && past_second_[first_.event.record]; }

  Explanation tell() const {
    Explanation out;
    out.title = "why they are unordered";
    out.why.push_back(first_side());
    second_side(out);
    breaks(out);
    fixes(out);
    links(out);
    return out;
  }

 private:
  bool wake_between(std::size_t from, std::size_t to) const {
    for (const CausalEdge& edge : causality_.predecessors(to))
      if (edge.record == from && edge.kind == CausalEdge::Kind::wake) return true;
    return false;
  }
  std::size_t last_known(int core) const {
    const auto& mine = causality_.core_records(core);
    for (auto at = mine.rbegin(); at != mine.rend(); ++at)
      if (past_second_[*at]) return *at;
    return no_record;
  }
  std::size_t first_knowing(int core) const {
    for (std::size_t index : causality_.core_records(core))
      if (future_first_[index]) return index;
    return no_record;
  }

  // k: the first access's core if the second heard from it, else the core whose knowledge of
  // the first access reached the second last.
  void choose_break() {
    if (first_.core >= 0 && (edge_ = last_known(first_.core)) != no_record) {
      core_ = first_.core;
      completion_ = first_knowing(core_);
      return;
    }
    const int cores = recorder_.devices() * recorder_.cores_per_device();
    for (int core = 0; core < cores; ++core) {
      const std::size_t known = last_known(core), knowing = first_knowing(core);
      if (known == no_record || knowing == no_record || (edge_ != no_record && known < edge_)) continue;
      edge_ = known;
      core_ = core;
      completion_ = knowing;
    }
  }

  // The path from E to the second access with the fewest signal -> wait hops (0-1 BFS inside
  // the second's past).
  std::vector<std::size_t> chain_path() const {
    if (edge_ == no_record) return {};
    const std::size_t none = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> cost(records_.size(), none), parent(records_.size(), no_record);
    std::deque<std::size_t> queue{edge_};
    cost[edge_] = 0;
    const auto target = [&](std::size_t index) {
      if (second_.recorded()) return index == second_.event.record;
      for (std::size_t before : second_.event.before)
        if (before == index) return true;
      return false;
    };
    while (!queue.empty()) {
      const std::size_t at = queue.front();
      queue.pop_front();
      if (target(at)) {
        std::vector<std::size_t> path;
        for (std::size_t step = at; step != no_record; step = parent[step]) path.insert(path.begin(), step);
        return path;
      }
      for (const CausalEdge& edge : causality_.successors(at)) {
        const std::size_t next = edge.record;
        if (!past_second_[next] && next != second_.event.record) continue;
        const std::size_t through = cost[at] + (edge.kind == CausalEdge::Kind::wake ? 1 : 0);
        if (cost[next] != none && cost[next] <= through) continue;
        cost[next] = through;
        parent[next] = at;
        if (edge.kind == CausalEdge::Kind::wake) queue.push_back(next);
        else queue.push_front(next);
      }
    }
    return {};
  }

  // "unit 2 of 2" when a wait took part of a core's multi-unit signal.
  std::string units(std::size_t signal, std::size_t wait) const {
    const TraceRecord& sent = records_[signal];
    if (sent.actor.kind != scheduler::Actor::Kind::core || sent.amount <= 1) return "";
    std::int64_t before = 0, taken = 0;
    for (const WakeEdge& edge : recorder_.edges()) {
      if (edge.signal != signal) continue;
      if (edge.wait < wait) before += edge.units;
      if (edge.wait == wait) taken = edge.units;
    }
    if (taken == 0) return "";
    const std::string first = std::to_string(before + 1), last = std::to_string(before + taken);
    return (taken == 1 ? "unit " + first : "units " + first + ".." + last) + " of " + std::to_string(sent.amount);
  }

  // "the read by DMA 17 (started by device 5 core 0 at line 30, step 109)", "the store by device 0
  // core 0 at line 12"
  std::string access(const Side& side) const {
    if (side.dma < 0)
      return "the " + side.operation() + " by " + words_.core(side.core) + " at " + words_.at(side.line());
    std::string text = "the " + side.operation() + " by " + model::words::dma(side.dma);
    if (side.start == no_record) return text;
    const std::string& origin = records_[side.start].origin;  // a pipeline DMA: what it is to the author
    return text + " (" + (origin.empty() ? "" : origin + ", ") + "started by " + words_.core(side.core) + " " +
           words_.where(records_[side.start]) + ")";
  }

  std::string first_side() const { return access(first_) + " ran at step " + std::to_string(first_.site.step); }

  void second_side(Explanation& out) const {
    const std::string intro = access(second_) + (second_.dma >= 0 ? " at step " : " (step ") +
                              std::to_string(second_.site.step) + (second_.dma >= 0 ? "" : ")");
    if (path_.empty()) {
      out.why.push_back(intro + " hears nothing from " + words_.core(first_.core) + " or any core that knew of " +
                        first_.completion(words_) + ": no chain of signals and waits leads there");
      return;
    }
    if (hops_ == 0) {
      out.why.push_back(intro + " comes after " + words_.core(core_) + "'s own earlier operations only");
      return;
    }
    out.why.push_back(intro + " comes after:");
    for (std::size_t i = path_.size(); i-- > 1;) {
      if (!wake_between(path_[i - 1], path_[i])) continue;
      const TraceRecord& wait = records_[path_[i]];
      out.why.push_back("  " + words_.who(wait) + "'s wait " + words_.where(wait) + ", which took " +
                        words_.signal(records_[path_[i - 1]], units(path_[i - 1], path_[i])));
    }
  }

  // What E is: "signal of semaphore 2003 'capacity' at line 27", "start of DMA 25 at line 30".
  std::string edge_phrase() const {
    const TraceRecord& edge = records_[edge_];
    const std::string what = edge.kind == Kind::signal ? "signal of " + semaphore_name(recorder_, edge.semaphore_id)
                             : edge.kind == Kind::dma_start ? "start of " + model::words::dma(edge.dma)
                                                            : std::string(kind_name(edge.kind));
    return what + " at " + words_.at(edge.line);
  }
  // Where k learned of the first access: "wait at line 30 (step 126)" (or the access itself).
  std::string completion_where() const {
    const TraceRecord& known = records_[completion_];
    return std::string(kind_name(known.kind)) + " at " + words_.at(known.line) + " (step " +
           std::to_string(known.step) + ")";
  }
  // What that wait took: "the completion of DMA 17's read" (empty for the access itself).
  std::string completion_took() const {
    if (completion_ == first_.event.record) return "";
    for (const CausalEdge& edge : causality_.predecessors(completion_)) {
      if (edge.kind != CausalEdge::Kind::wake || !future_first_[edge.record]) continue;
      const TraceRecord& signal = records_[edge.record];
      if (signal.dma >= 0 && signal.dma == first_.dma) return "the completion of " + first_.completion(words_);
      return words_.signal(signal);
    }
    return "";
  }

  void breaks(Explanation& out) const {
    if (path_.empty()) return;
    const std::string k = words_.core(core_);
    const bool started_first = first_.start != no_record && core_ == first_.core;
    const std::string start = started_first ? " it started " + model::words::dma(first_.dma) + " (" +
                                                  words_.at(records_[first_.start].line) + ", step " +
                                                  std::to_string(records_[first_.start].step) + ")"
                                            : std::string();
    std::string text = "where the chain breaks: ";
    if (hops_ == 0) {
      text += access(second_) + " came after" + (started_first ? start : " " + k + "'s own operations");
    } else {
      text += k + "'s " + edge_phrase() + " (step " + std::to_string(records_[edge_].step) + ") came ";
      text += started_first          ? (edge_ < first_.start ? "before" : "after") + start
              : core_ == first_.core ? "before " + first_.completion(words_)
                                     : "before " + k + " heard of " + first_.completion(words_);
    }
    const bool waited = completion_ != no_record && completion_ != first_.event.record;
    const std::string then = waited
                                 ? "and before its " + completion_where() + " took " + completion_took()
                                 : "and " + k + " never waited for " + first_.completion(words_) + " before the race";
    out.why.push_back(text + ",");
    out.why.push_back("  " + then + ":");
    const std::string released =
        hops_ > 0 && records_[edge_].kind == Kind::signal ? "a signal sent" : "what a core does";
    out.why.push_back("  " + released + " before " + first_.completion(words_) + " completes is not ordered after it");
  }

  // The operation to move: E, or the second access itself (a core's access, a DMA's start) when
  // no hop lies between, so that its core is k.
  // A pipeline DMA's start is nothing the author writes: its fixes are pipeline_advice.hpp's.
  void fixes(Explanation& out) const {
    const RacingAccess first = racing(first_), second = racing(second_);
    if (pipeline_dma(recorder_, first) || pipeline_dma(recorder_, second)) {
      out.fixes = pipeline_fixes(recorder_, words_, first, second);
      return;
    }
    if (path_.empty()) {
      out.fixes.push_back({second_.line(), "make " + words_.core(second_.core) + " wait, before " +
                                               words_.at(second_.line()) + ", for a signal " +
                                               words_.core(first_.core) + " sends after " + first_.completion(words_) +
                                               " completes"});
      return;
    }
    const std::string moved_line = hops_ > 0 ? records_[edge_].line : second_.line();
    const std::string moved = hops_ > 0 ? edge_phrase()
                              : second_.dma >= 0
                                  ? "start of " + model::words::dma(second_.dma) + " at " + words_.at(moved_line)
                                  : second_.operation() + " at " + words_.at(moved_line);
    const std::string k = words_.core(core_);
    if (completion_ != no_record && completion_ != first_.event.record) {
      const std::string took = completion_took();
      out.fixes.push_back({moved_line, "move " + k + "'s " + moved + " after its " + completion_where() +
                                           (took.empty() ? "" : ", which takes " + took)});
    } else {
      out.fixes.push_back({moved_line, "move " + k + "'s " + moved + " after a wait for " + first_.completion(words_) +
                                           " to complete (" + k + " waited for none before the race)"});
    }
    if (hops_ > 0 && records_[edge_].kind == Kind::signal && completion_ != no_record) surplus_fix(out);
  }

  RacingAccess racing(const Side& side) const {
    const std::uint64_t step = side.start != no_record ? records_[side.start].step : side.site.step;
    return {side.core, side.dma, side.line(), side.operation(), step};
  }

  // The first hop's wait took a unit sent before the first access completed; if k signals the
  // same cell again after it, that later signal is the one the wait should have taken.
  void surplus_fix(Explanation& out) const {
    const TraceRecord& early = records_[edge_];
    for (std::size_t index : causality_.core_records(core_)) {
      const TraceRecord& later = records_[index];
      if (index <= completion_ || later.kind != Kind::signal || later.semaphore_id != early.semaphore_id ||
          later.target_core != early.target_core)
        continue;
      const TraceRecord& wait = records_[path_[1]];
      out.fixes.push_back(
          {early.line, "or let " + words_.who(wait) + "'s wait at " + words_.at(wait.line) + " take the signal " +
                           words_.core(core_) + " sends at " + words_.at(later.line) + " (step " +
                           std::to_string(later.step) + "), after that completion, not a unit" + " of the one at " +
                           words_.at(early.line) +
                           (early.amount > 1 ? " (which signals " + std::to_string(early.amount) + ")" : "")});
      return;
    }
  }

  // The chain's notable events, for timelines and JSON: E, each hop's signal and wait, each
  // DMA start, and the second access.
  void links(Explanation& out) const {
    for (std::size_t i = 0; i < path_.size(); ++i) {
      const TraceRecord& record = records_[path_[i]];
      const bool hop_end = (i > 0 && wake_between(path_[i - 1], path_[i])) ||
                           (i + 1 < path_.size() && wake_between(path_[i], path_[i + 1]));
      if (i == 0 || i + 1 == path_.size() || hop_end || record.kind == Kind::dma_start)
        out.chain.push_back({path_[i], words_.who(record), record_title(recorder_, record), record.line, record.step});
    }
    if (second_.recorded()) return;
    const std::string who = second_.dma >= 0 ? model::words::dma(second_.dma) : words_.core(second_.core);
    out.chain.push_back({no_record, who, second_.site.what, second_.line(), second_.site.step});
  }

  const TraceRecorder& recorder_;
  const std::vector<TraceRecord>& records_;
  const Causality& causality_;
  const Side& first_;
  const Side& second_;
  Phrases words_;
  std::vector<bool> past_second_, future_first_;
  int core_ = -1;                       // k
  std::size_t edge_ = no_record;        // E
  std::size_t completion_ = no_record;  // C
  std::vector<std::size_t> path_;
  int hops_ = 0;
};

// The records of the causal view: the causal past of both accesses, and the accesses.
std::vector<std::size_t> causal_view(const Causality& causality, const Side& a, const Side& b, std::size_t records) {
  const std::vector<bool> past_a = causality.past(a.event), past_b = causality.past(b.event);
  std::vector<std::size_t> focus;
  for (std::size_t i = 0; i < records; ++i)
    if (past_a[i] || past_b[i] || i == a.event.record || i == b.event.record) focus.push_back(i);
  return focus;
}

}  // namespace

Explanation explain_race(const TraceRecorder& recorder, const Causality& causality, const model::FailureSite& earlier,
                         const model::FailureSite& later) {
  const Side a(recorder, causality, earlier), b(recorder, causality, later);
  if (!a.recorded()) return {};
  const RaceStory forward(recorder, causality, a, b), backward(recorder, causality, b, a);
  if (forward.ordered()) return {};  // the recording orders them: nothing to explain
  Explanation out = backward.strength() > forward.strength() ? backward.tell() : forward.tell();
  tell_partial_landing(recorder, causality.past(b.event), earlier, out);
  tell_partial_landing(recorder, causality.past(a.event), later, out);
  tell_shared_semaphore(recorder, causality, earlier, later, out);
  tell_shared_semaphore(recorder, causality, later, earlier, out);
  out.focus = causal_view(causality, a, b, recorder.records().size());
  return out;
}

}  // namespace weft::sim
