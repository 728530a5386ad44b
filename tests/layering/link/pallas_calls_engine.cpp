// A planted upward call: code of the Pallas library's layer that calls the engine (declared by
// hand, since no include may point up). Linked with the Pallas library alone, it must not link.

#include "sim/pallas/pallas_call.hpp"

namespace weft::sim {
model::Failure watchdog_failure(model::CoreId core, double watchdog_seconds, model::SourceLine last);
}  // namespace weft::sim

namespace weft::sim::pallas {

model::Failure planted_upward_call(model::CoreId core) { return watchdog_failure(core, 1.0, {}); }

}  // namespace weft::sim::pallas
