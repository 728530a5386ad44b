// `weft bench --quick` runs every workload of the summary and prints one JSON object with every
// figure (the figures themselves are not asserted: timing targets live in the bench, not in tests).
#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace {

std::string output_of(const std::string& command, int& status) {
  std::string text;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> chunk{};
  for (std::size_t read; (read = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0;) text.append(chunk.data(), read);
  status = pclose(pipe);
  return text;
}

}  // namespace

TEST_CASE("weft bench --quick prints every figure as one JSON object", "[cli][bench]") {
  int status = -1;
  const std::string text = output_of(std::string(WEFT_BINARY) + " bench --quick", status);
  REQUIRE(status == 0);
  const auto figures = nlohmann::json::parse(text);
  for (const char* key : {"switch_ns",
                          "step_ns",
                          "step_ns_races",
                          "step_ns_over_switch_ns",
                          "step_ns_races_over_step_ns",
                          "step_ns_boost_fiber",
                          "step_ns_boost_fiber_over_step_ns",
                          "ring_all_gather_8_executions_per_s",
                          "ring_all_reduce_8_executions_per_s",
                          "races_off_over_races_on",
                          "explore_lastzero4_runs_per_s",
                          "explore_lastzero4_runs_per_trace",
                          "sweep_jobs1_executions_per_s",
                          "sweep_jobs2_executions_per_s",
                          "sweep_jobs2_over_jobs1",
                          "explore_jobs1_runs_per_s",
                          "explore_jobs2_runs_per_s",
                          "explore_jobs2_over_jobs1",
                          "scale_large_ns_per_step",
                          "scale_small_ns_per_step",
                          "scale_large_over_small_ns_per_step",
                          "peak_bytes_per_core",
                          "long_body_100_ns_per_step",
                          "explore_long_body_100_ns_per_step",
                          "explore_long_body_100_over_plain",
                          "long_body_100000_steps",
                          "explore_long_body_100000_over_plain",
                          "many_launches_steps",
                          "explore_many_launches_over_plain",
                          "flash_attention_128_steps",
                          "explore_flash_attention_128_over_plain"}) {
    CAPTURE(key);
    REQUIRE(figures.contains(key));
    CHECK(figures[key].get<double>() > 0);
  }
  // The explorer's rate is exact whatever the machine: lastzero(4) has 28 classes and 28 runs.
  CHECK(figures["explore_lastzero4_runs_per_trace"].get<double>() == 1.0);
  CHECK(figures["scale_large_verdict"] == "ok");
  CHECK(figures["scale_large_cores"].get<int>() == 16 * figures["scale_small_cores"].get<int>());
}
