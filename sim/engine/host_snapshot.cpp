#include "sim/engine/host_snapshot.hpp"

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
  std::vector<const std::byte*> contents;
  for (const HostBuffer& host : buffers_) {
    contents.clear();
    for (const auto& bytes : host.bytes) contents.push_back(bytes.data());
    memory.host_allocate(host.name, host.type, host.shape, contents);
  }
}

}  // namespace weft::sim
