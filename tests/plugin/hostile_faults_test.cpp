// Code of a kernel library that faults (tests/plugin/libraries/hostile_faults.cpp), run by the
// stock weft executable: a kernel's SIGFPE, SIGSEGV, SIGILL or SIGBUS is a kernel_error naming
// the core, the signal, where the faulting instruction lies and the kernel's last line, and a
// sweep goes on to the next seed with every line written; a setup's fault is exit 2 naming the
// scenario, a host check's a kernel_error; weft's API called from a std::thread the kernel
// started ends weft with exit 3 naming the core and the call (no SIGSEGV), and through another
// core's handle it is a kernel_error of the calling core.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "weft_command.hpp"

using weft::testing::contains;
using weft::testing::Run;
using weft::testing::run_weft;
using weft::testing::Scratch;

namespace {

const std::string library = HOSTILE_FAULTS_LIBRARY;
// Where a faulting instruction lies: the library's file and an offset in it.
const std::string in_library = library.substr(library.rfind('/') + 1) + "+0x";

Run run_scenario(const std::string& name) {
  const Run run = run_weft({"run", name, "--kernels", library});
  INFO(run.out << run.err);
  CHECK(run.status == 0);  // each expects kernel_error
  CHECK(contains(run.out, "verdict:  kernel_error (expected kernel_error: as expected)"));
  return run;
}

std::size_t lines_with(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("a kernel that faults is a kernel_error naming the core, the signal and where", "[plugin][hardening]") {
  struct Case {
    std::string scenario;
    std::string core;
    std::string raised;
  };
  const std::vector<Case> cases{
      {"plugin_fault_divide", "device 1 core 0", "SIGFPE (integer divide by zero) at "},
      {"plugin_fault_null", "device 0 core 0", "SIGSEGV (address 0x0 is not mapped) at "},
      {"plugin_fault_trap", " core 0", "SIGILL (an illegal instruction) at "},  // whichever core ran first
      {"plugin_fault_bus", "device 2 core 0", "SIGBUS (address 0x"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.scenario);
    const Run run = run_scenario(c.scenario);
    INFO(run.out << run.err);
    CHECK(contains(run.out, c.core + " raised " + c.raised));
    CHECK(contains(run.out, in_library));
    CHECK(contains(run.out, "in its own code, after its last visible operation at hostile_faults.cpp:"));
    CHECK(contains(run.out, "its fiber was abandoned"));
  }
}

TEST_CASE("a sweep of a faulting kernel goes on to every seed and writes every line", "[plugin][hardening]") {
  const Scratch scratch("faults_sweep");
  const std::string jsonl = (scratch.folder / "found.jsonl").string();
  const Run run = run_weft({"sweep", "plugin_fault_divide", "--kernels", library, "--seeds", "0..19", "--expect", "ok",
                            "--keep-going", "--jsonl", jsonl});
  INFO(run.out << run.err);
  CHECK(run.status == 1);
  CHECK(contains(run.out, "20 executions, 20 not as expected (ok)"));
  const std::string lines = weft::testing::read(jsonl);
  CHECK(lines_with(lines, "raised SIGFPE (integer divide by zero)") == 20);
  CHECK(contains(lines, "\"executions\":20"));
  CHECK(contains(lines, "\"complete\":true"));
}

TEST_CASE("a setup that faults is exit 2 naming the scenario and a check that faults is a kernel_error",
          "[plugin][hardening]") {
  const Run setup = run_weft({"sweep", "plugin_fault_setup", "--kernels", library, "--seeds", "0..3"});
  INFO(setup.out << setup.err);
  CHECK(setup.status == 2);
  CHECK(contains(setup.err, "scenario 'plugin_fault_setup': its setup raised SIGFPE (integer divide by zero) at "));
  CHECK(contains(setup.err, in_library));
  const Run check = run_scenario("plugin_fault_check");
  INFO(check.out << check.err);
  CHECK(contains(check.out, "the scenario's host check raised SIGSEGV (address 0x0 is not mapped) at "));
  CHECK(contains(check.out, in_library));
}

TEST_CASE("weft's API called off the kernel's own fiber is named, never a crash", "[plugin][hardening]") {
  const Run foreign = run_weft({"sweep", "plugin_foreign_thread", "--kernels", library, "--seeds", "0..3"});
  INFO(foreign.out << foreign.err);
  CHECK(foreign.status == 3);
  CHECK(contains(foreign.err, "weft: device 1 core 0's core signals at hostile_faults.cpp:"));
  CHECK(contains(foreign.err, "called from a thread that is not its kernel's"));
  const Run other = run_scenario("plugin_other_core");
  INFO(other.out << other.err);
  CHECK(contains(other.out, "device 1 core 0's kernel used device 0 core 0's core: signals at hostile_faults.cpp:"));
}
