// A planted upward call: code of the kernel API's layer that calls the engine (declared by hand,
// since no include may point up). Linked with the API's library alone, it must not link.

#include <string>

#include "sim/api/core.hpp"

namespace weft::scheduler {
struct Fault;
}  // namespace weft::scheduler

namespace weft::sim {

std::string fault_text(const scheduler::Fault& fault);

std::string planted_upward_call(const scheduler::Fault& fault) { return fault_text(fault); }

}  // namespace weft::sim
