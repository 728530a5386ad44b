// The explanations' happens-before graph (sim/trace/causality.hpp) against the race detector's
// vector clocks: on executions the detector passes, every two conflicting recorded accesses are
// ordered by the graph; on a race it reports, the graph leaves the pair unordered.
#include "explain_test_support.hpp"

#include "sim/trace/causality.hpp"

using namespace weft;

namespace {

bool is_access(const sim::TraceRecord& record) {
  using Kind = sim::TraceEvent::Kind;
  return record.kind == Kind::load || record.kind == Kind::store || record.kind == Kind::dma_read ||
         record.kind == Kind::dma_write;
}
bool writes(const sim::TraceRecord& record) {
  return record.kind == sim::TraceEvent::Kind::store || record.kind == sim::TraceEvent::Kind::dma_write;
}
// The buffer and rectangle an access touches.
std::pair<int, model::Rect> touched(const sim::TraceRecord& record) {
  if (record.kind == sim::TraceEvent::Kind::dma_write) return {record.target_buffer, record.target_rect};
  return {record.buffer, record.rect};
}

// How many conflicting pairs of accesses the graph leaves unordered.
int unordered_conflicts(const sim::TraceRecorder& recorder, const sim::Causality& causality) {
  const auto& records = recorder.records();
  int unordered = 0, checked = 0;
  for (std::size_t later = 0; later < records.size(); ++later) {
    if (!is_access(records[later])) continue;
    const std::vector<bool> past = causality.past({later, {}});
    for (std::size_t earlier = 0; earlier < later; ++earlier) {
      if (!is_access(records[earlier]) || (!writes(records[earlier]) && !writes(records[later]))) continue;
      const auto [a_buffer, a_rect] = touched(records[earlier]);
      const auto [b_buffer, b_rect] = touched(records[later]);
      if (a_buffer != b_buffer || !a_rect.overlaps(b_rect)) continue;
      ++checked;
      if (!past[earlier]) ++unordered;
    }
  }
  CHECK(checked > 0);
  return unordered;
}

}  // namespace

TEST_CASE("on executions without a race, the graph orders every two conflicting accesses", "[explain]") {
  for (const char* file : {"scenarios/ring_all_reduce.toml", "scenarios/ring_all_gather_double_buffered.toml",
                           "scenarios/core_pipeline.toml", "scenarios/all_core_barrier.toml"}) {
    for (const char* mode : {"async", "eager", "on_wait"}) {
      const sim::Request request = testing::scenario_request(file, {std::string("dma.execution=") + mode});
      sim::Simulation simulation(request.config, *request.scenario, request.params);
      for (std::uint64_t seed = 0; seed < 3; ++seed) {
        CAPTURE(file, mode, seed);
        sim::TraceRecorder recorder(request.config.machine.devices(), request.config.machine.cores_per_device);
        const sim::ExecutionResult result = simulation.run_seed(seed, &recorder);
        REQUIRE(result.verdict == model::Verdict::ok);
        CHECK(unordered_conflicts(recorder, sim::Causality(recorder, sim::accumulating_clocks(request.config))) == 0);
      }
    }
  }
}

TEST_CASE("on a race the detector reports, the graph leaves the pair unordered", "[explain]") {
  const sim::Request request =
      testing::scenario_request("scenarios/ring_all_gather_early_reuse_race.toml", {"race_detection.keep_going=true"});
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race);
  sim::TraceRecorder recorder(request.config.machine.devices(), request.config.machine.cores_per_device);
  REQUIRE(simulation.run_schedule(race.schedule, &recorder).verdict == model::Verdict::data_race);
  const sim::Causality causality(recorder, false);
  REQUIRE(race.sites.size() >= 2);
  for (std::size_t i = 0; i + 1 < race.sites.size(); i += 2) {
    const sim::CausalEvent earlier = causality.event_of(race.sites[i]), later = causality.event_of(race.sites[i + 1]);
    REQUIRE(earlier.record != sim::no_record);
    CHECK_FALSE(causality.past(later)[earlier.record]);
  }
  CHECK(unordered_conflicts(recorder, causality) > 0);
}
