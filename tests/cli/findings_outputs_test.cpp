// A keep-going sweep's findings in its machine-readable outputs: each JSON line carries the
// failure's signature (as the stdout findings block names it) and its sites.
#include "cli_runner.hpp"

#include <nlohmann/json.hpp>

#include "sweep_lines.hpp"

using weft::testing::failure_lines;
using weft::testing::file_text;
using weft::testing::lines_of;
using weft::testing::run_weft;
using weft::testing::temp_file;

namespace {

struct Signature {
  std::string name;
  std::uint64_t count = 0;
  std::uint64_t first_seed = 0;
};

// The signatures of a keep-going sweep's stdout findings block, in its order.
std::vector<Signature> findings_block(const std::string& out) {
  std::vector<Signature> signatures;
  const auto start = out.find("\nfindings: ");
  REQUIRE(start != std::string::npos);
  const auto lines = lines_of(out.substr(start + 1, out.find("\n\n", start + 1) - start - 1));
  for (std::size_t at = 1; at + 1 < lines.size(); at += 2) {
    const auto times = lines[at].find(" x ");
    REQUIRE(times != std::string::npos);
    const std::string first = "    first seed ";
    REQUIRE(lines[at + 1].rfind(first, 0) == 0);
    signatures.push_back({lines[at].substr(times + 3), std::stoull(lines[at].substr(2, times - 2)),
                          std::stoull(lines[at + 1].substr(first.size()))});
  }
  return signatures;
}

// The failure lines of a JSON lines file, parsed.
std::vector<nlohmann::json> failures_of(const std::string& jsonl) {
  std::vector<nlohmann::json> lines;
  for (const auto& line : failure_lines(file_text(jsonl))) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

struct Swept {
  std::string out;
  std::string jsonl;
  std::string junit;
};

// Runs `args` with --jsonl and --junit into files named after `name`.
Swept sweep(std::vector<std::string> args, const std::string& name) {
  Swept swept{"", temp_file(name + ".jsonl", ""), temp_file(name + ".xml", "")};
  args.insert(args.end(), {"--jsonl", swept.jsonl, "--junit", swept.junit});
  const auto result = run_weft(args);
  INFO(result.err);
  REQUIRE(result.status == 1);
  swept.out = result.out;
  return swept;
}

}  // namespace

TEST_CASE("Every JSON line of a keep-going sweep carries the findings block's signature and the racing sites", "[cli][sweep]") {
  const Swept swept = sweep(weft::testing::racy_sweep, "findings_race");
  const auto block = findings_block(swept.out);
  REQUIRE(block.size() == 1);
  const std::string signature = block[0].name;
  const std::string prefix = "data_race: store at race_examples.cpp:";
  REQUIRE(signature.rfind(prefix, 0) == 0);
  const int line = std::stoi(signature.substr(prefix.size()));
  CHECK(block[0].count == 41);

  const auto failures = failures_of(swept.jsonl);
  REQUIRE(failures.size() == 41);
  for (const auto& failure : failures) {
    CAPTURE(failure.dump());
    CHECK(failure["signature"] == signature);
    const auto& sites = failure["sites"];
    REQUIRE(sites.size() == 2);  // the two racing stores, earlier first
    for (const auto& site : sites) {
      CHECK(site["actor"] == "core");
      CHECK(site["access"] == "write");
      CHECK(site["file"] == "race_examples.cpp");
      CHECK(site["line"] == line);
      CHECK(site["what"].get<std::string>().rfind("store [", 0) == 0);
      CHECK_FALSE(site.contains("semaphore"));
    }
    CHECK(sites[0]["index"] != sites[1]["index"]);
    CHECK(sites[0]["step"].get<std::uint64_t>() < sites[1]["step"].get<std::uint64_t>());
    CHECK(sites[1]["step"].get<std::uint64_t>() < failure["steps"].get<std::uint64_t>());
  }
}

TEST_CASE("A deadlock's JSON sites are its blocked cores with the semaphore each waits on", "[cli][sweep]") {
  const Swept swept = sweep({"sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..3", "--expect", "ok",
                             "--keep-going", "--shrink-budget", "0"},
                            "findings_deadlock");
  const auto failures = failures_of(swept.jsonl);
  REQUIRE(failures.size() == 4);
  for (const auto& failure : failures) {
    CAPTURE(failure.dump());
    CHECK(failure["verdict"] == "deadlock");
    const auto& sites = failure["sites"];
    REQUIRE(sites.size() == 4);  // every core of the scenario's device stopped
    for (const auto& site : sites) {
      CHECK(site["actor"] == "core");
      CHECK_FALSE(site.contains("access"));  // a blocked core is not an access
      CHECK(failure["signature"] == "deadlock: wait at " + site["file"].get<std::string>() + ":" +
                                        std::to_string(site["line"].get<int>()));
      CHECK(site["what"] == "waits on semaphore " + std::to_string(site["semaphore"].get<int>()) + ": needs " +
                                std::to_string(site["needs"].get<std::int64_t>()) + ", holds " +
                                std::to_string(site["holds"].get<std::int64_t>()));
      CHECK(site["needs"].get<std::int64_t>() > site["holds"].get<std::int64_t>());
    }
  }
}
