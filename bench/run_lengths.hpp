#pragma once
// `weft bench`'s figures of explore's cost per step against a plain execution's as a run grows
// long: the long-body workload (workloads.hpp: many steps on 2 cores, the shape of flash
// attention's kv loop) at runs of about 100, 1,000, 10,000 and 100,000 steps. The target
// (docs/performance/explorer.md): at every length, explore's ns per step at most 4 times the plain
// execution's, so that what a run costs under explore is linear in its length.
//
// Each length is measured in this one process, the plain executions (seeded random schedules,
// the same configuration) right before the exploration, so their ratio is the figure to read.
// The exploration is bounded by runs (--max-executions) and repeated until it has taken about as
// many steps as the plain executions: every run it makes is analysed whole, so a bound cuts the
// space, not the work per step. Each side is warmed up untimed the same way: plain() runs seed 0,
// explored() an exploration of one run (the process's first long run otherwise pays for pages the
// allocator has not handed out yet, tens of megabytes at 100,000 steps).

#include <cstdint>

#include <nlohmann/json.hpp>

#include "sim/api/scenario.hpp"

namespace weft::bench {

// Adds, for each length L (100, 1000, 10000, 100000):
//   long_body_L_steps                      the steps of one run (as close to L as whole tiles get)
//   long_body_L_ns_per_step                plain executions
//   explore_long_body_L_ns_per_step        explore, its race analysis included
//   explore_long_body_L_over_plain         the ratio (target: at most 4)
//   many_launches_steps, many_launches_ns_per_step, explore_many_launches_ns_per_step,
//   explore_many_launches_over_plain: the same kernel with 4 tiles a launch, as a program of
//   `launches` launches (config program.launches), the many-launch shape
//   flash_attention_128_steps, ..., explore_flash_attention_128_over_plain: the same four for
//   pallas_flash_attention with 128 kv blocks a q block (workloads.hpp)
// `steps_per_length`: how many steps each measurement takes, at least one run's; an exploration
// stops early after the first run that ends past `max_seconds`.
void run_length_figures(const sim::ScenarioRegistry& registry, std::uint64_t steps_per_length, int launches,
                        double max_seconds, nlohmann::ordered_json& out);

}  // namespace weft::bench
