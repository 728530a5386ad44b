#pragma once
// The table of visible operations (operation.hpp says what an entry is). A core's PendingOp
// names its entry by its index in `Table`; the helpers below answer the scheduler side's
// questions about any pending operation by dispatching to the entry, so that what an entry
// declares (its touches, its waits, its reads, its verb) is the only description of it.
// Adding an operation: its entry file, its line here, and the kernel API verb that performs it.

#include <cstdint>
#include <array>
#include <optional>
#include <string_view>
#include <type_traits>

#include "sim/ops/allocate_buffer.hpp"
#include "sim/ops/allocate_semaphore.hpp"
#include "sim/ops/barrier_arrive.hpp"
#include "sim/ops/barrier_leave.hpp"
#include "sim/ops/dma_start.hpp"
#include "sim/ops/launch_end.hpp"
#include "sim/ops/load.hpp"
#include "sim/ops/masked_load.hpp"
#include "sim/ops/masked_store.hpp"
#include "sim/ops/operation.hpp"
#include "sim/ops/read.hpp"
#include "sim/ops/scope_end.hpp"
#include "sim/ops/signal.hpp"
#include "sim/ops/store.hpp"
#include "sim/ops/swap.hpp"
#include "sim/ops/wait.hpp"

namespace weft::sim::ops {

// An entry that may block has waits(); a memory verb has touches() (and move()); a read that a
// polling loop may repeat has polls(); an entry whose effect may start DMAs says starts_dmas.
template <class Entry>
concept Blocking = requires(const Entry& entry, const model::Machine& machine) {
  { entry.waits(machine, 0) } -> std::same_as<Waits>;
};
template <class Entry>
concept MemoryVerb = requires(const Entry& entry) {
  { entry.touches() } -> std::same_as<model::SliceAccess>;
  entry.move();
};
template <class Entry>
concept Polling = requires(const Entry& entry, const OpSite& site) {
  { entry.polls(site) } -> std::same_as<PollTarget>;
};

template <class Entry>
concept StartsDmas = Entry::starts_dmas;

template <class... Entries>
struct EntryList {
  static_assert(sizeof...(Entries) < 64);
  static constexpr std::size_t size = sizeof...(Entries);

  template <class Entry>
  static constexpr std::uint8_t index_of() {
    constexpr bool same[] = {std::is_same_v<Entry, Entries>...};
    for (std::uint8_t i = 0; i < sizeof...(Entries); ++i)
      if (same[i]) return i;
    throw "not an entry of the operation table";  // a compile-time error where it is used
  }

  // Calls f(entry) with the entry `kind` names, as its own type.
  template <class F>
  static void visit(std::uint8_t kind, const void* operation, F&& f) {
    std::uint8_t i = 0;
    (void)((kind == i++ ? (f(*static_cast<const Entries*>(operation)), true) : false) || ...);
  }

  template <template <class> class Has>
  static constexpr std::uint64_t kinds_with() {
    std::uint64_t mask = 0, bit = 1;
    ((mask |= Has<Entries>::value ? bit : 0, bit <<= 1), ...);
    return mask;
  }
  template <class Entry>
  struct IsBlocking : std::bool_constant<Blocking<Entry>> {};
  template <class Entry>
  struct IsPolling : std::bool_constant<Polling<Entry>> {};
  static constexpr std::uint64_t blocking_kinds = kinds_with<IsBlocking>();
  static constexpr std::uint64_t polling_kinds = kinds_with<IsPolling>();
  static constexpr std::array<std::string_view, sizeof...(Entries)> verbs{Entries::verb...};
};

using Table = EntryList<Load, Store, Signal, Wait, Read, AllocateBuffer, AllocateSemaphore, DmaStart, MaskedLoad,
                        MaskedStore, Swap, BarrierArrive, BarrierLeave, ScopeEnd, LaunchEnd>;

template <class Entry>
inline constexpr std::uint8_t kind_of = Table::index_of<Entry>();

template <class Entry>
PendingOp pending(const Entry& entry, model::SourceLine line) {
  return {kind_of<Entry>, line, &entry};
}

// The effect of `entry`, performed at `site`: a memory verb's access (checked and recorded by
// the machine), then its data moved; any other verb's apply().
template <class Entry>
[[gnu::always_inline]] inline bool apply(Entry& entry, model::Machine& machine, const OpSite& site,
                                         model::Failure& failure) {
  if constexpr (MemoryVerb<Entry>) {
    if (!machine.access(site.core, entry.touches(), site.line, failure)) return false;
    entry.move();
    return true;
  } else {
    return entry.apply(machine, site, failure);
  }
}

// What a core blocked at `op` waits for; nothing if `op` does not block (or is none).
inline std::optional<Waits> waits(const PendingOp& op, const model::Machine& machine, int global) {
  std::optional<Waits> waits;
  if (op.operation == nullptr || ((Table::blocking_kinds >> op.kind) & 1) == 0) return waits;
  Table::visit(op.kind, op.operation, [&](const auto& entry) {
    if constexpr (Blocking<std::remove_cvref_t<decltype(entry)>>) waits = entry.waits(machine, global);
  });
  return waits;
}

// Whether a core standing at `op` may run now (at every step, for the cores it may concern:
// inlined into the engine's refresh).
[[gnu::always_inline]] inline bool enabled(const PendingOp& op, const model::Machine& machine, int global) {
  if (op.operation == nullptr) return false;
  if (((Table::blocking_kinds >> op.kind) & 1) == 0) return true;
  bool result = true;
  Table::visit(op.kind, op.operation, [&](const auto& entry) {
    if constexpr (Blocking<std::remove_cvref_t<decltype(entry)>>) result = entry.waits(machine, global).met(machine);
  });
  return result;
}

// Calls f(target) with what the read a core stands at reads, for the spin reduction; not at all
// if it stands at no such read (at every step: nothing is built for the other operations).
template <class F>
[[gnu::always_inline]] inline void visit_polls(const PendingOp& op, const OpSite& site, F&& f) {
  if (op.operation == nullptr || ((Table::polling_kinds >> op.kind) & 1) == 0) return;
  Table::visit(op.kind, op.operation, [&](const auto& entry) {
    if constexpr (Polling<std::remove_cvref_t<decltype(entry)>>) f(entry.polls(site));
  });
}
// The same as a value; nothing if it is no such read.
inline std::optional<PollTarget> polls(const PendingOp& op, const OpSite& site) {
  std::optional<PollTarget> target;
  visit_polls(op, site, [&](const PollTarget& read) { target = read; });
  return target;
}

// How messages name the operation `kind` ("loads").
inline std::string_view verb(std::uint8_t kind) { return kind < Table::size ? Table::verbs[kind] : "calls weft's API"; }

// What the operation will touch, for the explorer: added to `footprint`.
void footprint(const PendingOp& op, const model::Machine& machine, const OpSite& site, FootprintRules rules,
               scheduler::Footprint& footprint);

}  // namespace weft::sim::ops
