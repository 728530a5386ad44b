// The Chrome trace (--trace F.json): it parses, spans nest on every track, no two operations
// overlap on one track, every flow has both ends inside slices, the failure is marked, and one
// seed gives byte-identical files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "trace_test_support.hpp"

using nlohmann::json;
using weft::testing::racing_seed;
using weft::testing::traced_run;

namespace {

using Track = std::pair<std::int64_t, std::int64_t>;  // pid, tid

struct Interval {
  double begin, end;
  bool operation;  // an X slice (else a B/E span)
};

Track track_of(const json& event) { return {event.at("pid").get<std::int64_t>(), event.value("tid", std::int64_t{0})}; }

// Every B has its E on its track; on each track all slices form a laminar family and no
// operation (X) lies inside another. Returns the intervals per track for the flow checks.
std::map<Track, std::vector<Interval>> check_nesting(const json& events) {
  std::map<Track, std::vector<Interval>> tracks;
  std::map<Track, std::vector<double>> open;
  for (const json& event : events) {
    const std::string phase = event.at("ph");
    if (phase == "B") open[track_of(event)].push_back(event.at("ts").get<double>());
    if (phase == "E") {
      auto& stack = open[track_of(event)];
      REQUIRE_FALSE(stack.empty());
      const double begin = stack.back();
      stack.pop_back();
      REQUIRE(event.at("ts").get<double>() >= begin);
      tracks[track_of(event)].push_back({begin, event.at("ts").get<double>(), false});
    }
    if (phase == "X") {
      const double ts = event.at("ts").get<double>(), duration = event.at("dur").get<double>();
      REQUIRE(duration > 0);
      tracks[track_of(event)].push_back({ts, ts + duration, true});
    }
  }
  for (const auto& [track, stack] : open) CHECK(stack.empty());
  for (auto& [track, intervals] : tracks) {
    std::vector<Interval> sorted = intervals;
    std::sort(sorted.begin(), sorted.end(), [](const Interval& a, const Interval& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
    });
    std::vector<Interval> stack;
    for (const Interval& interval : sorted) {
      while (!stack.empty() && stack.back().end <= interval.begin) stack.pop_back();
      if (!stack.empty()) {
        CAPTURE(track.first, track.second, interval.begin, interval.end, stack.back().begin, stack.back().end);
        CHECK(interval.end <= stack.back().end);
        CHECK_FALSE((interval.operation && stack.back().operation));
      }
      stack.push_back(interval);
    }
  }
  return tracks;
}

bool inside_a_slice(const std::vector<Interval>& intervals, double ts) {
  return std::any_of(intervals.begin(), intervals.end(),
                     [&](const Interval& i) { return i.begin <= ts && ts < i.end; });
}

// Each flow id has one start and one end, not before it, each inside a slice of its track.
std::size_t check_flows(const json& events, const std::map<Track, std::vector<Interval>>& tracks) {
  std::map<std::int64_t, std::vector<json>> flows;
  for (const json& event : events)
    if (event.at("ph") == "s" || event.at("ph") == "f") flows[event.at("id").get<std::int64_t>()].push_back(event);
  for (const auto& [id, ends] : flows) {
    CAPTURE(id);
    REQUIRE(ends.size() == 2);
    const json& start = ends[0].at("ph") == "s" ? ends[0] : ends[1];
    const json& finish = ends[0].at("ph") == "f" ? ends[0] : ends[1];
    REQUIRE(start.at("ph") == "s");
    REQUIRE(finish.at("ph") == "f");
    CHECK(start.at("ts").get<double>() <= finish.at("ts").get<double>());
    for (const json* end : {&start, &finish}) {
      const auto found = tracks.find(track_of(*end));
      REQUIRE(found != tracks.end());
      CHECK(inside_a_slice(found->second, end->at("ts").get<double>()));
    }
  }
  return flows.size();
}

std::size_t count(const json& events, const std::string& phase, const std::string& category = "") {
  return static_cast<std::size_t>(std::count_if(events.begin(), events.end(), [&](const json& event) {
    return event.at("ph") == phase && (category.empty() || event.value("cat", "") == category);
  }));
}

}  // namespace

TEST_CASE("the Chrome trace of a real race parses, nests, flows, marks both accesses and repeats byte for byte",
          "[trace]") {
  const std::string seed = racing_seed();
  CAPTURE(seed);
  const std::vector<std::string> args{"scenarios/ring_all_gather_early_reuse_race.toml", "--seed", seed};
  const std::string text = traced_run(args, "--trace", "race_a.json");
  CHECK(traced_run(args, "--trace", "race_b.json") == text);

  const json trace = json::parse(text);
  const json& events = trace.at("traceEvents");
  CHECK(trace.at("otherData").at("verdict") == "data_race");
  CHECK(trace.at("otherData").at("run") == "seed " + seed);
  const auto tracks = check_nesting(events);
  CHECK(check_flows(events, tracks) > 0);
  CHECK(count(events, "f", "wake") > 0);
  CHECK(count(events, "f", "dma") > 0);
  CHECK(count(events, "C") > 0);
  CHECK(count(events, "i", "failure") == 3);  // both racing accesses, and the global verdict
  std::size_t devices = 0;
  for (const json& event : events) devices += event.at("ph") == "M" && event.at("name") == "process_name";
  CHECK(devices == 8);
}

TEST_CASE("Chrome traces nest in every DMA mode, and a deadlock marks each blocked wait", "[trace]") {
  for (const std::string mode : {"eager", "on_wait", "async"}) {
    CAPTURE(mode);
    const json events =
        json::parse(traced_run({"scenarios/right_permute.toml", "--seed", "3", "--set", "dma.execution=" + mode},
                               "--trace", "permute_" + mode + ".json"))
            .at("traceEvents");
    check_flows(events, check_nesting(events));
    CHECK(count(events, "B", "dma") == 4);  // one span per DMA
    CHECK(count(events, "X", "dma_read") == 4);
    CHECK(count(events, "X", "dma_write") == 4);
  }
  const json events =
      json::parse(traced_run({"scenarios/barrier_deadlock.toml", "--seed", "5"}, "--trace", "deadlock.json"))
          .at("traceEvents");
  check_flows(events, check_nesting(events));
  CHECK(count(events, "i", "failure") == 5);  // four blocked waits and the verdict
  CHECK(count(events, "X", "failure") == 4);  // each shown as a "blocked" slice at the end
}
