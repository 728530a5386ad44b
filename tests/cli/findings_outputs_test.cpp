// A keep-going sweep's findings in its machine-readable outputs: each JSON line carries the
// failure's signature (as the stdout findings block names it) and its sites, weft merge counts
// the signatures over all shards, and the JUnit report has one testcase per signature.
#include "cli_runner.hpp"

#include <functional>
#include <map>

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

// A copy of a JSON lines file with `edit` applied to each failure line.
std::string with_failures_edited(const std::string& path, const std::string& name,
                                 const std::function<void(nlohmann::ordered_json&)>& edit) {
  std::string text;
  for (const auto& line : lines_of(file_text(path))) {
    auto json = nlohmann::ordered_json::parse(line);
    if (json.contains("seed")) edit(json);
    text += json.dump() + "\n";
  }
  return temp_file(name, text);
}

// The <testcase ...> element named `name` in a JUnit report, whole.
std::string testcase_named(const std::string& xml, const std::string& name) {
  const auto at = xml.find("<testcase classname=\"weft.hostile_semaphore_order\" name=\"" + name + "\"");
  REQUIRE(at != std::string::npos);
  return xml.substr(at, xml.find("</testcase>", at) - at);
}

const std::vector<std::string> two_lines{"sweep",
                                         "scenarios/hostile_semaphore_order.toml",
                                         "--seeds",
                                         "0..39",
                                         "--expect",
                                         "ok",
                                         "--keep-going",
                                         "--shrink-budget",
                                         "0"};

}  // namespace

TEST_CASE("Every JSON line of a keep-going sweep carries the findings block's signature and the racing sites",
          "[cli][sweep]") {
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

  // One JUnit testcase for the one signature, at the racing line, listing all 41 seeds.
  const std::string xml = file_text(swept.junit);
  CHECK(xml.find("tests=\"2\" failures=\"1\" errors=\"0\"") != std::string::npos);
  const auto testcase = xml.find("name=\"" + signature + "\" time=\"");
  REQUIRE(testcase != std::string::npos);
  CHECK(xml.substr(testcase, xml.find('>', testcase) - testcase)
            .ends_with("\" file=\"race_examples.cpp\" line=\"" + std::to_string(line) + "\""));
  std::string seeds = "41 seeds: 0";
  for (int seed = 1; seed <= 40; ++seed) seeds += ", " + std::to_string(seed);
  CHECK(xml.find("<system-out>" + seeds + "</system-out>") != std::string::npos);
  CHECK(xml.find("name=\"0 seeds as expected (ok)\"") != std::string::npos);
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
      CHECK(failure["signature"] ==
            "deadlock: wait at " + site["file"].get<std::string>() + ":" + std::to_string(site["line"].get<int>()));
      CHECK(site["what"] == "waits on barrier semaphore " + std::to_string(site["semaphore"].get<int>()) + ": needs " +
                                std::to_string(site["needs"].get<std::int64_t>()) + ", holds " +
                                std::to_string(site["holds"].get<std::int64_t>()));
      CHECK(site["needs"].get<std::int64_t>() > site["holds"].get<std::int64_t>());
    }
  }
}

TEST_CASE("The JUnit report has a testcase per signature listing its seeds", "[cli][sweep]") {
  const Swept swept = sweep(two_lines, "findings_two");
  const auto block = findings_block(swept.out);
  REQUIRE(block.size() == 2);  // hostile_api.cpp:37 and :40
  const auto failures = failures_of(swept.jsonl);
  REQUIRE(failures.size() == 40);
  const std::string xml = file_text(swept.junit);
  CHECK(xml.find("tests=\"3\" failures=\"2\" errors=\"0\"") != std::string::npos);
  std::uint64_t listed = 0;
  for (const Signature& signature : block) {
    CAPTURE(signature.name);
    const std::string testcase = testcase_named(xml, signature.name);
    CHECK(testcase.find(" file=\"") == std::string::npos);  // a kernel_error points at no operation
    std::string seeds;                                      // the JSON lines' seeds of this signature, in order
    for (const auto& failure : failures)
      if (failure["signature"] == signature.name)
        seeds += (seeds.empty() ? "" : ", ") + std::to_string(failure["seed"].get<std::uint64_t>());
    CHECK(testcase.find("<system-out>" + std::to_string(signature.count) + " seeds: " + seeds + "</system-out>") !=
          std::string::npos);
    CHECK(testcase.find("<failure type=\"kernel_error\"") != std::string::npos);
    CHECK(testcase.find(" --seed " + std::to_string(signature.first_seed) + "\n") != std::string::npos);
    listed += signature.count;
  }
  CHECK(listed == 40);
}

TEST_CASE("merge counts the signatures over every shard, an older line under its verdict", "[cli][merge]") {
  const auto whole = findings_block(sweep(two_lines, "findings_whole").out);
  std::vector<std::string> files;
  for (const std::string shard : {"0", "1"}) {
    auto args = two_lines;
    args.insert(args.end(), {"--shard", shard + "/2"});
    files.push_back(sweep(args, "findings_shard" + shard).jsonl);
  }
  const auto merged = run_weft({"merge", files[0], files[1]});
  CHECK(merged.status == 1);
  const auto summary = nlohmann::json::parse(lines_of(merged.out).back());
  nlohmann::json expected = nlohmann::json::array();  // the one-machine sweep's findings
  for (const Signature& signature : whole)
    expected.push_back(
        {{"signature", signature.name}, {"count", signature.count}, {"first_seed", signature.first_seed}});
  CHECK(summary["signatures"] == expected);
  CHECK(whole.size() == 2);

  // Shard 1's lines as a weft older than signatures wrote them: counted under their verdict.
  const auto old = with_failures_edited(files[1], "findings_old.jsonl", [](nlohmann::ordered_json& line) {
    line.erase("signature");
    line.erase("sites");
  });
  const std::uint64_t old_failures = failures_of(old).size();
  const auto mixed = run_weft({"merge", files[0], old});
  INFO(mixed.err);
  CHECK(mixed.status == 1);
  std::map<std::string, std::uint64_t> counts;  // shard 0's own, by signature
  for (const auto& failure : failures_of(files[0])) ++counts[failure["signature"].get<std::string>()];
  const auto signatures = nlohmann::json::parse(lines_of(mixed.out).back())["signatures"];
  REQUIRE(signatures.size() == 3);
  std::uint64_t total = 0;
  for (const auto& signature : signatures) {
    const auto name = signature["signature"].get<std::string>();
    CHECK(signature["count"] == (name == "kernel_error" ? old_failures : counts[name]));
    total += signature["count"].get<std::uint64_t>();
  }
  CHECK(total == 40);
  CHECK(old_failures == 20);
  // In order of first seed: shard 1's lines from seed 1, between shard 0's seeds 0 and 2.
  CHECK(signatures[0]["first_seed"] == 0);
  CHECK(signatures[1]["signature"] == "kernel_error");
  CHECK(signatures[1]["first_seed"] == 1);
  CHECK(signatures[2]["first_seed"] == 2);
  // What a signature must be: a string.
  const auto bad =
      run_weft({"merge", with_failures_edited(files[0], "findings_bad.jsonl",
                                              [](nlohmann::ordered_json& line) { line["signature"] = 7; })});
  CHECK(bad.status == 2);
  CHECK(bad.err.find(":2:0: 'signature' is 7, not a string") != std::string::npos);
}
