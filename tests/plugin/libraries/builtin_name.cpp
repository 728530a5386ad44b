// A kernel library whose scenario takes the name of one of weft's built-in scenarios.
#include <weft/weft.hpp>

namespace {

weft::sim::ScenarioRegistry scenarios() {
  weft::sim::ScenarioDefinition s;
  s.name = "ring_all_reduce";
  s.summary = "a second ring_all_reduce";
  s.kernel = [](weft::sim::Core&) {};
  return {s};
}

}  // namespace

WEFT_PLUGIN(scenarios)
