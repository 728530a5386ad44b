// The all-reduce of the Pallas guide "Distributed computing in Pallas for TPUs", as a
// pallas_call over a grid of ring steps: every device adds up the inputs of all devices. At step
// 0 each device shakes hands with its neighbours on the barrier semaphore (so that both have
// entered the kernel, and allocated its scratch, before any DMA lands in it), then at every step
// it forwards the block it received last (its own input at step 0) to its right neighbour's
// receive slot (two slots, alternating, each with its own receive DMA semaphore: with one for
// both, the bytes of a neighbour's next copy could satisfy the wait for its current one) and
// adds the block it received from its left one. A capacity semaphore tells the left neighbour
// that a receive slot may be written again: after a device has forwarded the block of slot
// s % 2 (at step s + 1), the left one may send into it (at step s + 2).
//
// Planted bugs (param `bug`):
//   1  the capacity is signalled one step late: the left neighbour waits for a signal that comes
//      only after it has sent what its right neighbour is waiting for (deadlock);
//   2  no handshake: a device may send into its neighbour's receive slot before the neighbour
//      has allocated it (kernel_error: the destination does not exist);
//   3  the capacity is signalled one step early, before the slot was forwarded: the left
//      neighbour overwrites a block that is still being read (data_race).
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

enum Bug { none = 0, capacity_late = 1, no_handshake = 2, capacity_early = 3 };

// Scratch entries.
enum { accumulator = 0, receive = 1, dma = 2, capacity = 3 };  // dma: send, then a receive per slot

void ring_step(sim::pallas::Program& p, Bug bug) {
  sim::Core& core = p.core();
  const int devices = core.num_devices(), me = core.device_id();
  const int right = (me + 1) % devices, left = (me + devices - 1) % devices;
  const std::int64_t step = p.program_id(0), steps = p.num_programs(0);
  const auto x = p.in<float>(0);
  const auto acc = p.scratch<float>(accumulator);
  const auto slots = p.scratch<float>(receive);
  const sim::Semaphore send_sem = p.semaphore(dma, 0), recv_sem = p.semaphore(dma, 1 + static_cast<int>(step % 2));
  const sim::Semaphore room = p.semaphore(capacity, 0);
  const auto release_left = [&] { core.signal(room, 1, {.device = left}); };

  if (step == 0) {
    if (bug != no_handshake) {
      const sim::Semaphore barrier = core.barrier_semaphore();
      core.signal(barrier, 1, {.device = left});
      core.signal(barrier, 1, {.device = right});
      core.wait(barrier, 2);
    }
    core.store(acc, core.load(x));
  }
  if (bug == capacity_early && step >= 1 && step + 1 < steps) release_left();
  if (step >= 2) core.wait(room, 1);  // the right neighbour has forwarded what its slot held
  const auto source = step == 0 ? x : slots[(step - 1) % 2];
  auto copy = core.dma_start(source, slots[step % 2], recv_sem, send_sem, right);
  copy.wait();  // sent ours, and received our left neighbour's into slot step % 2
  const bool timely = bug == none || bug == no_handshake;
  if (timely && step >= 1 && step + 1 < steps) release_left();  // slot (step - 1) % 2 is forwarded
  if (bug == capacity_late && step >= 2) release_left();
  core.store(acc, core.load(acc) + core.load(slots[step % 2]));
  if (step + 1 == steps) core.store(p.out<float>(0), core.load(acc));
}

}  // namespace

sim::ScenarioDefinition pallas_all_reduce() {
  sim::ScenarioDefinition s;
  s.name = "pallas_all_reduce";
  s.summary =
      "ring all-reduce as a pallas_call over ring steps: barrier handshake, double-buffered receive, capacity "
      "semaphore";
  s.params = {{"rows", 8}, {"cols", 128}, {"bug", 0}};
  s.setup = [](sim::Host& host) {
    for (const char* extent : {"rows", "cols"}) positive_param(host, extent);
    const model::Shape shape{host.param("rows"), host.param("cols")};
    input_and_output(host, shape, shape);
  };
  s.kernel = [](sim::Core& core) {
    const std::int64_t rows = core.param("rows"), cols = core.param("cols");
    const auto bug = static_cast<Bug>(core.param("bug"));
    core.check(core.num_devices() >= 2, "the ring needs two devices or more");
    sim::pallas::CallSpec spec;
    spec.grid = {core.num_devices() - 1};
    spec.in = {sim::pallas::any<float>("x")};
    spec.out = {sim::pallas::any<float>("out")};
    spec.scratch = {sim::pallas::vmem<float>({rows, cols}), sim::pallas::vmem<float>({2, rows, cols}),
                    sim::pallas::dma_semaphores(3), sim::pallas::semaphores(1)};
    sim::pallas::launch(core, spec, [bug](sim::pallas::Program& p) { ring_step(p, bug); });
  };
  s.check = [](const sim::Host& host) -> std::string {
    const auto first = host.data<float>("x", 0);
    Eigen::Array<float, Eigen::Dynamic, 1> sum = Eigen::Array<float, Eigen::Dynamic, 1>::Zero(first.size());
    for (int d = 0; d < host.num_devices(); ++d) sum += host.data<float>("x", d);
    for (int d = 0; d < host.num_devices(); ++d)
      if (auto wrong = first_difference("out", d, host.data<float>("out", d), sum); !wrong.empty()) return wrong;
    return "";
  };
  return s;
}

}  // namespace weft::scenarios
