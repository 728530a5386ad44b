#include "model/buffer.hpp"

#include "model/naming.hpp"

#include <array>
#include <cassert>
#include <cstring>
#include <limits>

namespace weft::model {
namespace {

// Calls `copy(buffer_offset, rect_offset, count)` for each contiguous run of the last
// dimension of `part` (a sub-rectangle of both the buffer's shape and of `rect`), in elements.
template <class Copy>
void for_each_run(const Shape& shape, const Rect& rect, const Rect& part, Copy copy) {
  const int rank = rect.rank;
  if (part.volume() == 0) return;
  if (rank == 0) {
    copy(0, 0, 1);
    return;
  }
  std::array<std::int64_t, max_rank> index{};  // position within `part`, last dim excluded
  const std::int64_t run = part.size[rank - 1];
  while (true) {
    std::int64_t buffer_offset = 0, rect_offset = 0;
    for (int d = 0; d < rank; ++d) {
      const std::int64_t at = part.start[d] + (d + 1 < rank ? index[d] : 0);
      buffer_offset = buffer_offset * shape.dims[d] + at;
      rect_offset = rect_offset * rect.size[d] + (at - rect.start[d]);
    }
    copy(buffer_offset, rect_offset, run);
    int d = rank - 2;
    for (; d >= 0; --d) {
      if (++index[d] < part.size[d]) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace

std::string_view to_string(Space space) {
  switch (space) {
    case Space::hbm: return "hbm";
    case Space::vmem: return "vmem";
    case Space::smem: return "smem";
    case Space::vmem_shared: return "vmem_shared";
  }
  return "?";
}

std::string_view to_string(ElementType type) { return type == ElementType::f32 ? "f32" : "i32"; }

std::string describe(const BufferInfo& info) {
  std::string text = std::string(to_string(info.space)) + " buffer " + std::to_string(info.id);
  if (const std::string name = called(info.name, info.site); !name.empty()) text += " '" + name + "'";
  text += " " + std::string(to_string(info.type)) + to_string(info.shape);
  text += " on device " + std::to_string(info.device);
  if (info.core >= 0) text += " core " + std::to_string(info.core);
  return text;
}

Buffer::Buffer(BufferInfo info, Uninitialized fill) : info_(std::move(info)), fill_(fill) {
  const auto count = info_.shape.volume();
  if (info_.type == ElementType::f32)
    storage_ = Eigen::ArrayXf(count);
  else
    storage_ = Eigen::ArrayXi(count);
  fill_uninitialized(info_.type, fill_, raw(), count);
}

void Buffer::fill_uninitialized(ElementType type, Uninitialized fill, std::byte* out, std::int64_t count) {
  const auto bytes = static_cast<std::size_t>(count * element_bytes);
  if (fill == Uninitialized::zero) {
    std::memset(out, 0, bytes);
    return;
  }
  // A block of the value, copied over and over: an element at a time was a tenth of a small
  // collective's execution (every buffer of every execution starts filled).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::int32_t int_max = std::numeric_limits<std::int32_t>::max();
  const void* value = type == ElementType::f32 ? static_cast<const void*>(&nan) : static_cast<const void*>(&int_max);
  std::array<std::byte, 256> block;
  for (std::size_t at = 0; at < block.size(); at += element_bytes) std::memcpy(block.data() + at, value, element_bytes);
  std::size_t done = 0;
  for (; done + block.size() <= bytes; done += block.size()) std::memcpy(out + done, block.data(), block.size());
  std::memcpy(out + done, block.data(), bytes - done);
}

std::byte* Buffer::raw() {
  return std::visit([](auto& array) { return reinterpret_cast<std::byte*>(array.data()); }, storage_);
}

const std::byte* Buffer::raw() const {
  return std::visit([](const auto& array) { return reinterpret_cast<const std::byte*>(array.data()); },
                    storage_);
}

void Buffer::read(const Rect& rect, std::byte* out) const {
  const Rect part = rect.clipped_to(info_.shape);
  if (part.volume() != rect.volume()) fill_uninitialized(info_.type, fill_, out, rect.volume());
  const std::byte* base = raw();
  for_each_run(info_.shape, rect, part, [&](std::int64_t from, std::int64_t to, std::int64_t count) {
    std::memcpy(out + to * element_bytes, base + from * element_bytes, static_cast<std::size_t>(count * element_bytes));
  });
}

void Buffer::write(const Rect& rect, const std::byte* in) {
  assert(rect.inside(info_.shape));
  std::byte* base = raw();
  for_each_run(info_.shape, rect, rect, [&](std::int64_t to, std::int64_t from, std::int64_t count) {
    std::memcpy(base + to * element_bytes, in + from * element_bytes, static_cast<std::size_t>(count * element_bytes));
  });
}

}  // namespace weft::model
