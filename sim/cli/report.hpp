#pragma once
// The report of one execution as a kernel author reads it: scenario (and its description),
// machine, verdict against the expected one, what happened, why (the explanation), and the
// exact commands that reproduce it (by seed when the execution came from one, and always by
// schedule string).

#include <cstdint>
#include <optional>
#include <string>

#include "sim/engine/simulation.hpp"
#include "sim/explain/explanation.hpp"
#include "sim/request/request.hpp"

namespace weft::sim {

// `schedule_word`: the execution's schedule as the word after --schedule (ScheduleArgument);
// `explanation` (sim/explain/explain.hpp) follows what happened, when there is one.
std::string format_report(const Request& request, const ExecutionResult& result, const std::string& program,
                          std::optional<std::uint64_t> seed, const std::string& schedule_word,
                          const Explanation& explanation = {});

// "4 devices (mesh 4) x 1 core, dma async" (and ", compat jax").
std::string describe_machine(const Config& config);

// "weft replay SCENARIO ... --seed N" and "... --schedule S" (S: the string or @FILE, schedule_argument.hpp).
std::string replay_by_seed(const Request& request, const std::string& program, std::uint64_t seed);
std::string replay_by_schedule(const Request& request, const std::string& program, const std::string& schedule_word);

}  // namespace weft::sim
