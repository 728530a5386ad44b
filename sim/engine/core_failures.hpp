#pragma once
// The findings about a core whose kernel ended without returning: a stack overflow (its fiber
// ran into the guard page, or had too little stack left at a visible operation), a run that
// the watchdog interrupted, a fault its own code raised, and a kernel that swallowed weft's
// teardown. Each names the core
// and where it last stood.

#include <cstddef>
#include <string>

#include "model/failure.hpp"
#include "model/topology.hpp"
#include "scheduler/fiber/fiber.hpp"

namespace weft::sim {

// `last`: the core's last visible operation (file empty when it had none yet).
model::Failure stack_overflow_failure(model::CoreId core, std::size_t stack_bytes, model::SourceLine last);
model::Failure stack_exhausted_failure(model::CoreId core, std::size_t stack_bytes, std::size_t headroom_bytes,
                                       model::SourceLine at);
// `fault`: what the kernel raised (sim/engine/fault_text.hpp words it).
model::Failure fault_failure(model::CoreId core, const scheduler::Fault& fault, model::SourceLine last);
model::Failure watchdog_failure(model::CoreId core, double watchdog_seconds, model::SourceLine last);
// `went_on_at`: the visible operation it went on to after catching (file empty: it returned).
std::string swallowed_teardown(model::CoreId core, model::SourceLine went_on_at);

}  // namespace weft::sim
