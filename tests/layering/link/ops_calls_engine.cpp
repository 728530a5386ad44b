// A planted upward call: code of the operation table's layer that calls the engine (declared by
// hand, since no include may point up). Linked with the table's library alone, it must not link.

#include <span>
#include <string>

#include "sim/ops/table.hpp"

namespace weft::sim {
struct StandingCore;
std::string describe_blocked(std::span<const StandingCore> cores, std::span<const int> in_flight,
                             const model::Machine& machine);
}  // namespace weft::sim

namespace weft::sim::ops {

std::string planted_upward_call(const model::Machine& machine) { return describe_blocked({}, {}, machine); }

}  // namespace weft::sim::ops
