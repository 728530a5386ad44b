// torus_all_reduce: every device of a 2D torus (topology.mesh = [R, C], links wrapping around
// both ways) ends with the sum of all inputs, in two phases: an all-reduce around its mesh row,
// then around its mesh column. In each phase the tile's top half travels forwards around the
// ring (to the next position) and its bottom half backwards, at once. At step k a device sends
// each half it received at step k - 1 (at step 0, its own) into the next device's receive slot
// k of that direction, and waits for its own slot k; each slot has its DMA semaphore, so a wait
// is for the one DMA that lands there. Before any of it, a handshake with the four neighbours
// (each signals the others' barrier semaphore) orders every DMA after its target's allocations.
//   bug  1: on each column's wrap-around link (position 0 sending backwards to position R - 1),
//           the DMA signals the receiver's forward semaphore of that step instead of its
//           backward one, and the receiver, agreeing, waits for its backward half there too.
//           One semaphore then counts two DMAs' bytes: the wait for the forward half can be
//           satisfied by the backward DMA, and the device reads its forward slot before that
//           slot's DMA has landed (data_race on the devices of mesh row R - 1).
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

// One ring of the torus as this device sees it, with the buffers and semaphores of its phase.
struct Ring {
  int size = 0, position = 0;
  int next = 0, previous = 0;                     // device ids
  sim::Ref<float> forward_slots, backward_slots;  // [size - 1, half, cols] each
  sim::SemaphoreArray forward_recv, backward_recv;
  sim::Semaphore forward_send, backward_send;
  bool backward_wrap_on_forward_semaphores = false;  // the planted bug, for this ring
};

Ring make_ring(sim::Core& core, int axis, std::int64_t half, std::int64_t cols, bool bug) {
  std::vector<int> coords = core.mesh_coords();
  Ring ring;
  ring.size = core.mesh()[static_cast<std::size_t>(axis)];
  ring.position = coords[static_cast<std::size_t>(axis)];
  coords[static_cast<std::size_t>(axis)] = (ring.position + 1) % ring.size;
  ring.next = core.device_at(coords);
  coords[static_cast<std::size_t>(axis)] = (ring.position + ring.size - 1) % ring.size;
  ring.previous = core.device_at(coords);
  const int steps = ring.size - 1;
  const char* phase = axis == 0 ? "column" : "row";
  ring.forward_slots = core.vmem<float>({steps, half, cols}, std::string(phase) + " forward slots");
  ring.backward_slots = core.vmem<float>({steps, half, cols}, std::string(phase) + " backward slots");
  ring.forward_recv = core.dma_semaphores(steps);
  ring.backward_recv = core.dma_semaphores(steps);
  ring.forward_send = core.dma_semaphore(std::string(phase) + " forward send");
  ring.backward_send = core.dma_semaphore(std::string(phase) + " backward send");
  ring.backward_wrap_on_forward_semaphores = bug && axis == 0;
  return ring;
}

// `acc` becomes the sum of the ring's accs; `start` holds this device's acc for step 0's sends.
void all_reduce_around(sim::Core& core, const Ring& ring, sim::Tile<float>& acc, const sim::Ref<float>& start,
                       std::int64_t half) {
  if (ring.size == 1) return;
  core.store(start, acc);
  const std::int64_t bytes = half * acc.cols() * static_cast<std::int64_t>(sizeof(float));
  // The backward half sent over the wrap-around link (position 0 to size - 1), and received there.
  const bool sends_wrap = ring.backward_wrap_on_forward_semaphores && ring.position == 0;
  const bool receives_wrap = ring.backward_wrap_on_forward_semaphores && ring.position == ring.size - 1;
  for (int k = 0; k + 1 < ring.size; ++k) {
    const auto forward_source = k == 0 ? start.at({sim::ds(0, half)}) : ring.forward_slots[k - 1];
    const auto backward_source = k == 0 ? start.at({sim::ds(half, half)}) : ring.backward_slots[k - 1];
    auto forward =
        core.dma_start(forward_source, ring.forward_slots[k], ring.forward_recv[k], ring.forward_send, ring.next);
    auto backward =
        core.dma_start(backward_source, ring.backward_slots[k],
                       sends_wrap ? ring.forward_recv[k] : ring.backward_recv[k], ring.backward_send, ring.previous);
    forward.wait_send();
    backward.wait_send();
    core.wait(ring.forward_recv[k], bytes);
    acc.topRows(half) += core.load(ring.forward_slots[k]);
    core.wait(receives_wrap ? ring.forward_recv[k] : ring.backward_recv[k], bytes);
    acc.bottomRows(half) += core.load(ring.backward_slots[k]);
  }
}

void kernel(sim::Core& core) {
  core.check(core.mesh().size() == 2, "torus_all_reduce runs on a 2D mesh (topology.mesh = [rows, cols])");
  const std::int64_t rows = core.param("rows"), cols = core.param("cols"), half = rows / 2;
  core.check(rows % 2 == 0, "params.rows must be even: half of the tile goes each way");
  const bool bug = core.param("bug") != 0;
  auto x = core.hbm<float>("x");
  auto out = core.hbm<float>("out");
  auto start = core.vmem<float>({rows, cols}, "start");
  const Ring row = make_ring(core, 1, half, cols, bug);
  const Ring column = make_ring(core, 0, half, cols, bug);
  // The handshake: each of the four neighbours has allocated its scratch before anyone sends.
  auto barrier = core.barrier_semaphore();
  for (const int neighbour : {row.next, row.previous, column.next, column.previous})
    core.signal(barrier, 1, {.device = neighbour});
  core.wait(barrier, 4);
  sim::Tile<float> acc = core.load(x);
  all_reduce_around(core, row, acc, start, half);
  all_reduce_around(core, column, acc, start, half);
  core.store(out, acc);
}

}  // namespace

sim::ScenarioDefinition torus_all_reduce() {
  sim::ScenarioDefinition s = ring_all_reduce();
  s.name = "torus_all_reduce";
  s.summary =
      "all-reduce on a 2D torus, rows then columns, both ways around each ring (bug=1: the column wrap-around shares a "
      "semaphore)";
  s.params = {{"rows", 8}, {"cols", 128}, {"bug", 0}};
  s.kernel = kernel;
  return s;
}

}  // namespace weft::scenarios
