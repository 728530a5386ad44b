#pragma once
// A sweep runs many seeds of one scenario on worker threads, each with its own Simulation (no
// shared mutable state but the hand-out of seeds and the ordered collection of results).
//
// Order: seeds are handed out in increasing order and results are released to the listener in
// seed order, as soon as every earlier seed of the shard has finished. Without keep_going the
// sweep stops at the first unexpected verdict *in seed order*: once seed s fails, no seed above
// s is released, and every seed below s still runs. So the set of reported failures, and the
// first one, do not depend on the number of jobs.
//
// Self-check: every unexpected verdict is run again from its seed; if the second execution
// differs (schedule, verdict or details), the kernel is not deterministic (it reads a clock, an
// address, uninitialised host memory, ...) and the failure says so, with the first step at
// which the two schedules part.

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "sim/request/request.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/sweep/shard.hpp"

namespace weft::sim {

struct SeedRange {
  std::uint64_t first = 0;
  std::uint64_t last = 0;  // inclusive
};
// A sweep counts its seeds in 64 bits, so a range may hold at most 2^64 - 1 of them: every range
// but 0..18446744073709551615, which run_sweep and shard_seed_count refuse (ConfigError).
// Parses "A..B" (both inclusive, A <= B) or a single seed "N" (sim/request/seed_text.hpp);
// throws ConfigError naming the offending text.
SeedRange parse_seed_range(const std::string& text);

struct SweepOptions {
  SeedRange seeds{};
  Shard shard{};
  int jobs = 1;
  bool keep_going = false;
  std::optional<double> time_budget_seconds{};     // stop handing out seeds after this long
  const std::atomic<bool>* interrupted = nullptr;  // set by a signal handler: stop handing out seeds
};

struct SeedOutcome {
  std::uint64_t seed = 0;
  ExecutionResult result{};
  std::string nondeterminism{};  // empty when the re-run matched
  double seconds = 0;            // the first execution's wall-clock time, for reports (the JUnit testcase's time)
};

struct SweepSummary {
  std::uint64_t planned = 0;     // seeds of this shard in the range
  std::uint64_t executions = 0;  // seeds released in order (run and reported)
  std::uint64_t failures = 0;
  std::uint64_t found = 0;  // executions that reached a found_within scenario's verdict (Request::found_within)
  std::optional<std::uint64_t> next_seed{};  // the first seed not released, when the sweep stopped early
  bool stopped_at_failure = false;           // stopped at its first failure, as asked (no keep_going)
  bool interrupted = false;
  bool out_of_time = false;
  bool allocation_failed = false;  // the host ran out of memory (std::bad_alloc) before the sweep ended
  double seconds = 0;

  // The sweep did what it was asked: it ran every planned seed, or (without keep_going) every
  // seed up to its first failure. An interrupted, out-of-time or out-of-memory sweep is not
  // complete, with failures or without.
  bool complete() const { return !next_seed || stopped_at_failure; }
};

struct SweepListener {
  std::function<void(const SeedOutcome&)> failure{};                           // in seed order
  std::function<void(std::uint64_t done, std::uint64_t failures)> progress{};  // after each release
};

// How many seeds of the range belong to the shard (ConfigError for 2^64 seeds).
std::uint64_t shard_seed_count(const SweepOptions& options);

SweepSummary run_sweep(const Request& request, const SweepOptions& options, const SweepListener& listener);

}  // namespace weft::sim
