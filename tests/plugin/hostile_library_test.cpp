// Kernel libraries that try to end weft, or that are malformed: exit status 0 must mean every
// execution gave the expected verdict, so an exit() from a library's code ends weft with a
// status of its own (2 while it loads the library, 3 while it runs a scenario) and a message
// naming the library or the core (sim/plugin/exit_guard.hpp); a crash while it loads one is
// exit 2 naming it; a malformed entry point is exit 2 naming it, never SIGSEGV.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "weft_command.hpp"

using weft::testing::contains;
using weft::testing::Run;
using weft::testing::run_weft;

namespace {

void check_ends(const std::vector<std::string>& args, int status, const std::vector<std::string>& parts) {
  const Run run = run_weft(args);
  INFO(run.out << run.err);
  CHECK(run.status == status);
  for (const auto& part : parts) CHECK(contains(run.err, part));
}

}  // namespace

TEST_CASE("a kernel library whose initialiser exits, faults, aborts or throws ends weft naming it",
          "[plugin][hardening]") {
  for (const std::string library :
       {INITIALISER_EXIT_LIBRARY, INITIALISER_SEGV_LIBRARY, INITIALISER_ABORT_LIBRARY, INITIALISER_THROW_LIBRARY}) {
    CAPTURE(library);
    check_ends({"sweep", "ring_all_reduce", "--seeds", "0..3", "--kernels", library}, 2,
               {"weft: " + library + ": the kernel library "});
  }
  check_ends({"list", "--kernels", INITIALISER_EXIT_LIBRARY}, 2, {"called exit(0) while weft loaded or closed it"});
  check_ends({"list", "--kernels", INITIALISER_SEGV_LIBRARY}, 2, {"crashed with SIGSEGV"});
}

TEST_CASE("a kernel or a setup that calls exit(0) does not make a sweep green", "[plugin][hardening]") {
  check_ends({"sweep", "plugin_exit_kernel", "--kernels", HOSTILE_SCENARIOS_LIBRARY, "--seeds", "0..9"}, 3,
             {"weft: device 1 core 0's kernel in scenario 'plugin_exit_kernel' of kernel library " +
                  std::string(HOSTILE_SCENARIOS_LIBRARY) + " called exit(0)",
              "no verdict holds"});
  check_ends({"run", "plugin_exit_kernel", "--kernels", HOSTILE_SCENARIOS_LIBRARY}, 3, {"called exit(0)"});
  check_ends(
      {"sweep", "plugin_exit_setup", "--kernels", HOSTILE_SCENARIOS_LIBRARY, "--seeds", "0..9"}, 3,
      {"scenario 'plugin_exit_setup' of kernel library " + std::string(HOSTILE_SCENARIOS_LIBRARY), "called exit(0)"});
}

TEST_CASE("a malformed entry point is exit 2 naming the library", "[plugin][hardening]") {
  check_ends({"list", "--kernels", NULL_ADD_SCENARIOS_LIBRARY}, 2,
             {"weft: " + std::string(NULL_ADD_SCENARIOS_LIBRARY) + ": ", "gives no function of the library"});
  check_ends(
      {"sweep", "ring_all_reduce", "--seeds", "0..1", "--kernels", DATA_ENTRY_POINT_LIBRARY}, 2,
      {"weft: " + std::string(DATA_ENTRY_POINT_LIBRARY) + ": ", "'weft_plugin' is not a function of the library"});
}

TEST_CASE("a scenario whose setup throws is exit 2 naming it and a check that throws is its verdict",
          "[plugin][hardening]") {
  check_ends({"sweep", "plugin_setup_throws", "--kernels", HOSTILE_SCENARIOS_LIBRARY, "--seeds", "0..3"}, 2,
             {"scenario 'plugin_setup_throws': its setup threw: no input for this size"});
  const Run run = run_weft({"run", "plugin_check_throws", "--kernels", HOSTILE_SCENARIOS_LIBRARY});
  INFO(run.out << run.err);
  CHECK(run.status == 1);
  CHECK(contains(run.out, "the host check rejected the outputs: it threw: the check fell over"));
}
