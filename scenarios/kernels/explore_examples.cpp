// Small kernels whose interleavings are counted exactly: the yardsticks of `weft explore`.
//   readers   core 0 stores a shared scalar, every other core loads it: 2^N traces for N readers
//   lastzero  core 0 scans a[N], a[N-1], ... down to the first zero; core j sets a[j] = a[j-1] + 1
//             (N = cores - 1): 2, 5, 12, 28 traces for N = 1..4
// Both read integers that start at zero: run them with memory.uninitialized = "zero" and race
// detection off (their accesses race by design).
#include "scenarios/kernels/explore_examples.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {

void readers_body(sim::Core& core, const sim::Ref<std::int32_t>& x) {
  if (core.core_id() == 0) core.store(x, sim::Tile<std::int32_t>::Constant(1, 1, 7));
  else (void)core.load(x);
}

void lastzero_body(sim::Core& core, const sim::Ref<std::int32_t>& a) {
  const int n = core.num_cores() - 1, me = core.core_id();
  if (me == 0) {
    for (int i = n; i >= 0; --i)
      if (core.load(a.at({sim::ds(i, 1)}))(0, 0) == 0) break;
  } else {
    const auto previous = core.load(a.at({sim::ds(me - 1, 1)}));
    core.store(a.at({sim::ds(me, 1)}), previous + 1);
  }
}

sim::ScenarioDefinition readers() {
  sim::ScenarioDefinition s;
  s.name = "readers";
  s.summary = "one core stores a shared scalar, the others load it (2^N interleavings for N readers)";
  s.setup = [](sim::Host& host) { host.hbm<std::int32_t>("x", {1}); };
  s.kernel = [](sim::Core& core) { readers_body(core, core.hbm<std::int32_t>("x")); };
  return s;
}

sim::ScenarioDefinition lastzero() {
  sim::ScenarioDefinition s;
  s.name = "lastzero";
  s.summary = "core 0 scans for the last zero while core j sets a[j] = a[j-1] + 1 (the DPOR benchmark)";
  s.setup = [](sim::Host& host) {
    host.hbm<std::int32_t>("a", {host.num_cores()});
    // The benchmark's array starts at zero, whatever the uninitialized policy (under "nan" an
    // int32 starts at its maximum, and a[j-1] + 1 would overflow).
    for (int d = 0; d < host.num_devices(); ++d) host.data<std::int32_t>("a", d).setZero();
  };
  s.kernel = [](sim::Core& core) { lastzero_body(core, core.hbm<std::int32_t>("a")); };
  return s;
}

}  // namespace weft::scenarios
