// A kernel library whose code faults, for weft to turn into findings (scheduler/fiber/
// fiber_rescue.hpp, sim/engine/host_code.hpp, sim/engine/foreign_calls.cpp). Built without
// sanitizers, as a user builds one: UBSan would stop a division by zero before the SIGFPE.
//   plugin_fault_divide          device 1's kernel divides by zero after a visible operation
//   plugin_fault_null            device 0's kernel writes through a null pointer
//   plugin_fault_trap            every kernel runs an illegal instruction
//   plugin_fault_bus             device 2's kernel reads a mapped file past its end
//   plugin_fault_setup           the setup divides by zero
//   plugin_fault_check           the host check reads through a null pointer
//   plugin_foreign_thread        device 1's kernel signals from a std::thread it started
//   plugin_other_core            device 1's kernel signals through device 0's core
// Each expects kernel_error, so a sweep of it is green when every seed ends so.
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <thread>

#include <weft/weft.hpp>

namespace {

using weft::sim::Core;
using weft::sim::Host;

volatile int zero = 0;
volatile int* volatile null_pointer = nullptr;
volatile int sink = 0;

weft::sim::ScenarioDefinition scenario(std::string name) {
  weft::sim::ScenarioDefinition s;
  s.name = std::move(name);
  s.summary = "a kernel library's scenario whose code faults";
  s.expect = weft::model::Verdict::kernel_error;
  s.kernel = [](Core& core) {
    auto token = core.semaphore();
    core.signal(token, 1);
    core.wait(token, 1);
  };
  return s;
}

[[gnu::noinline]] void read_past_the_end_of_a_file() {
  const long page = sysconf(_SC_PAGESIZE);
  const int file = memfd_create("weft-hostile-bus", 0);
  if (file < 0 || ftruncate(file, page) != 0) return;
  auto* bytes = static_cast<volatile char*>(mmap(nullptr, 2 * page, PROT_READ, MAP_SHARED, file, 0));
  if (bytes == MAP_FAILED) return;
  sink = bytes[page];  // the second page has no file behind it: SIGBUS
}

std::array<Core*, 8> first_cores{};  // each device's core of the running execution

weft::sim::ScenarioRegistry scenarios() {
  auto divide = scenario("plugin_fault_divide");
  divide.kernel = [](Core& core) {
    auto token = core.semaphore();
    core.signal(token, 1);
    core.wait(token, 1);
    if (core.device_id() == 1) sink = (sink + 1000) / zero;  // not a constant: no trick replaces the division
  };
  auto null = scenario("plugin_fault_null");
  null.kernel = [](Core& core) {
    auto token = core.semaphore();
    core.signal(token, 1);
    if (core.device_id() == 0) *null_pointer = 1;
    core.wait(token, 1);
  };
  auto trap = scenario("plugin_fault_trap");
  trap.kernel = [](Core& core) {
    auto token = core.semaphore();
    core.signal(token, 1);
    __builtin_trap();
  };
  auto bus = scenario("plugin_fault_bus");
  bus.kernel = [](Core& core) {
    auto token = core.semaphore();
    core.signal(token, 1);
    if (core.device_id() == 2) read_past_the_end_of_a_file();
    core.wait(token, 1);
  };
  auto setup = scenario("plugin_fault_setup");
  setup.setup = [](Host& host) { sink = host.num_devices() / zero; };
  auto check = scenario("plugin_fault_check");
  check.check = [](const Host&) -> std::string {
    sink = *null_pointer;
    return {};
  };
  auto foreign = scenario("plugin_foreign_thread");
  foreign.kernel = [](Core& core) {
    auto token = core.semaphore();
    if (core.device_id() == 1) std::thread([&] { core.signal(token, 1); }).join();
    core.signal(token, 1);
    core.wait(token, 1);
  };
  auto other = scenario("plugin_other_core");
  other.kernel = [](Core& core) {
    if (core.device_id() < static_cast<int>(first_cores.size())) first_cores[core.device_id()] = &core;
    auto token = core.semaphore();
    if (core.device_id() == 1) first_cores[0]->signal(token, 1);
    core.signal(token, 1);
    core.wait(token, 1);
  };
  return {divide, null, trap, bus, setup, check, foreign, other};
}

}  // namespace

WEFT_PLUGIN(scenarios)
