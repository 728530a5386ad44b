#pragma once
// A compat profile (compat.profile, docs/configuration.md) as one policy object: each quirk of
// the reference it follows, named, read where it matters. `none` follows none of them.

#include "model/machine_spec.hpp"

namespace weft::model {

struct CompatQuirks {
  // vmem_shared is per core, as the interpreter allocates it (model/memory.hpp).
  bool shared_scratch_per_core = false;
  // A signal that names no core signals core 0 of the target device (sim/api/core.cpp).
  bool signal_defaults_to_core_0 = false;
  // Race detection joins a semaphore cell's whole clock at a wait, whatever the clocks
  // setting (sim/engine/simulation.cpp, sim/explain/explain.cpp).
  bool accumulating_clocks = false;
  // on_wait runs, for each blocked cell, only the newest DMA that fills it (sim/engine/dma_policy.hpp).
  bool on_wait_newest_only = false;
  // A Pallas output block revisited and not read back is a kernel_error, as interpret mode
  // refuses it (sim/pallas/pipeline.cpp).
  bool refuses_revisited_output = false;
};

constexpr CompatQuirks quirks_of(CompatProfile profile) {
  if (profile == CompatProfile::none) return {};
  return {true, true, true, true, true};
}

}  // namespace weft::model
