// What the documentation and the printed text say agrees with what weft does: every strategy
// configs/default.toml lists is one --set accepts, the README counts the hostile scenario files
// there are, and a scenario's description prints as text, never as terminal control codes.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "cli_runner.hpp"

using weft::testing::file_text;
using weft::testing::run_weft;

namespace fs = std::filesystem;

TEST_CASE("Every strategy configs/default.toml lists is accepted", "[cli]") {
  const std::string config = file_text(fs::path(WEFT_SOURCE_DIR) / "configs" / "default.toml");
  std::smatch listed;
  REQUIRE(std::regex_search(config, listed,
                            std::regex("strategy = \"random\" +# how the next core is chosen: ([a-z |]+)")));
  const std::string names = listed[1];
  const std::regex word("[a-z]+");
  int tried = 0;
  for (std::sregex_iterator name(names.begin(), names.end(), word), end; name != end; ++name, ++tried) {
    CAPTURE(name->str());
    CHECK(run_weft({"run", "right_permute", "--set", "scheduler.strategy=" + name->str()}).status == 0);
  }
  CHECK(tried == 3);
}

TEST_CASE("The README counts the hostile scenario files there are", "[cli]") {
  const std::string readme = file_text(fs::path(WEFT_SOURCE_DIR) / "README.md");
  std::smatch counted;
  REQUIRE(std::regex_search(readme, counted, std::regex("`hostile_\\*\\.toml` \\(([0-9]+) files\\)")));
  int files = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(WEFT_SOURCE_DIR) / "scenarios"))
    if (entry.path().filename().string().starts_with("hostile_") && entry.path().extension() == ".toml") ++files;
  CHECK(std::stoi(counted[1]) == files);
}

TEST_CASE("A scenario's description with ESC and BEL prints them as escapes", "[cli][hardening]") {
  const fs::path file = fs::temp_directory_path() / "weft_description_controls.toml";
  std::ofstream(file) << "kernel = \"right_permute\"\ndescription = \"a \\u001b[31mred\\u0007 kernel\\nsecond line\"\n";
  const auto run = run_weft({"run", file.string(), "--trace-text", "-"});
  fs::remove(file);
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK(run.out.find('\x1b') == std::string::npos);
  CHECK(run.out.find('\x07') == std::string::npos);
  CHECK(run.out.find("about:    a \\x1b[31mred\\x07 kernel\nsecond line") != std::string::npos);  // in the report
  CHECK(run.out.rfind("about:    a \\x1b[31mred\\x07 kernel\nsecond line") >
        run.out.find("weft trace"));  // and the trace
}
