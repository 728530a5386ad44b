#include "sim/ops/table.hpp"

namespace weft::sim::ops {

void footprint(const PendingOp& op, const model::Machine& machine, const OpSite& site, FootprintRules rules,
               scheduler::Footprint& footprint) {
  if (op.operation == nullptr) return;
  Table::visit(op.kind, op.operation, [&](const auto& entry) { entry.footprint(machine, site, rules, footprint); });
}

std::optional<Waiting> waiting_for(const PendingOp& op, const model::Machine& machine, const OpSite& site) {
  std::optional<Waiting> waiting;
  if (op.operation == nullptr) return waiting;
  Table::visit(op.kind, op.operation, [&](const auto& entry) {
    if constexpr (Blocking<std::remove_cvref_t<decltype(entry)>>) waiting = entry.waiting_for(machine, site);
  });
  return waiting;
}

}  // namespace weft::sim::ops
