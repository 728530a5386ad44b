#include "model/dma_chunks.hpp"

#include <algorithm>

namespace weft::model {
namespace {

// A write phase as slabs: along dimension `dim` of the target, `rows` rows of `row_bytes` each,
// `per_chunk` of them to a chunk (the last chunk may hold fewer).
struct Slabs {
  int dim = -1;  // -1: one chunk (chunking off, or a copy of one element)
  std::int64_t rows = 1;
  std::int64_t row_bytes = 0;
  std::int64_t per_chunk = 1;
};

Slabs slabs_of(const Dma& dma, const DmaFlight& flight, std::int64_t chunk_bytes) {
  Slabs slabs;
  slabs.row_bytes = dma.bytes;
  if (chunk_bytes <= 0) return slabs;
  const Rect& rect = flight.target.rect;
  for (int d = 0; d < rect.rank && slabs.dim < 0; ++d)
    if (rect.size[d] > 1) slabs.dim = d;
  if (slabs.dim < 0) return slabs;
  slabs.rows = rect.size[slabs.dim];
  slabs.row_bytes = dma.bytes / slabs.rows;
  slabs.per_chunk = std::max<std::int64_t>(1, chunk_bytes / slabs.row_bytes);
  return slabs;
}

// The chunk of rows [first, first + count).
DmaChunk rows_of(const DmaFlight& flight, const Slabs& slabs, std::int64_t first, std::int64_t count) {
  DmaChunk chunk{flight.target.rect, first * slabs.row_bytes, count * slabs.row_bytes};
  if (slabs.dim >= 0) {
    chunk.rect.start[slabs.dim] += first;
    chunk.rect.size[slabs.dim] = count;
  }
  return chunk;
}

}  // namespace

DmaChunk next_chunk(const Dma& dma, const DmaFlight& flight, std::int64_t chunk_bytes) {
  const Slabs slabs = slabs_of(dma, flight, chunk_bytes);
  const std::int64_t first = flight.landed / slabs.row_bytes;
  return rows_of(flight, slabs, first, std::min(slabs.per_chunk, slabs.rows - first));
}

DmaChunk landed_chunk(const Dma& dma, const DmaFlight& flight, std::int64_t chunk_bytes) {
  const Slabs slabs = slabs_of(dma, flight, chunk_bytes);
  const std::int64_t end = flight.landed / slabs.row_bytes;  // chunks start at multiples of per_chunk
  const std::int64_t first = (end - 1) / slabs.per_chunk * slabs.per_chunk;
  return rows_of(flight, slabs, first, end - first);
}

}  // namespace weft::model
