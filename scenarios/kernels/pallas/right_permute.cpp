// The right permute (lax.ppermute to the right) of the Pallas guide "Distributed computing in
// Pallas for TPUs", as a pallas_call: input and output stay in HBM (memory space ANY), and the
// body, run once (no grid), makes one remote DMA of this device's input into its right
// neighbour's output, with a send and a receive DMA semaphore from the scratch, and waits on
// both: the send (its input has been read) and the receive (its left neighbour's input has
// landed in its own output). Like the guide, no barrier: the DMA touches only HBM buffers and
// semaphores of the launch, which exist on every device before any DMA starts.
//
// Planted bugs, a wait left out (params, 1 by default):
//   wait_send  0: the send semaphore's bytes are never taken: semaphore_leak in every DMA mode
//              (the guide's "started but not waited on ... non-zero semaphore states");
//   wait_recv  0: the kernel may end before its left neighbour's DMA lands: dma_in_flight when
//              it has not (always under on_wait), semaphore_leak when it has (always under
//              eager), either under async; so no scenario file pins it to one verdict.
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

// Scratch: the guide's [pltpu.SemaphoreType.DMA] * 2.
enum { send = 0, receive = 1 };

void right_permute(sim::pallas::Program& p, bool wait_send, bool wait_recv) {
  sim::Core& core = p.core();
  const int right = (core.device_id() + 1) % core.num_devices();
  auto copy = core.dma_start(p.in<float>(0), p.out<float>(0), p.semaphore(receive), p.semaphore(send), right);
  if (wait_send) copy.wait_send();  // our input has been read
  if (wait_recv) copy.wait_recv();  // our left neighbour's input has landed in our output
}

}  // namespace

sim::ScenarioDefinition pallas_right_permute() {
  sim::ScenarioDefinition s;
  s.name = "pallas_right_permute";
  s.summary =
      "right permute as a pallas_call: HBM refs, one remote DMA to the right neighbour, send and receive semaphores";
  s.params = {{"rows", 8}, {"cols", 128}, {"wait_send", 1}, {"wait_recv", 1}};
  s.setup = [](sim::Host& host) {
    for (const char* extent : {"rows", "cols"}) positive_param(host, extent);
    const model::Shape shape{host.param("rows"), host.param("cols")};
    input_and_output(host, shape, shape);
  };
  s.kernel = [](sim::Core& core) {
    const bool wait_send = core.param("wait_send") != 0, wait_recv = core.param("wait_recv") != 0;
    sim::pallas::CallSpec spec;
    spec.in = {sim::pallas::any<float>("x")};
    spec.out = {sim::pallas::any<float>("out")};
    spec.scratch = {sim::pallas::dma_semaphores(1), sim::pallas::dma_semaphores(1)};
    sim::pallas::launch(core, spec, [=](sim::pallas::Program& p) { right_permute(p, wait_send, wait_recv); });
  };
  s.check = [](const sim::Host& host) -> std::string {
    const int n = host.num_devices();
    for (int d = 0; d < n; ++d)
      if (auto wrong = first_difference("out", d, host.data<float>("out", d), host.data<float>("x", (d + n - 1) % n));
          !wrong.empty())
        return wrong;
    return "";
  };
  return s;
}

}  // namespace weft::scenarios
