#pragma once
// What a trace is of, as its header shows it: the scenario, the machine and options, the run
// (seed or replayed schedule), the schedule string, the verdict and where the failure points.
// The CLI fills it from the request and the execution's result; the writers only print it.

#include <cstdint>
#include <string>
#include <vector>

#include "model/failure.hpp"

namespace weft::sim {

struct TraceHeader {
  std::string scenario;     // "right_permute (scenarios/right_permute.toml)"
  std::string description;  // the scenario file's description, or empty
  std::string machine;      // "4 devices (mesh 4) x 1 core, dma async"
  std::string options;      // the configuring options as typed ("--config F --set k=v"), or empty
  std::string run;          // "seed 3" or "replayed schedule"
  std::string schedule;     // the schedule string (scheduler::encode)
  std::string verdict;      // "data_race"
  std::string expected;     // the verdict the scenario expects
  std::string details;      // what happened (empty for ok)
  std::string explanation;  // why (sim/explain: a report section), or empty
  std::string reproduce;    // the command that replays this execution
  std::uint64_t steps = 0;
  // The sites are where blocked cores stand at the end (deadlock, step limit), not accesses:
  // the timelines mark them after the last step.
  bool sites_blocked = false;
  std::vector<model::FailureSite> sites;
  // From the explanation: the records of the broken chain (in causal order) and of the causal
  // view (ascending), indices into the recorder's records.
  std::vector<std::size_t> chain;
  std::vector<std::size_t> focus;
};

}  // namespace weft::sim
