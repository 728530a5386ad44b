#include "sim/cli/report.hpp"

#include "scheduler/strategies/portfolio.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

std::string_view mode_name(model::DmaExecution mode) {
  switch (mode) {
    case model::DmaExecution::eager:
      return "eager";
    case model::DmaExecution::on_wait:
      return "on_wait";
    case model::DmaExecution::async:
      return "async";
  }
  return "?";
}

std::string indent(const std::string& text) {
  std::string out = "  ";
  for (char c : text) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out;
}

// The program as a shell command: quoted where needed, but a Python module's form ("python3 -m
// weft", as the Python package's CLI names itself) stays three words.
std::string program_command(const std::string& program) {
  const auto module = program.rfind(" -m ");
  if (module != std::string::npos && program.find(' ', module + 4) == std::string::npos)
    return shell_quote(program.substr(0, module)) + program.substr(module);
  return shell_quote(program);
}

}  // namespace

std::string describe_machine(const Config& config) {
  const auto& machine = config.machine;
  std::string mesh;
  for (int extent : machine.mesh) mesh += (mesh.empty() ? "" : "x") + std::to_string(extent);
  return std::to_string(machine.devices()) + (machine.devices() == 1 ? " device" : " devices") + " (mesh " + mesh +
         ") x " + std::to_string(machine.cores_per_device) + (machine.cores_per_device == 1 ? " core" : " cores") +
         ", dma " + std::string(mode_name(machine.dma_execution)) +
         (machine.dma_chunk_bytes > 0 ? " in chunks of " + std::to_string(machine.dma_chunk_bytes) + " bytes" : "") +
         (machine.compat == model::CompatProfile::jax ? ", compat jax" : "");
}

std::string replay_by_seed(const Request& request, const std::string& program, std::uint64_t seed) {
  return program_command(program) + " replay " + request_options(request.arguments) + " --seed " + std::to_string(seed);
}

std::string replay_by_schedule(const Request& request, const std::string& program, const std::string& schedule_word) {
  return program_command(program) + " replay " + request_options(request.arguments) + " --schedule " + schedule_word;
}

std::string format_report(const Request& request, const ExecutionResult& result, const std::string& program,
                          std::optional<std::uint64_t> seed, const std::string& schedule_word,
                          const Explanation& explanation) {
  const bool expected = request.accepts(result.verdict);
  std::string text;
  text += "scenario: " + request.scenario->name;
  if (request.arguments.scenario != request.scenario->name) text += " (" + request.arguments.scenario + ")";
  if (!request.description.empty()) text += "\nabout:    " + control_escaped(request.description, true);
  text += "\nmachine:  " + describe_machine(request.config);
  text += "\nrun:      " + (seed ? "seed " + std::to_string(*seed) : std::string("replayed schedule"));
  if (seed && request.config.scheduler.strategy == "portfolio")
    text += " (portfolio member: " + scheduler::to_string(scheduler::portfolio_member(*seed)) + ")";
  text += ", " + std::to_string(result.steps) + " steps";
  const std::string within =
      request.found_within ? " within " + std::to_string(*request.found_within) + " seeds, or ok" : std::string();
  text += "\nverdict:  " + std::string(model::to_string(result.verdict)) + " (expected " +
          std::string(model::to_string(request.expect)) + within + (expected ? ": as expected)" : ": NOT as expected)");
  if (!result.details.empty()) text += "\nwhat happened:\n" + indent(result.details);
  if (!explanation.empty()) {
    std::string why = format_explanation(explanation);
    why.pop_back();  // its last newline: the report adds its own
    text += "\n" + why;
  }
  if (result.verdict != model::Verdict::ok || !expected) {
    text += "\nreproduce:";
    if (seed) text += "\n  " + replay_by_seed(request, program, *seed);
    text += "\n  " + replay_by_schedule(request, program, schedule_word);
  }
  return text + "\n";
}

}  // namespace weft::sim
