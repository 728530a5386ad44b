// The HTML timeline (--html) and the CLI around the trace options. The browser test
// (tests/browser/timeline_test.sh) loads the page in chromium; these check the file itself.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sim/events/trace_event.hpp"
#include "trace_test_support.hpp"

using weft::testing::racing_seed;
using weft::testing::run_weft;
using weft::testing::trace_path;
using weft::testing::traced_run;

namespace {

// The page's data (html_data.cpp), parsed back.
nlohmann::json page_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"weft-data\">";
  const auto from = html.find(open);
  REQUIRE(from != std::string::npos);
  const auto to = html.find("</script>", from);
  std::string text = html.substr(from + open.size(), to - from - open.size());
  for (auto at = text.find("<\\/"); at != std::string::npos; at = text.find("<\\/", at)) text.replace(at, 3, "</");
  return nlohmann::json::parse(text);
}

// An asset of sim/trace/assets/ as the build embeds it: without its leading comment block (the
// lines that start with "//" in a script, the first "/* ... */" of the style sheet).
std::string embedded_asset(const std::string& name) {
  std::string text = weft::testing::file_text(std::string(WEFT_SOURCE_DIR) + "/sim/trace/assets/" + name);
  REQUIRE_FALSE(text.empty());
  if (text.rfind("/*", 0) == 0) return text.substr(text.find("*/\n") + 3);
  std::size_t from = 0;
  while (text.compare(from, 2, "//") == 0) from = text.find('\n', from) + 1;
  return text.substr(from);
}

}  // namespace

TEST_CASE("the HTML timeline of a race is self-contained, complete and byte-identical for one seed", "[trace]") {
  const std::string seed = racing_seed();
  const std::vector<std::string> args{"scenarios/ring_all_gather_early_reuse_race.toml", "--seed", seed};
  const std::string html = traced_run(args, "--html", "race_a.html");
  CHECK(traced_run(args, "--html", "race_b.html") == html);

  CHECK(html.find("http") == std::string::npos);  // nothing fetched: no URL at all
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find(" src=") == std::string::npos);
  CHECK(html.find("@import") == std::string::npos);
  CHECK(html.find("<td id=\"seed\">seed " + seed + ",") != std::string::npos);
  CHECK(html.find("id=\"schedule\"") != std::string::npos);
  CHECK(html.find("<b>data_race</b> (expected data_race: as expected)") != std::string::npos);
  CHECK(html.find("<p id=\"description\">double-buffered ring all-gather") != std::string::npos);
  CHECK(html.find("<pre id=\"explanation\">why they are unordered:") != std::string::npos);
  CHECK(html.find("id=\"causal-view\"") != std::string::npos);

  const nlohmann::json data = page_data(html);
  std::size_t core_lanes = 0;
  for (const auto& lane : data["lanes"]) core_lanes += lane[1] == 0 ? 1 : 0;
  CHECK(core_lanes == 8);
  CHECK(data["lanes"].size() >= 16);  // a core and a DMA lane per device at least
  REQUIRE(data["marks"].size() == 2);
  CHECK(data["marks"][0]["site"] == 0);
  CHECK(data["marks"][1]["site"] == 1);
  CHECK(data["wakes"].size() > 0);
  CHECK(data["landings"].size() > 0);
  const std::size_t records = data["records"]["kind"].size();
  for (const char* column :
       {"lane", "offset", "width", "stepDelta", "core", "line", "buffer", "semaphore", "count", "dma"})
    CHECK(data["records"][column].size() == records);
  // The causal view: the causal past of the two accesses, not the whole run; the chain inside it.
  CHECK(data["focus"].size() > 0);
  CHECK(data["focus"].size() < records);
  REQUIRE(data["chain"].size() >= 2);
  for (const auto& record : data["chain"]) {
    bool in_focus = false;
    for (const auto& focused : data["focus"]) in_focus = in_focus || focused == record;
    CHECK(in_focus);
  }
}

TEST_CASE("the HTML timeline carries the style and script of sim/trace/assets as they are", "[trace]") {
  const std::string html = traced_run({"right_permute", "--seed", "0"}, "--html", "assets.html");
  CHECK(html.find("<style>\n" + embedded_asset("timeline.css") + "</style>\n") != std::string::npos);
  CHECK(html.find("<script>\n" + embedded_asset("timeline_view.js") + embedded_asset("timeline_controls.js") +
                  "</script>\n") != std::string::npos);
}

TEST_CASE("trace options leave the report unchanged, --trace-text - prints the listing after it", "[trace]") {
  const auto plain = run_weft({"run", "scenarios/right_permute.toml", "--seed", "2"});
  CHECK(plain.out.find("weft trace") == std::string::npos);
  const auto traced = run_weft({"run", "scenarios/right_permute.toml", "--seed", "2", "--trace",
                                trace_path("report.json"), "--html", trace_path("report.html")});
  CHECK(traced.out == plain.out);
  const auto listed = run_weft({"run", "scenarios/right_permute.toml", "--seed", "2", "--trace-text", "-"});
  REQUIRE(listed.out.size() > plain.out.size());
  CHECK(listed.out.substr(0, plain.out.size()) == plain.out);
  CHECK(listed.out.substr(plain.out.size(), 12) == "\nweft trace\n");

  const auto replayed = run_weft({"replay", "scenarios/right_permute.toml", "--seed", "2", "--trace-text", "-"});
  CHECK(replayed.out.find("weft trace") != std::string::npos);
}

TEST_CASE("a trace file that cannot be written is a usage error", "[trace]") {
  const auto result = run_weft({"run", "right_permute", "--trace", "/nonexistent-folder/t.json"});
  CHECK(result.status == 2);
  CHECK(result.err.find("/nonexistent-folder/t.json") != std::string::npos);
}

TEST_CASE("timelines name the Pallas pipeline's DMAs by operand, grid point, block and BlockSpec", "[trace]") {
  const std::vector<std::string> args{"scenarios/pallas_matmul.toml", "--seed", "0"};
  const std::string html = traced_run(args, "--html", "pallas.html");
  // The page's data carries each DMA's origin (its script puts it in the DMA's title).
  CHECK(html.find("\"fetch of in[0] 'x' for grid point (0, 0, 0), block (0, 0) (BlockSpec at matmul.cpp:") !=
        std::string::npos);
  CHECK(html.find("\"fetch of in[1] 'y' for grid point (0, 0, 1), block (1, 0) (BlockSpec at matmul.cpp:") !=
        std::string::npos);
  CHECK(html.find("\"write-back of out[0] 'z' for grid point (1, 0, 1), block (1, 0) (BlockSpec at matmul.cpp:") !=
        std::string::npos);
  CHECK(html.find("R.origin[r]") != std::string::npos);
  const auto listed = run_weft({"run", "scenarios/pallas_matmul.toml", "--seed", "0", "--trace-text", "-"});
  CHECK(listed.out.find(
            "start DMA 0 (fetch of in[0] 'x' for grid point (0, 0, 0), block (0, 0) (BlockSpec at matmul.cpp:") !=
        std::string::npos);
}

// The page draws in half steps; an eager DMA's write chunks share half a step, so their boxes
// arrive as fractions of one, side by side after the read's half.
TEST_CASE("the HTML timeline draws an eager DMA's chunks side by side in the write's half step", "[trace]") {
  const std::vector<std::string> args{"dma_read_before_wait",
                                      "--set",
                                      "topology.devices=1",
                                      "--set",
                                      "dma.execution=eager",
                                      "--set",
                                      "dma.chunk_bytes=1024",
                                      "--seed",
                                      "3"};
  const nlohmann::json data = page_data(traced_run(args, "--html", "eager_chunks.html"));
  const auto& records = data["records"];
  std::vector<double> write_offsets;
  for (std::size_t i = 0; i < records["kind"].size(); ++i) {
    if (records["kind"][i] != static_cast<int>(weft::sim::TraceEvent::Kind::dma_write)) continue;
    CHECK(records["width"][i].get<double>() == 0.25);  // a quarter of the write's half step
    write_offsets.push_back(records["offset"][i].get<double>());
  }
  CHECK(write_offsets == std::vector<double>{1.0, 1.25, 1.5, 1.75});
}
