#include "scenarios/registry.hpp"

namespace weft::scenarios {

sim::ScenarioRegistry builtin_scenarios() {
  sim::ScenarioRegistry registry{right_permute(),
                                 ring_all_gather(),
                                 ring_all_reduce(),
                                 core_pipeline(),
                                 ring_all_gather_double_buffered(),
                                 dma_read_before_wait(),
                                 two_cores_one_output(),
                                 all_core_barrier(),
                                 readers(),
                                 lastzero(),
                                 shared_semaphore_sizes(),
                                 pallas_matmul(),
                                 pallas_paged_gather(),
                                 pallas_paged_blocks(),
                                 pallas_all_reduce(),
                                 pallas_inner_pipeline(),
                                 ring_all_reduce_bidirectional(),
                                 pallas_right_permute(),
                                 pallas_reduce_scatter(),
                                 pallas_ragged_matmul(),
                                 pallas_ragged_reduction(),
                                 pallas_buffered_stream(),
                                 pallas_flash_attention(),
                                 polling(),
                                 polling_flag(),
                                 scoped_copy(),
                                 torus_all_reduce()};
  for (auto part : {hostile_runtime_scenarios(), hostile_api_scenarios()})
    registry.insert(registry.end(), part.begin(), part.end());
  return registry;
}

}  // namespace weft::scenarios
