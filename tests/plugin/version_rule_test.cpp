// One version rule for kernel libraries and the CMake package (sim/plugin/version_rule.hpp):
// built against A works with weft B when they share MAJOR.MINOR and A is not newer. The loader
// applies it (a library built against this weft's version with a patch of 0 loads, one newer
// than this weft does not), and weftConfigVersion.cmake answers find_package the same way.

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "sim/api/version.hpp"
#include "sim/plugin/version_rule.hpp"
#include "weft_command.hpp"

using weft::sim::works_with;
using weft::testing::contains;
using weft::testing::Run;
using weft::testing::run_weft;

TEST_CASE("A version works with the same MAJOR.MINOR, not older", "[plugin]") {
  CHECK(works_with("0.1", "0.1"));
  CHECK(works_with("0.1", "0.1.0"));
  CHECK(works_with("0.1.0", "0.1"));
  CHECK(works_with("0.1", "0.1.1"));
  CHECK(works_with("0.1.1", "0.1.3"));
  CHECK(works_with("0.01", "0.1"));         // numbers, as CMake reads them
  CHECK_FALSE(works_with("0.1.1", "0.1"));  // newer than the weft that would load it
  CHECK_FALSE(works_with("0.1.0.1", "0.1"));
  CHECK_FALSE(works_with("0.0", "0.1"));
  CHECK_FALSE(works_with("0.2", "0.1"));
  CHECK_FALSE(works_with("1.1", "0.1"));
  CHECK_FALSE(works_with("0.1", "1.1"));
  for (const char* malformed :
       {"", "0", "0.", ".1", "0.1.", "0..1", "0.1x", "v0.1", "0.1.2.3.4", "0.1 ", "0.1234567890"}) {
    CAPTURE(malformed);
    CHECK_FALSE(works_with(malformed, "0.1"));
    CHECK_FALSE(works_with("0.1", malformed));
  }
}

TEST_CASE("The loader takes a library of this weft's MAJOR.MINOR, not a newer one", "[plugin][hardening]") {
  const Run same = run_weft({"list", "--kernels", SAME_VERSION_LIBRARY});  // WEFT_VERSION ".0"
  INFO(same.err);
  CHECK(same.status == 0);
  const Run newer = run_weft({"list", "--kernels", NEWER_VERSION_LIBRARY});  // WEFT_VERSION ".1"
  CHECK(newer.status == 2);
  CHECK(contains(newer.err, std::string(NEWER_VERSION_LIBRARY) +
                                ": built against weft " WEFT_VERSION ".1, but this is "
                                "weft " WEFT_VERSION
                                " (a library loads in a weft of its MAJOR.MINOR, not older than its own"));
}

TEST_CASE("weftConfigVersion.cmake answers find_package by the loader's rule", "[plugin][hardening]") {
#if !defined(WEFT_CONFIG_VERSION_FILE)
  WARN("weft is configured without WEFT_INSTALL: no weftConfigVersion.cmake to compare");
#else
  const std::string major_minor = std::string(WEFT_VERSION).substr(0, std::string(WEFT_VERSION).find('.', 2));
  for (const std::string& requested :
       {std::string(WEFT_VERSION), std::string(WEFT_VERSION) + ".0", std::string(WEFT_VERSION) + ".1", major_minor,
        std::string("0.0"), std::string("0.2"), std::string("1.1"), std::string("0.1.1")}) {
    CAPTURE(requested);
    const std::string command = std::string(CMAKE_COMMAND) + " -DREQUESTED=" + requested +
                                " -DVERSION_FILE=" WEFT_CONFIG_VERSION_FILE " -P " WEFT_SOURCE_DIR
                                "/tests/plugin/package_version.cmake 2>&1";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string answer;
    for (int c; (c = std::fgetc(pipe)) != EOF;) answer += static_cast<char>(c);
    CHECK(::pclose(pipe) == 0);
    CHECK(answer == (works_with(requested, WEFT_VERSION) ? "compatible\n" : "incompatible\n"));
  }
#endif
}
