#include "sim/ops/table.hpp"

namespace weft::sim::ops {

void footprint(const PendingOp& op, const model::Machine& machine, const OpSite& site, FootprintRules rules,
               scheduler::Footprint& footprint) {
  if (op.operation == nullptr) return;
  Table::visit(op.kind, op.operation, [&](const auto& entry) {
    if constexpr (MemoryVerb<std::remove_cvref_t<decltype(entry)>>) {
      const model::SliceAccess touched = entry.touches();
      const auto mode = touched.is_write ? scheduler::TouchMode::write : scheduler::TouchMode::read;
      for (const model::Rect& part : touched.parts) footprint.touches.push_back(access(touched.slice, part, mode));
    } else {
      entry.footprint(machine, site, rules, footprint);
    }
  });
}

}  // namespace weft::sim::ops
