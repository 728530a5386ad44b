#pragma once
// The built-in scenarios, listed explicitly (static self-registration is silently dropped by
// linkers from static libraries). Each kernel lives in its own file under kernels/.

#include "sim/api/scenario.hpp"

namespace weft::scenarios {

sim::ScenarioDefinition right_permute();
sim::ScenarioDefinition polling();
sim::ScenarioDefinition polling_flag();
sim::ScenarioDefinition scoped_copy();
sim::ScenarioDefinition ring_all_gather();
sim::ScenarioDefinition ring_all_reduce();
sim::ScenarioDefinition ring_all_reduce_bidirectional();
sim::ScenarioDefinition torus_all_reduce();
sim::ScenarioDefinition core_pipeline();
sim::ScenarioDefinition ring_all_gather_double_buffered();
sim::ScenarioDefinition dma_read_before_wait();
sim::ScenarioDefinition two_cores_one_output();
sim::ScenarioDefinition all_core_barrier();
sim::ScenarioDefinition readers();
sim::ScenarioDefinition lastzero();
sim::ScenarioDefinition shared_semaphore_sizes();
// Kernels in Pallas' shape (kernels/pallas/).
sim::ScenarioDefinition pallas_matmul();
sim::ScenarioDefinition pallas_paged_gather();
sim::ScenarioDefinition pallas_paged_blocks();
sim::ScenarioDefinition pallas_all_reduce();
sim::ScenarioDefinition pallas_inner_pipeline();
sim::ScenarioDefinition pallas_right_permute();
sim::ScenarioDefinition pallas_reduce_scatter();
sim::ScenarioDefinition pallas_ragged_matmul();
sim::ScenarioDefinition pallas_ragged_reduction();
sim::ScenarioDefinition pallas_buffered_stream();
sim::ScenarioDefinition pallas_flash_attention();
// Hostile kernels (kernels/hostile_*.cpp): each expects kernel_error.
sim::ScenarioRegistry hostile_runtime_scenarios();
sim::ScenarioRegistry hostile_api_scenarios();

// Every built-in scenario, in the order `weft list` shows them.
sim::ScenarioRegistry builtin_scenarios();

}  // namespace weft::scenarios
