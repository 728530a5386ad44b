// The config digest that tells one sweep's shards from another's: every key that can change an
// execution changes it, the seed and the watchdog do not, and one configuration reached two ways
// has one digest.

#include <catch2/catch.hpp>

#include <set>

#include "scenarios/registry.hpp"
#include "sim/request/config_digest.hpp"

namespace {

std::string digest_of(std::vector<std::string> sets, const std::string& scenario = "ring_all_gather") {
  static const auto registry = weft::scenarios::builtin_scenarios();
  weft::sim::RequestArguments arguments;
  arguments.scenario = scenario;
  arguments.sets = std::move(sets);
  return weft::sim::config_digest(weft::sim::resolve_request(arguments, registry));
}

}  // namespace

TEST_CASE("Every key that can change an execution changes the config digest", "[sim][digest]") {
  const std::string base = digest_of({});
  CHECK(base.size() == 16);
  CHECK(base == digest_of({}));
  const std::vector<std::string> changes{
      "topology.devices=8",
      "topology.mesh=[2, 2]",
      "topology.cores_per_device=2",
      "memory.uninitialized=\"zero\"",
      "memory.out_of_bounds_reads=\"uninitialized\"",
      "memory.hbm_bytes=1000000000",
      "memory.vmem_bytes=1000000",
      "memory.smem_bytes=1000",
      "memory.vmem_shared_bytes=1000000",
      "dma.execution=\"eager\"",
      "dma.chunk_bytes=1024",
      "compat.profile=\"jax\"",
      "race_detection.enabled=false",
      "race_detection.semaphore_clocks=\"accumulate\"",
      "race_detection.keep_going=true",
      "scheduler.strategy=\"pct\"",
      "scheduler.pct_depth=5",
      "scheduler.pct_steps=100",
      "scheduler.max_steps=1000",
      "scheduler.stack_bytes=131072",
      "scheduler.fiber_backend=\"boost_fiber\"",
      "params.rows=16",
  };
  std::set<std::string> digests{base};
  for (const auto& change : changes) {
    CAPTURE(change);
    CHECK(digests.insert(digest_of({change})).second);
  }
  CHECK(digest_of({}, "right_permute") != base);  // another kernel
  CHECK(digest_of({"scheduler.seed=7"}) == base);
  CHECK(digest_of({"scheduler.watchdog_seconds=3"}) == base);
  CHECK(digest_of({"topology.devices=8"}) == digest_of({"topology.mesh=[8]"}));
}
