// Kernel libraries loaded by the stock weft executable (--kernels, a scenario file's `kernels`
// key): their kernels run with every verb resolved to the executable's weft, their exceptions
// and stack overflows end as kernel_error, `weft list` names where each scenario comes from,
// and every way a library can be wrong is exit 2 naming its path.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/api/version.hpp"
#include "weft_command.hpp"

namespace fs = std::filesystem;
using weft::testing::contains;
using weft::testing::Run;
using weft::testing::run_weft;
using weft::testing::Scratch;

namespace {

// The line of `text` that starts with `start` (empty when there is none).
std::string line_starting(const std::string& text, const std::string& start) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(start)) return line;
  return "";
}

}  // namespace

TEST_CASE("a kernel library's kernel calls every verb of the API in each DMA mode", "[plugin]") {
  for (const char* mode : {"async", "on_wait", "eager"}) {
    const Run run = run_weft({"sweep", "plugin_every_verb", "--kernels", EVERY_VERB_LIBRARY, "--seeds", "0..24",
                              "--set", std::string("dma.execution=") + mode});
    INFO(run.out << run.err);
    CHECK(run.status == 0);
    CHECK(contains(run.out, "25 executions, 0 not as expected (ok)"));
  }
}

TEST_CASE("a kernel library's exception, stack overflow and endless spin end as kernel_error", "[plugin]") {
  const Run thrown = run_weft({"run", "plugin_throw", "--kernels", EVERY_VERB_LIBRARY});
  INFO(thrown.out << thrown.err);
  CHECK(thrown.status == 0);
  CHECK(contains(thrown.out, "device 1 core 0 threw: thrown by the kernel library"));
  const Run overflow = run_weft({"run", "plugin_recursion", "--kernels", EVERY_VERB_LIBRARY});
  INFO(overflow.out << overflow.err);
  CHECK(overflow.status == 0);
  CHECK(contains(overflow.out, "overflowed its fiber stack"));
  const Run spin = run_weft({"run", "plugin_spin", "--kernels", EVERY_VERB_LIBRARY, "--watchdog", "0.2"});
  INFO(spin.out << spin.err);
  CHECK(spin.status == 0);
  CHECK(contains(spin.out, "the watchdog ended it"));
}

TEST_CASE("list names where each scenario comes from", "[plugin]") {
  const Run run = run_weft({"list", "--kernels", EVERY_VERB_LIBRARY});
  CHECK(run.status == 0);
  const std::string plugin = line_starting(run.out, "scenario  plugin_every_verb ");
  CHECK(contains(plugin, std::string(" ") + EVERY_VERB_LIBRARY + "  every verb of the kernel API"));
  CHECK(contains(line_starting(run.out, "scenario  ring_all_reduce "), " built in "));
}

TEST_CASE("a scenario file names its kernel library relative to itself", "[plugin]") {
  const Scratch scratch("project");
  const fs::path& folder = scratch.folder;
  fs::create_directories(folder / "build");
  fs::copy_file(EVERY_VERB_LIBRARY, folder / "build" / "libmine.so", fs::copy_options::overwrite_existing);
  std::ofstream(folder / "mine.toml") << "kernel = \"plugin_every_verb\"\nkernels = \"build/libmine.so\"\n";
  const std::string file = (folder / "mine.toml").string();

  const Run run = run_weft({"run", file, "--seed", "3"});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK(contains(run.out, "verdict:  ok (expected ok: as expected)"));
  // The same library by --kernels too, under another spelling of its path: loaded once.
  const std::string again = (folder / "build" / ".." / "build" / "libmine.so").string();
  CHECK(run_weft({"run", file, "--kernels", again}).status == 0);

  // A finding's reproduce commands carry --kernels, and they reproduce it.
  const Run failing = run_weft({"run", "plugin_every_verb", "--kernels", EVERY_VERB_LIBRARY, "--expect", "deadlock"});
  CHECK(failing.status == 1);
  CHECK(contains(failing.out, std::string("replay plugin_every_verb --kernels ") + EVERY_VERB_LIBRARY +
                                  " --expect deadlock --seed 0"));
  CHECK(run_weft({"replay", "plugin_every_verb", "--kernels", EVERY_VERB_LIBRARY, "--seed", "0"}).status == 0);
}

TEST_CASE("a kernel library that cannot be used is exit 2 naming its path", "[plugin]") {
  const Scratch scratch("libraries");
  const fs::path& folder = scratch.folder;
  const auto refused = [](const std::vector<std::string>& args, const std::string& path, const std::string& why) {
    const Run run = run_weft(args);
    INFO(run.out << run.err);
    CHECK(run.status == 2);
    CHECK(contains(run.err, "weft: " + path + ": "));
    CHECK(contains(run.err, why));
  };
  SECTION("missing") {
    const std::string missing = (folder / "libmissing.so").string();
    refused({"list", "--kernels", missing}, missing, "no such kernel library");
    std::ofstream(folder / "missing.toml") << "kernel = \"plugin_every_verb\"\nkernels = \"libmissing.so\"\n";
    refused({"run", (folder / "missing.toml").string()}, missing, "no such kernel library");
  }
  SECTION("not a shared library") {
    const std::string text = (folder / "libtext.so").string();
    std::ofstream(text) << "not an ELF file\n";
    refused({"list", "--kernels", text}, text, "cannot load this kernel library");
  }
  SECTION("no entry point") {
    refused({"list", "--kernels", NO_ENTRY_POINT_LIBRARY}, NO_ENTRY_POINT_LIBRARY, "no entry point 'weft_plugin'");
  }
  SECTION("built against another weft version") {
    refused({"list", "--kernels", OTHER_VERSION_LIBRARY}, OTHER_VERSION_LIBRARY,
            std::string("built against weft 0.0, but this is weft ") + WEFT_VERSION);
  }
  SECTION("a scenario name taken by a built-in scenario") {
    refused({"list", "--kernels", BUILTIN_NAME_LIBRARY}, BUILTIN_NAME_LIBRARY,
            "scenario 'ring_all_reduce' has the name of a built-in scenario");
  }
  SECTION("a scenario name taken by another library") {
    const std::string copy = (folder / "libcopy.so").string();
    fs::copy_file(EVERY_VERB_LIBRARY, copy, fs::copy_options::overwrite_existing);
    refused({"list", "--kernels", EVERY_VERB_LIBRARY, "--kernels", copy}, copy,
            std::string("scenario 'plugin_every_verb' is also defined by ") + EVERY_VERB_LIBRARY);
  }
}
