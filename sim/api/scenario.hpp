#pragma once
// A scenario: host setup, the kernel every core runs, the host's check of the outputs, named
// parameters with their defaults, and the verdict it expects. Built-in scenarios are listed by
// one explicit registry function (scenarios/registry.hpp); users may add their own.

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/verdict.hpp"
#include "scheduler/fiber/fiber_backend.hpp"
#include "sim/api/core.hpp"
#include "sim/api/host.hpp"
#include "sim/config/params.hpp"

namespace weft::sim {

struct ScenarioDefinition {
  std::string name{};
  std::string summary{};  // one line, for `weft list`
  Params params{};        // every parameter the kernel reads, with its default
  model::Verdict expect = model::Verdict::ok;
  std::function<void(Host&)> setup{};
  std::function<void(Core&)> kernel{};
  // Returns an empty string when the outputs are right, else what is wrong (first mismatch).
  std::function<std::string(const Host&)> check{};

  // --- for kernels in another language (python/) ---
  // Configuration the scenario brings with it, as `--set` assignments ("topology.devices=4"):
  // a layer above the config file and below a scenario file and the command line.
  std::vector<std::string> settings{};
  // Runs `setup` before every execution instead of once per simulation (whose outputs are then
  // restored from a copy): a setup that starts host code which the check resumes.
  bool setup_every_execution = false;
  // Makes each core's fiber instead of the configured backend: the Python binding's fibers
  // carry the interpreter's state (python/native/python_fiber.hpp) and bring their own watchdog
  // (scheduler.watchdog_seconds does not watch them).
  std::function<std::unique_ptr<scheduler::Fiber>(scheduler::StackPool&, std::function<void()>)> make_fiber{};
};

// Thrown by a setup or a check that meets what weft does not model (a Python script's host code
// using a name of jax or Pallas that weft lacks, after its program ran): weft's gap, not a verdict
// on the kernel. The command stops with exit status 2 and the message, as for a refused setup.
struct NotModelled : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

using ScenarioRegistry = std::vector<ScenarioDefinition>;

const ScenarioDefinition* find_scenario(const ScenarioRegistry& registry, std::string_view name);

}  // namespace weft::sim
