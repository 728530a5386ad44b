// A kernel reads parameters of every kind; one read as the wrong kind is a kernel_error that
// names the parameter, its kind and the kernel's line.
#include <catch2/catch.hpp>

#include "sim/engine/simulation.hpp"

using namespace weft;

namespace {

sim::ScenarioDefinition reading(bool wrong_kind) {
  sim::ScenarioDefinition s;
  s.name = "param_kinds";
  s.params = {{"pairs", sim::ParamValue::list({sim::ParamValue::list({1, 2}), sim::ParamValue::list({3, 4})})},
              {"name", sim::ParamValue::string("ring")},
              {"wrong", wrong_kind ? 1 : 0}};
  s.setup = [](sim::Host& host) { host.hbm<std::int32_t>("sum", {1}); };
  s.kernel = [](sim::Core& core) {
    if (core.param("wrong") != 0) (void)core.param("pairs");
    std::int64_t total = static_cast<std::int64_t>(core.param_value("name").as_string().size());
    for (const auto& pair : core.param_value("pairs").as_integer_lists()) total += pair[0] * pair[1];
    core.store(core.hbm<std::int32_t>("sum"),
               sim::Tile<std::int32_t>::Constant(1, 1, static_cast<std::int32_t>(total)));
  };
  s.check = [](const sim::Host& host) -> std::string {
    return host.data<std::int32_t>("sum", 0)[0] == 4 + 1 * 2 + 3 * 4 ? "" : "wrong sum";
  };
  return s;
}

}  // namespace

TEST_CASE("A kernel reads list and string parameters", "[sim][params]") {
  const auto scenario = reading(false);
  sim::Simulation simulation(sim::Config{}, scenario, scenario.params);
  const auto result = simulation.run_seed(0);
  INFO(result.details);
  CHECK(result.verdict == model::Verdict::ok);
}

TEST_CASE("A list parameter read as an integer is a kernel_error naming the line", "[sim][params]") {
  const auto scenario = reading(true);
  sim::Simulation simulation(sim::Config{}, scenario, scenario.params);
  const auto result = simulation.run_seed(0);
  CHECK(result.verdict == model::Verdict::kernel_error);
  CHECK_THAT(result.details,
             Catch::Contains("reads parameter 'pairs' as an integer at param_kinds_kernel_test.cpp:19") &&
                 Catch::Contains("it is a list: [[1, 2], [3, 4]]"));
}
