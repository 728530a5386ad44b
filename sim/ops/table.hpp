#pragma once
// The table of visible operations (operation.hpp says what an entry is). A core's PendingOp
// names its entry by its index in `Table`; the helpers below answer the scheduler side's
// questions about any pending operation by dispatching to the entry. Adding an operation: its
// entry file, its line here, and the kernel API verb that performs it.

#include <cstdint>
#include <optional>
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

// An entry that may block has enabled().
template <class Entry>
concept Blocking = requires(const Entry& entry, const model::Machine& machine) {
  { entry.enabled(machine, 0) } -> std::same_as<bool>;
};

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

  static constexpr std::uint64_t blocking_kinds = [] {
    std::uint64_t mask = 0, bit = 1;
    ((mask |= Blocking<Entries> ? bit : 0, bit <<= 1), ...);
    return mask;
  }();
};

using Table = EntryList<Load, Store, Signal, Wait, Read, AllocateBuffer, AllocateSemaphore, DmaStart, MaskedLoad,
                        MaskedStore, Swap, BarrierArrive, BarrierLeave, ScopeEnd, LaunchEnd>;

template <class Entry>
inline constexpr std::uint8_t kind_of = Table::index_of<Entry>();

template <class Entry>
PendingOp pending(const Entry& entry, model::SourceLine line) {
  return {kind_of<Entry>, line, &entry};
}

// Whether a core standing at `op` may run now (at every step, for the cores it may concern).
inline bool enabled(const PendingOp& op, const model::Machine& machine, int global) {
  if (op.operation == nullptr) return false;
  if (((Table::blocking_kinds >> op.kind) & 1) == 0) return true;
  bool result = true;
  Table::visit(op.kind, op.operation, [&](const auto& entry) {
    if constexpr (Blocking<std::remove_cvref_t<decltype(entry)>>) result = entry.enabled(machine, global);
  });
  return result;
}

// What the operation will touch, for the explorer: added to `footprint`.
void footprint(const PendingOp& op, const model::Machine& machine, const OpSite& site, FootprintRules rules,
               scheduler::Footprint& footprint);

// What a core blocked at `op` waits for; nothing if `op` does not block.
std::optional<Waiting> waiting_for(const PendingOp& op, const model::Machine& machine, const OpSite& site);

}  // namespace weft::sim::ops
