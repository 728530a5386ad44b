#pragma once
// A finding's signature: what stays the same when different seeds hit the same bug. The verdict
// and, for each place the failure points at (a racing access, a blocked wait), the kind of
// operation and its source line, sorted and without repeats: which access came first, which
// core or DMA did it, the step and the rectangle all vary with the seed; the lines do not. A
// failure that points at no operation is signed by the first source line its message names (a
// kernel_error, an out_of_bounds: "kernel_error: at hostile_api.cpp:37"), else by its verdict
// alone (a wrong_result, a semaphore_leak: their messages name cores and elements, which vary).
//
// A --keep-going sweep groups its failures by signature (FindingGroups): one report per
// signature, the others counted, in the order their first seeds were released (seed order, so
// the grouping does not depend on the number of jobs). Its JSON lines carry each failure's
// signature, `weft merge` counts them across shards, and its JUnit report has a testcase per
// signature (docs/sweeping.md).

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/engine/simulation.hpp"
#include "sim/sweep/sweep.hpp"

namespace weft::sim {

// "data_race: DMA read at ring_all_gather_double_buffered.cpp:30, DMA write at ring_all_gather_double_buffered.cpp:30"
std::string finding_signature(const ExecutionResult& result);
// The site of the place the signature names first ("DMA read at ..." before "DMA write at ..."),
// or none when it names none. The JUnit testcase's file and line.
const model::FailureSite* signature_site(const ExecutionResult& result);

class FindingGroups {
 public:
  // Counts a failure under its signature (finding_signature of its result); true when it is the
  // signature's first.
  bool add(const std::string& signature, const SeedOutcome& outcome);
  std::size_t size() const { return groups_.size(); }
  // "findings: N distinct signatures in M failures\n  COUNT x SIGNATURE\n    first seed S, shortest: seed T (K
  // steps)\n..."
  std::string summary() const;

 private:
  struct Group {
    std::string signature;
    std::uint64_t count = 0;
    std::uint64_t first_seed = 0;
    std::uint64_t shortest_seed = 0;
    std::uint64_t shortest_steps = 0;
  };
  std::vector<Group> groups_;                 // in order of first appearance
  std::map<std::string, std::size_t> index_;  // signature -> its group
  std::uint64_t failures_ = 0;
};

}  // namespace weft::sim
