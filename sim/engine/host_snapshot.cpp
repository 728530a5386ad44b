#include "sim/engine/host_snapshot.hpp"

namespace weft::sim {

namespace {

bool is_host(const model::BufferInfo& info) {
  return info.space == model::Space::hbm && info.id < model::first_kernel_buffer_id;
}

}  // namespace

std::optional<HostSnapshot> HostSnapshot::take(const model::Memory& memory) {
  std::size_t bytes = 0;
  for (const auto& buffer : memory.buffers())
    if (is_host(buffer->info())) bytes += static_cast<std::size_t>(buffer->bytes());
  if (bytes > max_bytes) return std::nullopt;
  HostSnapshot snapshot;
  for (const auto& buffer : memory.buffers()) {
    const model::BufferInfo& info = buffer->info();
    if (!is_host(info)) continue;
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
