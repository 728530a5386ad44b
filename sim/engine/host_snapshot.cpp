#include "sim/engine/host_snapshot.hpp"

#include <cstring>

namespace weft::sim {

namespace {

bool is_host(const model::BufferInfo& info) {
  return info.space == model::Space::hbm && info.id < model::first_kernel_buffer_id;
}

// Whether `buffer` holds nothing but the fill of an uninitialized buffer.
bool as_it_started(const model::Buffer& buffer, model::Uninitialized fill, std::vector<std::byte>& scratch) {
  scratch.resize(static_cast<std::size_t>(buffer.bytes()));
  model::Buffer::fill_uninitialized(buffer.info().type, fill, scratch.data(), buffer.info().shape.volume());
  return std::memcmp(scratch.data(), buffer.data<std::byte>(), scratch.size()) == 0;
}

}  // namespace

std::optional<HostSnapshot> HostSnapshot::take(const model::Memory& memory, model::Uninitialized fill) {
  std::size_t bytes = 0;
  for (const auto& buffer : memory.buffers())
    if (is_host(buffer->info())) bytes += static_cast<std::size_t>(buffer->bytes());
  if (bytes > max_bytes) return std::nullopt;
  HostSnapshot snapshot;
  std::vector<std::byte> scratch;
  for (const auto& buffer : memory.buffers()) {
    const model::BufferInfo& info = buffer->info();
    if (!is_host(info)) continue;
    if (snapshot.buffers_.empty() || snapshot.buffers_.back().name != info.name)
      snapshot.buffers_.push_back({info.name, info.type, info.shape, {}});
    auto& kept = snapshot.buffers_.back().bytes.emplace_back();
    if (as_it_started(*buffer, fill, scratch)) continue;
    const auto* data = buffer->data<std::byte>();
    kept.assign(data, data + buffer->bytes());
  }
  return snapshot;
}

void HostSnapshot::restore(model::Memory& memory) const {
  std::vector<const std::byte*> contents;
  for (const HostBuffer& host : buffers_) {
    contents.clear();
    for (const auto& bytes : host.bytes) contents.push_back(bytes.empty() ? nullptr : bytes.data());
    memory.host_allocate(host.name, host.type, host.shape, contents);
  }
}

}  // namespace weft::sim
