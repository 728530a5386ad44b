#include "sim/pallas/block_placement.hpp"

#include <algorithm>

namespace weft::sim::pallas {

namespace {

bool by_element(const BlockSpec& spec, int d) {
  return static_cast<std::size_t>(d) < spec.element.size() && spec.element[static_cast<std::size_t>(d)];
}

}  // namespace

BlockPlacement place_block(const model::Slice& array, const BlockSpec& spec, const Block& block, model::Buffer* slot) {
  const std::vector<std::int64_t>& extents = spec.block;
  const model::Shape& block_view = slot->info().shape;
  BlockPlacement placement;
  placement.array = array;
  placement.array.view = block_view;
  placement.slot = {slot, model::Rect::whole(block_view), block_view};
  std::array<std::int64_t, model::max_rank> kept{};  // per array dimension, its elements inside
  bool some_inside = true, clipped = false;
  for (int d = 0; d < block.rank; ++d) {
    const std::int64_t extent = extents[static_cast<std::size_t>(d)];
    const std::int64_t size = extent == squeezed ? 1 : extent;
    const std::int64_t start = by_element(spec, d) ? block[d] : block[d] * size;
    const std::int64_t available = array.rect.size[d] - start;
    placement.array.rect.start[d] += start;
    placement.array.rect.size[d] = size;
    if (start < 0 || available <= 0) some_inside = false;
    kept[static_cast<std::size_t>(d)] = std::clamp<std::int64_t>(available, 0, size);
    clipped = clipped || kept[static_cast<std::size_t>(d)] < size;
  }
  if (!some_inside || !clipped) return placement;
  int axis = 0;  // the slot's dimension of array dimension d
  for (int d = 0; d < block.rank; ++d) {
    placement.array.rect.size[d] = kept[static_cast<std::size_t>(d)];
    if (extents[static_cast<std::size_t>(d)] == squeezed) continue;
    placement.array.view.dims[static_cast<std::size_t>(axis)] = kept[static_cast<std::size_t>(d)];
    placement.slot.view.dims[static_cast<std::size_t>(axis)] = kept[static_cast<std::size_t>(d)];
    placement.slot.rect.size[axis] = kept[static_cast<std::size_t>(d)];
    ++axis;
  }
  // The padding: along each dimension k cut short, the slab past the kept part, over the kept
  // part of the dimensions before k and all of the dimensions after it.
  for (int k = 0; k < block_view.rank; ++k) {
    const std::int64_t inside = placement.slot.rect.size[k];
    if (inside == block_view.dims[static_cast<std::size_t>(k)]) continue;
    model::Rect slab = model::Rect::whole(block_view);
    for (int before = 0; before < k; ++before) slab.size[before] = placement.slot.rect.size[before];
    slab.start[k] = inside;
    slab.size[k] = block_view.dims[static_cast<std::size_t>(k)] - inside;
    placement.padding[static_cast<std::size_t>(placement.padding_count++)] = slab;
  }
  return placement;
}

bool can_overhang(const model::Slice& array, const BlockSpec& spec) {
  for (std::size_t d = 0; d < spec.block.size(); ++d) {
    if (spec.block[d] == squeezed) continue;
    if (by_element(spec, static_cast<int>(d)) || array.rect.size[static_cast<int>(d)] % spec.block[d] != 0) return true;
  }
  return false;
}

}  // namespace weft::sim::pallas
