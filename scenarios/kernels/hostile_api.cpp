// Hostile kernels, part 2: misuses of the kernel API. Each must end its execution with a
// kernel_error that names the core, the call and its source line, never crash weft. Their
// scenario files are scenarios/hostile_*.toml; docs/hardening.md lists them all.
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

// Every device gets an HBM tile `x` [8, 128].
void one_tile(sim::Host& host) {
  host.hbm<float>("x", {8, 128});
  host.hbm<float>("out", {8, 128});
}

sim::ScenarioDefinition misuse(std::string name, std::string summary, std::function<void(sim::Core&)> kernel) {
  sim::ScenarioDefinition s;
  s.name = std::move(name);
  s.summary = std::move(summary);
  s.expect = model::Verdict::kernel_error;
  s.setup = one_tile;
  s.kernel = std::move(kernel);
  return s;
}

// Device 0 allocates its scratch buffers in another order than the others: buffer 100 is
// f32[4] there and f32[8, 128] elsewhere.
void buffers_out_of_order(sim::Core& core) {
  const bool odd_one = core.device_id() == 0;
  auto first = odd_one ? core.vmem<float>({4}) : core.vmem<float>({8, 128});
  auto second = odd_one ? core.vmem<float>({8, 128}) : core.vmem<float>({4});
  static_cast<void>(first);
  static_cast<void>(second);
}

void semaphores_out_of_order(sim::Core& core) {
  if (core.device_id() == 0) {
    static_cast<void>(core.dma_semaphore());
    static_cast<void>(core.semaphore());
  } else {
    static_cast<void>(core.semaphore());
    static_cast<void>(core.dma_semaphore());
  }
}

}  // namespace

sim::ScenarioRegistry hostile_api_scenarios() {
  sim::ScenarioRegistry s;
  s.push_back(misuse("hostile_buffer_order", "device 0 allocates its buffers in another order (ids disagree)",
                     buffers_out_of_order));
  s.push_back(misuse("hostile_semaphore_order", "device 0 allocates its semaphores in another order (kinds disagree)",
                     semaphores_out_of_order));
  s.push_back(misuse("hostile_signal_no_device", "a signal to a device that does not exist", [](sim::Core& core) {
    auto sem = core.semaphore();
    core.signal(sem, 1, {.device = core.num_devices()});
  }));
  s.push_back(misuse("hostile_signal_no_core", "a signal to a core that does not exist", [](sim::Core& core) {
    auto sem = core.semaphore();
    core.signal(sem, 1, {.device = core.device_id(), .core = core.num_cores() + 3});
  }));
  s.push_back(misuse("hostile_signal_zero", "a signal by zero", [](sim::Core& core) {
    auto sem = core.semaphore();
    core.signal(sem, 0);
  }));
  s.push_back(misuse("hostile_signal_negative", "a signal by a negative amount", [](sim::Core& core) {
    auto sem = core.semaphore();
    core.signal(sem, -3);
  }));
  s.push_back(misuse("hostile_wait_zero", "a wait for zero", [](sim::Core& core) {
    auto sem = core.semaphore();
    core.wait(sem, 0);
  }));
  s.push_back(misuse("hostile_dma_shapes", "a DMA whose source and destination shapes differ", [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    auto out = core.hbm<float>("out");
    auto sem = core.dma_semaphore();
    core.dma_start(x.at({sim::ds(0, 4)}), out, sem).wait();
  }));
  s.push_back(misuse("hostile_dma_empty", "a DMA of zero elements", [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    auto out = core.hbm<float>("out");
    auto sem = core.dma_semaphore();
    core.dma_start(x.at({sim::ds(0, 0)}), out.at({sim::ds(0, 0)}), sem).wait();
  }));
  s.push_back(misuse("hostile_dma_no_device", "a remote DMA to a device that does not exist", [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    auto sem = core.dma_semaphore();
    core.dma_start(x, x, sem, sem, core.num_devices() + 1).wait();
  }));
  s.push_back(
      misuse("hostile_foreign_barrier", "a wait on the barrier semaphore of another launch", [](sim::Core& core) {
        sim::Semaphore other = core.barrier_semaphore();
        other.id = 7;  // the barrier semaphore of the launch with collective id 7
        core.wait(other);
      }));
  s.push_back(misuse("hostile_forged_semaphore", "a signal through a semaphore handle made by hand",
                     [](sim::Core& core) { core.signal(sim::Semaphore{}, 1); }));
  s.push_back(misuse("hostile_empty_ref", "a load through a default-constructed ref",
                     [](sim::Core& core) { static_cast<void>(core.load(sim::Ref<float>{})); }));
  s.push_back(misuse("hostile_negative_extent", "a store through a ref with a negative extent", [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    core.store(x.at({sim::ds(4, -2)}), sim::Tile<float>(1, 128));
  }));
  s.push_back(misuse("hostile_negative_shape", "an allocation with a negative extent", [](sim::Core& core) {
    static_cast<void>(core.vmem<float>({8, -1}));
  }));
  s.push_back(misuse("hostile_five_dimensions", "an allocation of five dimensions", [](sim::Core& core) {
    static_cast<void>(core.vmem<float>({1, 1, 1, 1, 1}));
  }));
  s.push_back(misuse("hostile_store_shape", "a store of a tile of the wrong shape",
                     [](sim::Core& core) { core.store(core.hbm<float>("x"), sim::Tile<float>(1, 64)); }));
  s.push_back(misuse("hostile_unknown_host_buffer", "a host buffer that the setup never made",
                     [](sim::Core& core) { static_cast<void>(core.hbm<float>("nonexistent")); }));
  s.push_back(misuse("hostile_host_buffer_type", "a host buffer taken with another element type",
                     [](sim::Core& core) { static_cast<void>(core.hbm<std::int32_t>("x")); }));
  s.push_back(misuse("hostile_semaphore_index", "a semaphore taken from an array at an index past its end",
                     [](sim::Core& core) {
                       auto sems = core.dma_semaphores(4);
                       core.wait(sems[4]);
                     }));
  s.push_back(misuse("hostile_semaphore_count", "an array of zero semaphores",
                     [](sim::Core& core) { static_cast<void>(core.semaphores(0)); }));
  s.push_back(
      misuse("hostile_mask_shape", "a masked store whose mask is not of the ref's tile shape", [](sim::Core& core) {
        core.store(core.hbm<float>("out"), sim::Tile<float>::Zero(8, 128), sim::Mask::Constant(1, 64, true));
      }));
  s.push_back(misuse("hostile_swap_shape", "a swap of a tile of the wrong shape", [](sim::Core& core) {
    static_cast<void>(core.swap(core.hbm<float>("x"), sim::Tile<float>(1, 64)));
  }));
  s.push_back(misuse("hostile_dma_no_core", "a DMA into a core index the device does not have", [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    auto sem = core.dma_semaphore();
    core.dma_start(x, x, sem, std::nullopt, {.core = core.num_cores()}).wait();
  }));
  s.push_back(misuse("hostile_dma_add_bool", "a DMA that adds bool elements", [](sim::Core& core) {
    auto flags = core.vmem<bool>({8});
    core.sync_copy(flags, flags, {.add = true});
  }));
  s.push_back(misuse("hostile_undeclared_param", "a parameter the scenario does not declare",
                     [](sim::Core& core) { static_cast<void>(core.param("nonexistent")); }));
  return s;
}

}  // namespace weft::scenarios
