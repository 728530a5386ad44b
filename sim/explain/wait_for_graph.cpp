#include "sim/explain/wait_for_graph.hpp"

#include <map>
#include <set>

#include "sim/explain/phrases.hpp"
#include "sim/trace/describe.hpp"

namespace weft::sim {
namespace {

using Kind = TraceEvent::Kind;
using scheduler::Actor;

struct Signaller {
  std::int64_t units = 0;
  std::set<std::string> lines;
  std::set<int> dmas;  // through these DMAs' phases
};

class WaitForGraph {
 public:
  WaitForGraph(const TraceRecorder& recorder, const std::vector<model::FailureSite>& sites)
      : recorder_(recorder),
        records_(recorder.records()),
        words_(recorder, sites.empty() ? "" : model::to_string(sites[0].line)) {
    for (const model::FailureSite& site : sites)
      if (site.who.kind == model::Accessor::Kind::core && !site.waits.empty()) blocked_.emplace(site.who.index, &site);
    for (const TraceRecord& record : records_)
      if (record.kind == Kind::finish) returned_[static_cast<int>(record.actor.index)] = record.step;
  }

  Explanation tell() {
    Explanation out;
    if (blocked_.empty()) return out;
    out.title = "wait-for graph";
    std::size_t told = 0;
    for (const auto& [core, site] : blocked_)
      if (told++ < max_told) node(core, *site, out);
      else edges_of(core, *site);
    if (blocked_.size() > max_told)
      out.why.push_back("... and " + std::to_string(blocked_.size() - max_told) + " more blocked cores");
    cycles(out);
    shortfall(out);
    focus(out);
    return out;
  }

 private:
  int owner(const TraceRecord& record) const {
    if (record.actor.kind == Actor::Kind::core) return static_cast<int>(record.actor.index);
    const TracedDma* dma = recorder_.dma(record.dma);
    return dma && dma->start != no_record ? static_cast<int>(records_[dma->start].actor.index) : -1;
  }

  // Who signalled (semaphore, core) in this run, by core.
  std::map<int, Signaller> signallers(int semaphore_id, int core) const {
    std::map<int, Signaller> found;
    for (const TraceRecord& record : records_) {
      if (!record.signals() || record.semaphore_id != semaphore_id || record.target_core != core) continue;
      Signaller& who = found[owner(record)];
      who.units += record.amount;
      who.lines.insert(words_.at(record.line));
      if (record.actor.kind != Actor::Kind::core) who.dmas.insert(record.dma);
    }
    return found;
  }

  bool dma_signalled(int semaphore_id, int core) const {
    for (const TraceRecord& record : records_)
      if (record.signals() && record.semaphore_id == semaphore_id && record.target_core == core &&
          record.actor.kind != Actor::Kind::core)
        return true;
    return false;
  }

  // The state of a signaller of `waiter`'s cell, as far as it can still signal it.
  std::string state(int core, int waiter) const {
    if (core == waiter) return "the waiting core itself: all it signalled came before its wait";
    if (const auto found = blocked_.find(core); found != blocked_.end())
      return "blocked itself at " + words_.at(model::to_string(found->second->line));
    if (const auto found = returned_.find(core); found != returned_.end())
      return "returned at step " + std::to_string(found->second) + ": it will signal nothing more";
    return "still able to move";
  }

  static constexpr std::size_t max_told = 8;  // blocked cores told one by one; the rest only in cycles

  // Whether `who`, a signaller of `waiter`'s cell, is a wait-for edge: blocked, and another core
  // (a core's own signals to its cell came before its wait: it cannot wait for itself).
  bool edge(int waiter, int who) const { return who != waiter && blocked_.count(who) != 0; }

  // The wait-for edges of a core not told one by one.
  void edges_of(int core, const model::FailureSite& site) {
    for (const model::BlockedWait& waits : site.waits)
      for (const auto& [who, signaller] : signallers(waits.semaphore_id, core)) {
        if (edge(core, who)) edges_[core].insert(who);
        if (!blocked_.count(who)) all_blocked_ = false;
      }
  }

  // A blocked core, cell by cell (a wait on any of several cells: each, "or" before the later).
  void node(int core, const model::FailureSite& site, Explanation& out) {
    for (std::size_t k = 0; k < site.waits.size(); ++k) cell_node(core, site, site.waits[k], k == 0 ? "" : "or ", out);
  }

  void cell_node(int core, const model::FailureSite& site, const model::BlockedWait& waits, const std::string& prefix,
                 Explanation& out) {
    // A cell that DMAs signal counts bytes.
    const std::string unit = dma_signalled(waits.semaphore_id, core) ? "byte" : "unit";
    out.why.push_back(prefix + words_.core(core) + " waits at " + words_.at(model::to_string(site.line)) + " on " +
                      semaphore_name(recorder_, waits.semaphore_id) + ", " +
                      cell_name(core, recorder_.cores_per_device()) + ": needs " + amount(waits.needs, unit) +
                      ", holds " + std::to_string(waits.holds));
    const auto found = signallers(waits.semaphore_id, core);
    if (found.empty()) out.why.push_back("  nobody signalled that cell in this run");
    for (const auto& [who, signaller] : found) {
      std::string lines;
      for (const std::string& line : signaller.lines) lines += (lines.empty() ? "" : ", ") + line;
      out.why.push_back("  signalled in this run by " + words_.core(who) + through(signaller) + " (" + lines + ", " +
                        amount(signaller.units, unit) + "), " + state(who, core));
      if (edge(core, who)) edges_[core].insert(who);
      if (!blocked_.count(who)) all_blocked_ = false;
    }
    if (found.empty()) all_blocked_ = false;
    std::vector<std::string> can_arrive;  // what may still add to the cell, and from whom
    for (const TracedDma& dma : recorder_.dmas()) {
      if (dma.write != no_record || dma.start == no_record || records_[dma.start].target_core != core) continue;
      const TraceRecord& start = records_[dma.start];
      const bool here =
          start.recv_semaphore_id == waits.semaphore_id;  // else it lands on another semaphore of this core
      out.why.push_back("  " + words_.dma(dma.id) + " (started by " + words_.who(start) + " " + words_.where(start) +
                        ") has not landed" + (dma.chunks.empty() ? "" : " (only " + landed_words(dma) + ")") +
                        (here ? "" : ", on another semaphore"));
      if (here) can_arrive.push_back(amount(dma.bytes - dma.landed, "byte") + " from " + model::words::dma(dma.id));
    }
    for (const auto& [who, signaller] : found)
      if (who != core && !returned_.count(who))
        can_arrive.push_back("what " + words_.core(who) + " signals " +
                             (blocked_.count(who) ? "after its own wait" : "next"));
    // Say what the wait needs and what can still arrive; with nothing, no cycle passes through
    // this core: the wait asks for more than its signallers will ever send.
    const std::string needs = amount(waits.needs, unit);
    if (can_arrive.empty() && found.empty()) {  // its signallers may not have reached their signals yet
      out.why.push_back(
          "  can still arrive: only what a core that has not reached its signal in this run sends (the "
          "wait is " +
          amount(waits.needs - waits.holds, unit) + " short)");
      return;
    }
    if (can_arrive.empty()) {
      out.why.push_back(
          "  can still arrive: nothing, from no one (no DMA into that cell is in flight and every core that "
          "signalled it " +
          std::string(found.count(core) ? "is this one or " : "") + "has returned): the wait needs " + needs + ", " +
          amount(waits.needs - waits.holds, unit) + " more than arrived; this is an over-wait, not a cycle");
      return;
    }
    std::string listed;
    for (const std::string& item : can_arrive) listed += (listed.empty() ? "" : ", or ") + item;
    out.why.push_back("  can still arrive (the wait is " + amount(waits.needs - waits.holds, unit) +
                      " short): " + listed);
  }

  // "1 unit", "4096 bytes"
  static std::string amount(std::int64_t count, const std::string& unit) {
    return std::to_string(count) + " " + unit + (count == 1 ? "" : "s");
  }
  // " through DMA 3 (fetch of in[0] ...), DMA 5" (the first three with their origins)
  std::string through(const Signaller& signaller) const {
    std::string text;
    std::size_t told = 0;
    for (int dma : signaller.dmas) {
      text += (text.empty() ? " through " : ", ") + (told++ < 3 ? words_.dma(dma) : model::words::dma(dma));
    }
    return text;
  }

  // The shortest cycle through each blocked core not yet on a printed one, smallest core first
  // (a breadth-first search over the wait-for edges).
  void cycles(Explanation& out) const {
    std::set<int> printed;
    std::size_t shown = 0;
    for (const auto& [start, site] : blocked_) {
      if (printed.count(start) || shown == max_told) continue;
      ++shown;
      const std::vector<int> cycle = shortest_cycle(start);
      if (cycle.empty()) continue;
      std::string text = "a cycle: ";
      for (int core : cycle) {
        text += words_.core(core) + " -> ";
        printed.insert(core);
      }
      out.why.push_back(text + words_.core(start) +
                        " (each waits for more from the next, which can signal again only after its own wait)");
    }
  }

  std::vector<int> shortest_cycle(int start) const {
    std::map<int, int> parent{{start, start}};
    std::vector<int> frontier{start};
    for (std::size_t at = 0; at < frontier.size(); ++at) {
      const auto found = edges_.find(frontier[at]);
      if (found == edges_.end()) continue;
      for (int next : found->second) {
        if (next == start) {
          std::vector<int> cycle;
          for (int core = frontier[at]; core != start; core = parent[core]) cycle.insert(cycle.begin(), core);
          cycle.insert(cycle.begin(), start);
          return cycle;
        }
        if (parent.emplace(next, frontier[at]).second) frontier.push_back(next);
      }
    }
    return {};
  }

  // When every blocked core stands at the same line, short of units, with every signaller blocked:
  // the wait asks for more than arrives before everyone stops.
  void shortfall(Explanation& out) const {
    std::set<std::string> lines;
    std::int64_t short_by = 0;
    for (const auto& [core, site] : blocked_) {
      if (site->waits.size() != 1) return;  // a wait on any of several cells is short of none in particular
      lines.insert(model::to_string(site->line));
      short_by = std::max(short_by, site->waits.front().needs - site->waits.front().holds);
    }
    if (lines.size() != 1 || !all_blocked_ || short_by <= 0) return;
    const auto& [core, site] = *blocked_.begin();
    const model::BlockedWait& waits = site->waits.front();
    const std::string at = words_.at(*lines.begin());
    if (dma_signalled(waits.semaphore_id, core)) {  // bytes: the wait and the copies disagree on a size
      out.fixes.push_back(
          {*lines.begin(), "the wait at " + at + " needs " + amount(waits.needs, "byte") +
                               " but the copies into that cell carry " + amount(waits.holds, "byte") +
                               " before every signaller blocks: wait for the bytes the copies move (their " +
                               "own descriptors, of their element type and shape), or copy " +
                               amount(short_by, "byte") + " more before it"});
      return;
    }
    out.fixes.push_back({*lines.begin(), "the wait at " + at + " needs " + std::to_string(waits.needs) + " but only " +
                                             std::to_string(waits.holds) +
                                             " arrive before every signaller blocks: wait for fewer, or signal " +
                                             std::to_string(short_by) + " more before it"});
  }

  void focus(Explanation& out) const {
    std::set<int> cores;
    for (const auto& [core, site] : blocked_) cores.insert(core);
    for (std::size_t i = 0; i < records_.size(); ++i)
      if (cores.count(owner(records_[i]))) out.focus.push_back(i);
  }

  const TraceRecorder& recorder_;
  const std::vector<TraceRecord>& records_;
  Phrases words_;
  std::map<int, const model::FailureSite*> blocked_;  // by global core
  std::map<int, std::uint64_t> returned_;             // global core -> step
  std::map<int, std::set<int>> edges_;                // waiter -> blocked signallers
  bool all_blocked_ = true;
};

}  // namespace

Explanation explain_deadlock(const TraceRecorder& recorder, const std::vector<model::FailureSite>& blocked) {
  return WaitForGraph(recorder, blocked).tell();
}

}  // namespace weft::sim
