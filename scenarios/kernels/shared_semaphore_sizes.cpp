// shared_semaphore_sizes: each core copies two tiles of different sizes from HBM into its VMEM
// on ONE DMA semaphore, A (a_rows x cols floats, 1 KiB by default) and then B (b_rows x cols,
// 16 KiB), waits for B's bytes and reads B, then waits for A's bytes and reads A.
//
// With DMAs that land whole (dma.chunk_bytes = 0) this is correct in every interleaving: the
// count reaches B's bytes only once B has landed, since A alone brings less. When a write phase
// lands in chunks (dma.chunk_bytes = 1024, as a DMA engine delivers a large copy piecemeal), A's
// 1 KiB plus all of B but its last chunk let the wait through, and the core reads rows of B
// that have not landed yet: data_race (docs/semantics.md §4).
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

void kernel(sim::Core& core) {
  const int me = core.core_id();
  const std::int64_t cols = core.param("cols");
  auto staged_a = core.vmem<float>({core.param("a_rows"), cols});
  auto staged_b = core.vmem<float>({core.param("b_rows"), cols});
  auto sem = core.dma_semaphore();
  auto copy_a = core.dma_start(core.hbm<float>("a")[me], staged_a, sem);
  auto copy_b = core.dma_start(core.hbm<float>("b")[me], staged_b, sem);
  copy_b.wait();  // B's bytes on the shared semaphore
  core.store(core.hbm<float>("out_b")[me], core.load(staged_b));
  copy_a.wait();
  core.store(core.hbm<float>("out_a")[me], core.load(staged_a));
}

}  // namespace

sim::ScenarioDefinition shared_semaphore_sizes() {
  sim::ScenarioDefinition s;
  s.name = "shared_semaphore_sizes";
  s.summary = "two local copies of different sizes on one DMA semaphore; wait for the larger's bytes, read it";
  s.params = {{"cols", 256}, {"a_rows", 1}, {"b_rows", 16}};
  s.setup = [](sim::Host& host) {
    const std::int64_t cores = host.num_cores(), cols = host.param("cols");
    input_and_output(host, {cores, host.param("a_rows"), cols}, {cores, host.param("a_rows"), cols}, "a", "out_a");
    input_and_output(host, {cores, host.param("b_rows"), cols}, {cores, host.param("b_rows"), cols}, "b", "out_b");
  };
  s.kernel = kernel;
  s.check = [](const sim::Host& host) {
    for (int d = 0; d < host.num_devices(); ++d)
      for (const char* tile : {"a", "b"}) {
        const std::string out = std::string("out_") + tile;
        if (auto wrong = first_difference(out, d, host.data<float>(out, d), host.data<float>(tile, d)); !wrong.empty())
          return wrong;
      }
    return std::string();
  };
  return s;
}

}  // namespace weft::scenarios
