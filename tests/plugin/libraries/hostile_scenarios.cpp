// A kernel library whose scenarios' own code misbehaves outside what a finding can report:
//   plugin_exit_kernel   device 1's kernel calls exit(0) while the others wait
//   plugin_exit_setup    the setup calls exit(0)
//   plugin_setup_throws  the setup throws
//   plugin_check_throws  the host check throws
//   plugin_growing_setup the setup's host buffer grows from 4 KiB to 1 GiB a device at its 7th
//                        call (state kept across executions, as a hostile library may): under an
//                        address-space limit, the sweep's later seeds cannot be allocated
#include <cstdlib>
#include <stdexcept>

#include <weft/weft.hpp>

namespace {

using weft::sim::Core;
using weft::sim::Host;

weft::sim::ScenarioDefinition scenario(std::string name) {
  weft::sim::ScenarioDefinition s;
  s.name = std::move(name);
  s.summary = "a kernel library's scenario that misbehaves";
  s.kernel = [](Core& core) {
    auto token = core.semaphore();
    core.signal(token, 1);
    core.wait(token, 1);
  };
  return s;
}

weft::sim::ScenarioRegistry scenarios() {
  auto exit_kernel = scenario("plugin_exit_kernel");
  exit_kernel.kernel = [](Core& core) {
    auto token = core.semaphore();
    if (core.device_id() == 1) std::exit(0);
    core.wait(token);
  };
  auto exit_setup = scenario("plugin_exit_setup");
  exit_setup.setup = [](Host&) { std::exit(0); };
  auto setup_throws = scenario("plugin_setup_throws");
  setup_throws.setup = [](Host&) { throw std::runtime_error("no input for this size"); };
  auto check_throws = scenario("plugin_check_throws");
  check_throws.check = [](const Host&) -> std::string { throw std::runtime_error("the check fell over"); };
  auto growing_setup = scenario("plugin_growing_setup");
  growing_setup.setup_every_execution = true;
  growing_setup.setup = [](Host& host) {
    static int calls = 0;
    host.hbm<float>("x", ++calls < 7 ? weft::model::Shape{8, 128} : weft::model::Shape{65536, 4096});
  };
  return {exit_kernel, exit_setup, setup_throws, check_throws, growing_setup};
}

}  // namespace

WEFT_PLUGIN(scenarios)
