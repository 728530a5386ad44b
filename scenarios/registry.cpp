#include "scenarios/registry.hpp"

namespace weft::scenarios {

sim::ScenarioRegistry builtin_scenarios() {
  return {right_permute(),           ring_all_gather(),      ring_all_reduce(),     core_pipeline(),
          ring_all_gather_double_buffered(), dma_read_before_wait(), two_cores_one_output(), all_core_barrier(),
          readers(),       lastzero()};
}

}  // namespace weft::scenarios
