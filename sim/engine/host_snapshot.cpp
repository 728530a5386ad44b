#include "sim/engine/host_snapshot.hpp"

#include <cstring>

namespace weft::sim {

HostSnapshot HostSnapshot::take(const model::Memory& memory) {
  HostSnapshot snapshot;
  for (const auto& buffer : memory.buffers()) {
    const model::BufferInfo& info = buffer->info();
    if (info.space != model::Space::hbm || info.id >= model::first_kernel_buffer_id) continue;
    if (snapshot.buffers_.empty() || snapshot.buffers_.back().name != info.name)
      snapshot.buffers_.push_back({info.name, info.type, info.shape, {}});
    const auto* bytes = buffer->data<std::byte>();
    snapshot.buffers_.back().bytes.emplace_back(bytes, bytes + buffer->bytes());
  }
  return snapshot;
}

void HostSnapshot::restore(model::Memory& memory) const {
  for (const HostBuffer& host : buffers_) {
    memory.host_allocate(host.name, host.type, host.shape);
    for (std::size_t device = 0; device < host.bytes.size(); ++device) {
      model::Buffer* buffer = memory.find_named(static_cast<int>(device), host.name);
      std::memcpy(buffer->data<std::byte>(), host.bytes[device].data(), host.bytes[device].size());
    }
  }
}

}  // namespace weft::sim
