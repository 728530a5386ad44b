#pragma once
// The workloads weft's benchmarks measure, shared by `weft bench` (one JSON summary) and the
// Google Benchmark target `weft_benchmarks` (one benchmark per workload, for profiling).
//   operation_mix     a core loop of stores, loads, signals and waits on 4 cores (the step cost)
//   collective        a built-in collective on a 1-D ring of devices
//   explore_yardstick lastzero / readers on one device, for `weft explore`
//   long_body         many steps on few cores, for explore's cost per step as runs grow long
//   flash_attention   the Pallas flash attention port with a long kv loop, for the same

#include <cstdint>
#include <string>

#include "sim/config/config.hpp"
#include "sim/api/scenario.hpp"

namespace weft::bench {

// Every core loops `iterations` times over store, load, signal and wait on its own semaphore
// (a wait that never blocks, so every core stays enabled: the strategy always has 4 choices).
sim::ScenarioDefinition operation_mix();
sim::Config operation_mix_config(bool races, scheduler::FiberBackend backend = scheduler::FiberBackend::context);

// `devices` x `cores_per_device` cores on a 1-D ring, async DMAs.
sim::Config collective_config(int devices, int cores_per_device, bool races);

// The scale runs' ring all-gather tiles: one row of 32 f32 per core of a 4-core device.
sim::Params scale_tiles();

// One device of `cores` cores, zero-initialised memory, races off (the explorer's setting).
sim::Config explore_config(int cores);

// A long body on few cores, the shape of flash attention's kv loop: the built-in core_pipeline
// (each core streams its tiles HBM -> VMEM -> compute -> HBM through double-buffered local DMAs)
// on one device of 2 cores, f32 1x128 tiles, async DMAs, races off (the explorer's setting).
// A run's steps grow linearly with `tiles`; its interleaving classes stay few.
sim::Config long_body_config();
sim::Params long_body_params(std::int64_t tiles);
// pallas_flash_attention (scenarios/kernels/pallas/) with `kv_blocks` kv blocks of 8 rows and
// two q blocks: under long_body_config, one q block a core.
sim::Params flash_attention_params(std::int64_t kv_blocks);

// The registered scenario `name`; throws std::invalid_argument if it is not there.
const sim::ScenarioDefinition& scenario(const sim::ScenarioRegistry& registry, const std::string& name);

}  // namespace weft::bench
