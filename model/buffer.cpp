#include "model/buffer.hpp"

#include "model/naming.hpp"
#include "model/words.hpp"

#include <array>
#include <cassert>
#include <cstring>
#include <type_traits>

namespace weft::model {
namespace {

// Calls `copy(buffer_offset, rect_offset, count)` for each contiguous run of the last
// dimension of `part` (a sub-rectangle of `rect`, and of the buffer's shape unless `copy`
// ignores the buffer offset), in elements.
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
    case Space::hbm:
      return "hbm";
    case Space::vmem:
      return "vmem";
    case Space::smem:
      return "smem";
    case Space::vmem_shared:
      return "vmem_shared";
  }
  return "?";
}

std::string describe(const BufferInfo& info) {
  return words::buffer(to_string(info.space), info.id, called(info.name, info.site),
                       std::string(to_string(info.type)) + to_string(info.shape), info.device, info.core);
}

Buffer::Buffer(BufferInfo info, Uninitialized fill, const std::byte* contents)
    : info_(std::move(info)),
      fill_(fill),
      element_bytes_(model::element_bytes(info_.type)),
      storage_(std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(bytes()))) {
  if (contents != nullptr) std::memcpy(raw(), contents, static_cast<std::size_t>(bytes()));
  else fill_uninitialized(info_.type, fill_, raw(), info_.shape.volume());
}

void Buffer::fill_uninitialized(ElementType type, Uninitialized fill, std::byte* out, std::int64_t count) {
  const auto size = static_cast<std::size_t>(model::element_bytes(type));
  const auto bytes = static_cast<std::size_t>(count) * size;
  if (fill == Uninitialized::zero) {
    std::memset(out, 0, bytes);
    return;
  }
  // A block of the value, copied over and over: an element at a time was a tenth of a small
  // collective's execution (every buffer of every execution starts filled). 256 is a multiple
  // of every element size.
  std::array<std::byte, 256> block;
  nan_policy_value(type, block.data());
  for (std::size_t at = size; at < block.size(); at += size) std::memcpy(block.data() + at, block.data(), size);
  std::size_t done = 0;
  for (; done + block.size() <= bytes; done += block.size()) std::memcpy(out + done, block.data(), block.size());
  std::memcpy(out + done, block.data(), bytes - done);
}

void Buffer::read_part(const Rect& layout, const Rect& part, std::byte* out) const {
  const Rect inside = part.clipped_to(info_.shape);
  if (inside.volume() != part.volume()) {
    const auto fill = [&](std::int64_t, std::int64_t to, std::int64_t count) {
      fill_uninitialized(info_.type, fill_, out + to * element_bytes_, count);
    };
    for_each_run(info_.shape, layout, part, fill);
  }
  const std::byte* base = raw();
  for_each_run(info_.shape, layout, inside, [&](std::int64_t from, std::int64_t to, std::int64_t count) {
    std::memcpy(out + to * element_bytes_, base + from * element_bytes_,
                static_cast<std::size_t>(count * element_bytes_));
  });
}

void Buffer::accumulate(const Rect& rect, const std::byte* in) {
  assert(rect.inside(info_.shape) && is_numeric(info_.type));
  with_element_type(info_.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!std::is_same_v<T, bool>) {
      T* base = data<T>();
      const T* values = reinterpret_cast<const T*>(in);
      for_each_run(info_.shape, rect, rect, [&](std::int64_t to, std::int64_t from, std::int64_t count) {
        for (std::int64_t k = 0; k < count; ++k) {
          if constexpr (std::is_integral_v<T>)  // summed wide, then wrapped to the type
            base[to + k] = static_cast<T>(static_cast<std::int64_t>(base[to + k]) + values[from + k]);
          else base[to + k] = static_cast<T>(base[to + k] + values[from + k]);
        }
      });
    }
  });
}

void Buffer::write_part(const Rect& layout, const Rect& part, const std::byte* in) {
  assert(part.inside(info_.shape) && part.inside_of(layout));
  std::byte* base = raw();
  for_each_run(info_.shape, layout, part, [&](std::int64_t to, std::int64_t from, std::int64_t count) {
    std::memcpy(base + to * element_bytes_, in + from * element_bytes_,
                static_cast<std::size_t>(count * element_bytes_));
  });
}

}  // namespace weft::model
