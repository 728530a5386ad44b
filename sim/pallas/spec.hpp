#pragma once
// What a Pallas kernel author writes around the body: the grid, a BlockSpec per operand, scratch
// shapes and scalar prefetch (the Pallas guides "Grids and BlockSpecs", "TPU pipelining",
// "Scalar prefetch and block-sparse computation"). sim/pallas/pallas_call.hpp runs them.
//
//   auto kernel = pallas::pallas_call(
//       {.grid = {m / bm, n / bn, k / bk},
//        .semantics = {Semantics::parallel, Semantics::parallel, Semantics::arbitrary},
//        .in = {pallas::input<float>("x", {bm, bk}, [](GridIndex g) { return Block{g[0], g[2]}; }),
//               pallas::input<float>("y", {bk, bn}, [](GridIndex g) { return Block{g[2], g[1]}; })},
//        .out = {pallas::output<float>("z", {bm, bn}, [](GridIndex g) { return Block{g[0], g[1]}; })},
//        .scratch = {pallas::vmem<float>({bm, bn})}},
//       [](pallas::Program& p) { ... p.in<float>(0) ... });
//
// A block dimension given as `squeezed` is one element of the array, dropped from the block the
// body sees (Pallas' `None`). Along a dimension marked in `element`, the index map gives the
// block's first element, not its block index (Pallas' `pl.Element`). A block may overhang the array's edge (the last
// block of a grid of cdiv(20, 8), or a block larger than the array) as long as one of its elements is inside: the
// pipeline pads it (pipeline.hpp). `Buffered{n}` after the index map gives the operand n
// pipeline slots instead of 2 (Pallas' `pipeline_mode=pl.Buffered(n)`). An operand in
// `Memory::any` is handed to the body whole (an HBM ref for manual DMAs), as Pallas'
// `memory_space=pl.ANY`. An output that names an input's host buffer aliases it
// (`input_output_aliases`).

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "model/buffer.hpp"
#include "model/failure.hpp"
#include "sim/api/location.hpp"
#include "sim/pallas/grid.hpp"

namespace weft::sim::pallas {

// Block indices, one per dimension of the operand (GridIndex's shape: up to four numbers).
struct Block : GridIndex {
  Block() = default;
  Block(std::initializer_list<std::int64_t> indices);
};

// The integer arrays of scalar prefetch, read by index maps and bodies.
class ScalarPrefetch {
 public:
  explicit ScalarPrefetch(std::vector<std::vector<std::int32_t>> arrays = {}) : arrays_(std::move(arrays)) {}
  // Element `i` of array `array`; throws std::out_of_range naming both when there is none.
  std::int32_t operator()(int array, std::int64_t i) const;
  std::int64_t size(int array) const;

 private:
  std::vector<std::vector<std::int32_t>> arrays_;
};

using IndexMap = std::function<Block(const GridIndex&, const ScalarPrefetch&)>;

inline constexpr std::int64_t squeezed = -1;

enum class Memory { vmem, any };

// How many VMEM slots the pipeline gives a blocked operand (pl.Buffered(buffer_count)): an
// input's fetches run up to buffer_count - 1 grid steps ahead; an output has 1 or 2.
struct Buffered {
  int buffer_count = 2;
};

struct BlockSpec {
  std::vector<std::int64_t> block{};  // per dimension of the array: an extent, or `squeezed`
  IndexMap index_map{};               // grid point (and prefetch) -> block indices
  Memory memory = Memory::vmem;
  int buffer_count = 2;      // the pipeline's slots (Buffered)
  model::SourceLine line{};  // where it was written, for reports (line 0: not known)
  // Per dimension, true where the index map gives the block's first element instead of its block
  // index (Pallas' `pl.Element(n)`: windows that may overlap); empty: none.
  std::vector<bool> element{};
};

// An input or output: a host buffer of every device, by name, and how it is blocked.
struct Operand {
  std::string buffer{};
  model::ElementType type = model::ElementType::f32;
  BlockSpec spec{};
};

// Index maps are written with or without the prefetch argument.
template <class Map>
IndexMap index_map(Map map) {
  if constexpr (std::is_invocable_v<Map, const GridIndex&, const ScalarPrefetch&>) {
    return map;
  } else {
    return [map](const GridIndex& g, const ScalarPrefetch&) { return map(g); };
  }
}

// `loc`, the caller's line, is the BlockSpec's line in reports of its pipeline's DMAs.
template <class T, class Map>
Operand input(std::string buffer, std::vector<std::int64_t> block, Map map, Buffered buffered = {},
              Location loc = Location::current()) {
  return {std::move(buffer),
          model::element_type_of<T>(),
          {std::move(block),
           index_map(std::move(map)),
           Memory::vmem,
           buffered.buffer_count,
           {loc.file_name(), static_cast<int>(loc.line())}}};
}
template <class T, class Map>
Operand output(std::string buffer, std::vector<std::int64_t> block, Map map, Buffered buffered = {},
               Location loc = Location::current()) {
  return input<T>(std::move(buffer), std::move(block), std::move(map), buffered, loc);
}
// The whole array, in HBM, for the body's own DMAs.
template <class T>
Operand any(std::string buffer) {
  return {std::move(buffer), model::element_type_of<T>(), {.memory = Memory::any}};
}

// Scratch the body gets, allocated once per core before the first grid step.
struct Scratch {
  enum class Kind { vmem, smem, semaphores, dma_semaphores };
  Kind kind = Kind::vmem;
  model::ElementType type = model::ElementType::f32;
  model::Shape shape{};
  int count = 1;  // semaphores
};
template <class T>
Scratch vmem(const model::Shape& shape) {
  return {Scratch::Kind::vmem, model::element_type_of<T>(), shape, 1};
}
template <class T>
Scratch smem(const model::Shape& shape) {
  return {Scratch::Kind::smem, model::element_type_of<T>(), shape, 1};
}
inline Scratch semaphores(int count) { return {Scratch::Kind::semaphores, {}, {}, count}; }
inline Scratch dma_semaphores(int count) { return {Scratch::Kind::dma_semaphores, {}, {}, count}; }

struct CallSpec {
  std::vector<std::int64_t> grid{};
  std::vector<Semantics> semantics{};  // default: every dimension arbitrary
  std::vector<Operand> in{};
  std::vector<Operand> out{};
  std::vector<std::string> scalar_prefetch{};  // i32 host buffers, read once per core at the start
  std::vector<Scratch> scratch{};
};

}  // namespace weft::sim::pallas
