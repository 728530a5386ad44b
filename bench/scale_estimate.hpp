#pragma once
// What the scale runs of `weft bench` (a ring all-gather on D devices x 4 cores, races on) will
// take, before they start: `--scale-devices 4096`, the largest the option takes, would need
// some 80 GB and hours, and printed nothing for as long as it lasted.
//
// Both figures were measured on this workload (docs/performance/executions.md): an execution takes 6 D
// steps per core, 24 D^2 in all; the process's peak grows with the square of the cores C = 4 D
// (race detection keeps a vector clock of C entries for every core, DMA lane and semaphore
// signal it remembers): about 285 bytes per core squared at 256, 512 and 1,024 cores. The
// estimate rounds up (300 bytes per core squared, 64 KiB per core for its stack and state).

#include <cstdint>

namespace weft::bench {

struct ScaleEstimate {
  int cores = 0;
  std::uint64_t steps = 0;  // of one execution
  std::int64_t bytes = 0;   // the process's peak while one execution runs
};

ScaleEstimate estimate_scale_run(int devices);

// Throws ConfigError (exit 2) naming --scale-devices when the large run's estimate does not fit
// in `budget_bytes` (the host memory budget), saying the estimate and the largest D that fits.
void check_scale_fits(int devices, std::int64_t budget_bytes);

}  // namespace weft::bench
