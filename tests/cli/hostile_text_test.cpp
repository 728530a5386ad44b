// A scenario whose path is not UTF-8 and holds ESC and other control bytes: the JSON lines
// parse, the JUnit file and the HTML timeline are well-formed XML in UTF-8 (checked by Python's
// own parsers, not by weft's), and the bytes show as U+FFFD and as control symbols. The JSON
// writer was exit 3 and JUnit was ill-formed.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using weft::testing::file_text;
using weft::testing::run_weft;

namespace {

namespace fs = std::filesystem;

// Whether Python's XML parser takes the file as well-formed XML (it reads it as UTF-8).
bool python_parses_xml(const fs::path& path) {
  const std::string command =
      "python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' '" + path.string() + "'";
  return std::system(command.c_str()) == 0;
}

// Whether the file is strict UTF-8 with no control character but tab, newline and return.
bool python_reads_clean_utf8(const fs::path& path) {
  const std::string command =
      "python3 -c 'import sys, re; t = open(sys.argv[1], encoding=\"utf-8\", errors=\"strict\").read(); "
      "sys.exit(1 if re.search(\"[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]\", t) else 0)' '" +
      path.string() + "'";
  return std::system(command.c_str()) == 0;
}

}  // namespace

TEST_CASE("A scenario path that is not UTF-8 and holds control bytes is written well-formed", "[cli][hardening]") {
  const fs::path folder = fs::temp_directory_path() / "weft_hostile_text";
  fs::remove_all(folder);
  fs::create_directories(folder);
  const fs::path scenario = folder / "dead\xFF\x1B[31m\x01\xC3(lock.toml";
  std::ofstream(scenario) << "kernel = \"right_permute\"\nexpect = \"deadlock\"\n[params]\nbarrier_waits = 3\n";
  const fs::path jsonl = folder / "f.jsonl", junit = folder / "j.xml", html = folder / "t.html",
                 trace = folder / "t.json";

  const auto sweep = run_weft({"sweep", scenario.string(), "--seeds", "0..2", "--expect", "ok", "--keep-going",
                               "--shrink-budget", "0", "--jsonl", jsonl.string(), "--junit", junit.string()});
  CHECK(sweep.status == 1);
  std::istringstream lines(file_text(jsonl));
  int failures = 0;
  for (std::string line; std::getline(lines, line);) {
    const auto parsed = nlohmann::json::parse(line);
    if (parsed.contains("reproduce")) {
      ++failures;
      CHECK(parsed["reproduce"].get<std::string>().find("dead\xEF\xBF\xBD\x1B[31m\x01\xEF\xBF\xBD(lock.toml") !=
            std::string::npos);
    }
  }
  CHECK(failures == 3);
  CHECK(python_parses_xml(junit));
  CHECK(python_reads_clean_utf8(junit));
  CHECK(file_text(junit).find("dead\xEF\xBF\xBD\xE2\x90\x9B[31m\xE2\x90\x81\xEF\xBF\xBD(lock.toml") !=
        std::string::npos);

  const auto run = run_weft({"run", scenario.string(), "--html", html.string(), "--trace", trace.string()});
  CHECK(run.status == 0);
  CHECK(python_reads_clean_utf8(html));
  CHECK(file_text(html).find("dead\xEF\xBF\xBD\xE2\x90\x9B[31m") != std::string::npos);
  CHECK(nlohmann::json::parse(file_text(trace)).contains("traceEvents"));
  fs::remove_all(folder);
}
