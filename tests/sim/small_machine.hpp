#pragma once
// A machine for the tests of the engine's units that need no simulation: one row of `devices`
// devices of `cores` cores, and regular semaphores allocated on it.

#include "model/machine.hpp"

namespace weft::sim::test {

inline model::MachineSpec row_of(int devices, int cores) {
  model::MachineSpec spec;
  spec.mesh = {devices};
  spec.cores_per_device = cores;
  return spec;
}

// A regular semaphore core `by` allocates (its index in the machine's table).
inline int regular_semaphore(model::Machine& machine, model::CoreId by) {
  model::Failure failure;
  return machine.semaphores().allocate(by, 0, model::SemaphoreKind::regular, failure);
}

}  // namespace weft::sim::test
