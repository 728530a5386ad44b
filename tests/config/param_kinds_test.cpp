// Scenario parameters beyond integers: booleans, strings and lists (nested: a list of pairs),
// their kind fixed by the kernel's default, with file:line:column:key errors.
#include <catch2/catch.hpp>

#include "config_test_support.hpp"
#include "sim/config/scenario_file.hpp"
#include "sim/config/set_assignment.hpp"

namespace weft::sim {
namespace {

using testing::config_error_from;
using testing::TempDir;

Params kernel_params() {
  return Params{{"rows", 8},
                {"name", ParamValue::string("ring")},
                {"verbose", ParamValue::boolean(false)},
                {"pairs", ParamValue::list({ParamValue::list({0, 1})})},
                {"anything", ParamValue::list({})}};
}

}  // namespace

TEST_CASE("A scenario file sets lists, strings and booleans", "[config][params]") {
  const TempDir dir{"param_kinds"};
  const ScenarioFile scenario = read_scenario_file(dir.write("s.toml", R"(kernel = "k"
[params]
rows = true
name = "torus"
verbose = true
pairs = [[0, 5], [3, 2], [7, 1]]
anything = ["a", 1]
)"));
  Params params = kernel_params();
  apply_scenario_params(params, scenario);
  CHECK(params.at("rows") == ParamValue(1));  // an integer given as a boolean: 1
  CHECK(params.at("name").as_string() == "torus");
  CHECK(params.at("verbose").as_boolean());
  CHECK(params.at("pairs").as_integer_lists() == std::vector<std::vector<std::int64_t>>{{0, 5}, {3, 2}, {7, 1}});
  CHECK(to_toml(params.at("anything")) == "[\"a\", 1]");
}

TEST_CASE("A --set assignment takes a list, a bare word as a string, and refuses another kind", "[config][params]") {
  Config config;
  Params params = kernel_params();
  apply_set(config, params, "params.pairs=[[4, 4]]");
  apply_set(config, params, "params.name=mesh");
  CHECK(params.at("pairs").as_integer_lists() == std::vector<std::vector<std::int64_t>>{{4, 4}});
  CHECK(params.at("name").as_string() == "mesh");

  const ConfigError wrong_kind = config_error_from([&] { apply_set(config, params, "params.rows=[1, 2]"); });
  CHECK(wrong_kind.key == "params.rows");
  CHECK(wrong_kind.column == 13);
  CHECK_THAT(wrong_kind.what(), Catch::Contains("expected an integer") && Catch::Contains("[1, 2]"));

  const ConfigError wrong_element = config_error_from([&] { apply_set(config, params, "params.pairs=[[1, 2], 3]"); });
  CHECK(wrong_element.key == "params.pairs");
  CHECK_THAT(wrong_element.what(), Catch::Contains("expected a list of lists"));

  const ConfigError not_a_value = config_error_from([&] { apply_set(config, params, "params.rows=1.5"); });
  CHECK(not_a_value.key == "params.rows");
  CHECK_THAT(not_a_value.what(), Catch::Contains("an integer, a boolean, a string or an array of them"));
  CHECK(params == [] {
    Params expected = kernel_params();
    expected.at("pairs") = ParamValue::list({ParamValue::list({4, 4})});
    expected.at("name") = ParamValue::string("mesh");
    return expected;
  }());  // the refused assignments changed nothing
}

TEST_CASE("A scenario file's list of the wrong kind names its line, column and key", "[config][params]") {
  const TempDir dir{"param_kinds_error"};
  const ScenarioFile scenario = read_scenario_file(dir.write("s.toml", "kernel = \"k\"\n[params]\nname = 3\n"));
  Params params = kernel_params();
  const ConfigError error = config_error_from([&] { apply_scenario_params(params, scenario); });
  CHECK(error.line == 3);
  CHECK(error.column == 8);
  CHECK(error.key == "params.name");
  CHECK_THAT(error.what(), Catch::Contains("expected a string"));
}

TEST_CASE("A parameter read as another kind says what it is", "[config][params]") {
  const Params params = kernel_params();
  CHECK(params.at("rows").as_integer() == 8);
  CHECK_THROWS_WITH(params.at("name").as_integer(), Catch::Contains("is a string, read as an integer"));
  CHECK_THROWS_WITH(params.at("pairs").as_integers(), Catch::Contains("is a list, read as an integer"));
}

}  // namespace weft::sim
