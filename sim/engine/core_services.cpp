// The engine's side of the kernel API (sim/api/core_services.hpp): a performer for each kind of
// the operation table, which performs the entry a core's verb made as its own type, so that the
// entry's perform (execution.hpp) is inlined into it.

#include <array>

#include "sim/engine/execution.hpp"

namespace weft::sim {
namespace {

template <class Entry>
void perform_as(CoreServices& services, int global, void* entry, model::SourceLine line) {
  static_cast<Execution&>(services).perform(global, *static_cast<Entry*>(entry), line);
}

template <class... Entries>
constexpr std::array<CoreServices::Performer, sizeof...(Entries)> performers_of(const ops::EntryList<Entries...>*) {
  return {&perform_as<Entries>...};
}

}  // namespace

const CoreServices::Performer* Execution::performers() {
  static constexpr auto table = performers_of(static_cast<const ops::Table*>(nullptr));  // in ops::Table's order
  return table.data();
}

}  // namespace weft::sim
