#include "sim/ops/table.hpp"

namespace weft::sim::ops {

scheduler::Footprint footprint(const PendingOp& op, const model::Machine& machine, const OpSite& site,
                               FootprintRules rules) {
  scheduler::Footprint footprint;
  if (op.operation == nullptr) return footprint;
  Table::visit(op.kind, op.operation, [&](const auto& entry) { entry.footprint(machine, site, rules, footprint); });
  return footprint;
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
