#include "scenarios/registry.hpp"

namespace weft::scenarios {

sim::ScenarioRegistry builtin_scenarios() {
  return {right_permute(), ring_all_gather(), ring_all_reduce(), core_pipeline()};
}

}  // namespace weft::scenarios
