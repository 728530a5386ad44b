// The HTML timeline (--html) and the CLI around the trace options. The browser test
// (tests/browser/timeline_test.sh) loads the page in chromium; these check the file itself.
#include <catch2/catch.hpp>

#include "trace_test_support.hpp"

using weft::testing::racing_seed;
using weft::testing::run_weft;
using weft::testing::trace_path;
using weft::testing::traced_run;

namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t found = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++found;
  return found;
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
  CHECK(occurrences(html, "class=\"lane lane-core\"") == 8);
  CHECK(occurrences(html, "class=\"lane-label\"") >= 16);  // a core and a DMA lane per device at least
  CHECK(html.find("id=\"mark-0\"") != std::string::npos);
  CHECK(html.find("id=\"mark-1\"") != std::string::npos);
  CHECK(occurrences(html, "class=\"wake\"") > 0);
  CHECK(occurrences(html, "class=\"dma-arrow\"") > 0);
  CHECK(html.find("<td id=\"seed\">seed " + seed + ",") != std::string::npos);
  CHECK(html.find("id=\"schedule\"") != std::string::npos);
  CHECK(html.find("<b>data_race</b> (expected data_race: as expected)") != std::string::npos);
}

TEST_CASE("trace options leave the report unchanged; --trace-text - prints the listing after it", "[trace]") {
  const auto plain = run_weft({"run", "scenarios/right_permute.toml", "--seed", "2"});
  CHECK(plain.out.find("weft trace") == std::string::npos);
  const auto traced = run_weft({"run", "scenarios/right_permute.toml", "--seed", "2", "--trace", trace_path("report.json"),
                                "--html", trace_path("report.html")});
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

TEST_CASE("timelines name the Pallas pipeline's DMAs by operand and grid point", "[trace]") {
  const std::vector<std::string> args{"scenarios/pallas_matmul.toml", "--seed", "0"};
  const std::string html = traced_run(args, "--html", "pallas.html");
  CHECK(html.find("(fetch of in[0] for grid point (0, 0, 0))") != std::string::npos);
  CHECK(html.find("(fetch of in[1] for grid point (0, 0, 1))") != std::string::npos);
  CHECK(html.find("(write-back of out[0] for grid point (1, 0, 1)) write") != std::string::npos);
  const auto listed = run_weft({"run", "scenarios/pallas_matmul.toml", "--seed", "0", "--trace-text", "-"});
  CHECK(listed.out.find("start dma 0 (fetch of in[0] for grid point (0, 0, 0)): hbm 1 'x'") != std::string::npos);
}
