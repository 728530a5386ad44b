// The bidirectional reduce-scatter (lax.psum_scatter) of the Pallas guide "Distributed computing
// in Pallas for TPUs", as a pallas_call over the grid (ring step, phase). Every device holds one
// block per device (x: [devices, rows, cols]); device d ends with the sum over all devices of
// their block d. Partial sums travel, inputs stay: the top half of each block goes left around
// the ring and the bottom half right. At (step, phase 0) a device adds its own share of x into
// the left-travelling half that has just arrived, at (step, phase 1) into the right-travelling
// one, each time through a VMEM accumulator and local DMAs from and back to a double buffer in
// HBM (hbm_scratch, an output as in the guide: slot step % 2 is being worked on, the other one
// receives); meanwhile the DMA of the other direction, computed at the previous phase, carries
// that half on to the next neighbour. At step 0 each device shakes hands with both neighbours
// on the barrier semaphore, sends its own halves out, and gives each neighbour one credit on a
// capacity semaphore; after waiting for the DMAs of a phase, a device gives a credit to the
// neighbour it receives that direction from (its slot is free again), and it takes a credit
// before each DMA it sends. At the last step the halves are complete: they go to the output
// (written back by the pipeline) and the last credits are taken, so every semaphore ends at 0.
//
// Within one launch the handshake and the credits order nothing that the DMA waits do not order
// already: a device ends each phase by waiting for the DMA its neighbour sent it in that phase,
// which the neighbour started only after finishing its previous phase. The handshake matters
// between launches (docs/semantics.md §12): run as a program of several (`[program] launches`),
// a device that enters the next launch early would send into a neighbour still in the previous
// one; the handshake makes it wait until both neighbours have entered.
//
// Planted bugs: param `capacity_late` 1: each credit is given one copy late (the first one after
// a copy in each direction is skipped), so a device waits for a credit its neighbour gives only
// after receiving the DMA that the credit would have let it send (deadlock). Param `handshake` 0:
// no handshake at step 0 (crossed_launch in a program of several launches; ok in one).
#include <optional>

#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

// The grid's second axis, and the direction of the half it adds into.
enum Phase { left = 0, right = 1 };

// Scratch entries, in the guide's order: five DMA semaphores, two regular ones, the accumulator.
enum {
  local_copy = 0,
  left_recv = 1,
  left_send = 2,
  right_recv = 3,
  right_send = 4,
  left_capacity = 5,
  right_capacity = 6,
  accumulator = 7
};

// One way around the ring: the half of every block that travels it, and its semaphores.
struct Direction {
  int to = 0, from = 0;       // the neighbour the half goes to, and the one it comes from
  sim::Range rows;            // the half, in rows of a block
  sim::Semaphore recv, send;  // its DMAs'
  sim::Semaphore capacity;    // a credit from `to`: its receiving slot may be written
};

void reduce_scatter_step(sim::pallas::Program& p, std::int64_t half, bool capacity_late, bool handshake) {
  sim::Core& core = p.core();
  const int devices = core.num_devices(), me = core.device_id();
  const std::int64_t step = p.program_id(0), phase = p.program_id(1);
  const bool start = step == 0 && phase == left, last = step + 1 == p.num_programs(0);
  const std::int64_t working = step % 2, receiving = 1 - working;
  const auto x = p.in<float>(0), out = p.out<float>(0), hbm = p.out<float>(1);
  const auto acc = p.scratch<float>(accumulator);
  const Direction leftward{(me + devices - 1) % devices, (me + 1) % devices,     sim::ds(0, half),
                           p.semaphore(left_recv),       p.semaphore(left_send), p.semaphore(left_capacity)};
  const Direction rightward{(me + 1) % devices,      (me + devices - 1) % devices, sim::ds(half, half),
                            p.semaphore(right_recv), p.semaphore(right_send),      p.semaphore(right_capacity)};
  // This phase adds into `adding`'s half of slot `working`; the DMA running meanwhile carries the
  // other direction's half, computed at the previous phase.
  const Direction& adding = phase == left ? leftward : rightward;
  const Direction& sending = phase == left ? rightward : leftward;
  const auto credit = [&](const Direction& d) { core.signal(d.capacity, 1, {.device = d.from}); };

  std::optional<sim::Dma> copy;
  if (start) {
    if (handshake) {
      const sim::Semaphore barrier = core.barrier_semaphore();  // both neighbours have entered the kernel
      core.signal(barrier, 1, {.device = leftward.to});
      core.signal(barrier, 1, {.device = rightward.to});
      core.wait(barrier, 2);
    }
    core.store(out, sim::Tile<float>::Zero(2 * half, out.shape().dims[1]));
    core.store(acc, sim::Tile<float>::Zero(half, acc.shape().dims[1]));
    // Our own halves start their journeys in the neighbours' working slots.
    core.dma_start(x.at({me, leftward.rows}), hbm.at({working, leftward.rows}), leftward.recv, leftward.send,
                   leftward.to)
        .wait();
    copy = core.dma_start(x.at({me, rightward.rows}), hbm.at({working, rightward.rows}), rightward.recv, rightward.send,
                          rightward.to);
    credit(rightward);  // our left neighbour may send right into us
    credit(leftward);   // and our right neighbour left
  } else {
    core.wait(sending.capacity, 1);
    // The leftward half was computed at this step's phase 0 (in slot `working`) and is worked on
    // by the left neighbour at the next step; the rightward one was computed at the previous
    // step's phase 1 (in `receiving`) and is worked on by the right neighbour now.
    const bool rightwards = &sending == &rightward;
    const std::int64_t from_slot = rightwards ? receiving : working, to_slot = rightwards ? working : receiving;
    copy = core.dma_start(hbm.at({from_slot, sending.rows}), hbm.at({to_slot, sending.rows}), sending.recv,
                          sending.send, sending.to);
  }

  // The half that has arrived, through VMEM: our share of x added, back for the next DMA.
  const auto slot = hbm.at({working, adding.rows});
  core.dma_start(slot, acc, p.semaphore(local_copy)).wait();
  if (!last) {  // the block this half is on its way to: the one of the device it reaches last
    const int owner = phase == left ? (me + step + 1) % devices : ((me - step - 1) % devices + devices) % devices;
    core.store(acc, core.load(acc) + core.load(x.at({owner, adding.rows})));
  }
  core.dma_start(acc, slot, p.semaphore(local_copy)).wait();

  copy->wait();
  const bool first_copy = step == (&sending == &rightward ? 1 : 0);  // of this direction
  if (!start && !(capacity_late && first_copy)) credit(sending);     // our slot is free for `from`

  if (last) {
    core.store(out.at({adding.rows}), core.load(acc));
    core.wait(sending.capacity, 1);  // the credit for the copy just waited, so that it ends at 0
  }
}

}  // namespace

sim::ScenarioDefinition pallas_reduce_scatter() {
  sim::ScenarioDefinition s;
  s.name = "pallas_reduce_scatter";
  s.summary =
      "bidirectional reduce-scatter as a pallas_call over (step, phase): halves both ways, HBM double buffer, capacity "
      "semaphores";
  s.params = {{"rows", 16}, {"cols", 128}, {"capacity_late", 0}, {"handshake", 1}};  // the guide's block_size
  s.setup = [](sim::Host& host) {
    for (const char* extent : {"rows", "cols"}) positive_param(host, extent);
    const std::int64_t rows = host.param("rows"), cols = host.param("cols");
    input_and_output(host, {host.num_devices(), rows, cols}, {rows, cols});
    host.hbm<float>("hbm_scratch", {2, rows, cols});
  };
  s.kernel = [](sim::Core& core) {
    const std::int64_t rows = core.param("rows"), cols = core.param("cols");
    const bool capacity_late = core.param("capacity_late") != 0, handshake = core.param("handshake") != 0;
    core.check(core.num_devices() >= 2, "the ring needs two devices or more");
    core.check(rows % 2 == 0, "a block's rows (" + std::to_string(rows) + ") must split into two halves");
    const std::int64_t devices = core.num_devices(), half = rows / 2;
    sim::pallas::CallSpec spec;
    spec.grid = {devices, 2};
    spec.in = {sim::pallas::input<float>("x", {devices, rows, cols}, [](const sim::pallas::GridIndex&) {
      return sim::pallas::Block{0, 0, 0};
    })};
    spec.out = {sim::pallas::output<float>("out", {rows, cols},
                                           [](const sim::pallas::GridIndex&) {
                                             return sim::pallas::Block{0, 0};
                                           }),
                sim::pallas::any<float>("hbm_scratch")};
    for (int k = 0; k < 5; ++k) spec.scratch.push_back(sim::pallas::dma_semaphores(1));
    for (int k = 0; k < 2; ++k) spec.scratch.push_back(sim::pallas::semaphores(1));
    spec.scratch.push_back(sim::pallas::vmem<float>({half, cols}));
    sim::pallas::launch(core, spec,
                        [=](sim::pallas::Program& p) { reduce_scatter_step(p, half, capacity_late, handshake); });
  };
  s.check = [](const sim::Host& host) -> std::string {
    const int devices = host.num_devices();
    for (int d = 0; d < devices; ++d) {
      const auto got = host.data<float>("out", d);
      Eigen::Array<float, Eigen::Dynamic, 1> sum = Eigen::Array<float, Eigen::Dynamic, 1>::Zero(got.size());
      for (int e = 0; e < devices; ++e) sum += host.data<float>("x", e).segment(d * got.size(), got.size());
      if (auto wrong = first_difference("out", d, got, sum); !wrong.empty()) return wrong;
    }
    return "";
  };
  return s;
}

}  // namespace weft::scenarios
