#include "model/mask.hpp"

namespace weft::model {

void mask_parts(const Rect& rect, const bool* keep, std::vector<Rect>& parts) {
  parts.clear();
  if (rect.volume() == 0) return;
  if (rect.rank == 0) {
    if (keep[0]) parts.push_back(rect);
    return;
  }
  const int last = rect.rank - 1;
  const int tall = rect.rank - 2;  // the dimension a block of alike rows grows along (-1: none)
  const std::int64_t columns = rect.size[last];
  const std::int64_t rows = rect.volume() / columns;
  std::size_t open = 0;  // the rectangles of the previous row, still growing: parts' last `open`
  Rect row = rect;       // the current row: its start in every dimension but the last
  for (int d = 0; d < last; ++d) row.size[d] = 1;
  for (std::int64_t r = 0; r < rows; ++r) {
    if (r > 0) {  // the next row's leading indices, row-major
      for (int d = tall; d >= 0; --d) {
        if (++row.start[d] < rect.start[d] + rect.size[d]) break;
        row.start[d] = rect.start[d];
      }
    }
    const bool* cells = keep + r * columns;
    // Does this row repeat the open rectangles' runs, one row further along `tall`?
    bool alike = r > 0 && tall >= 0 && row.start[tall] != rect.start[tall];
    std::size_t runs = 0;
    for (std::int64_t c = 0; c < columns && alike; ++c) {
      if (!cells[c] || (c > 0 && cells[c - 1])) continue;  // not the start of a run
      std::int64_t end = c;
      while (end < columns && cells[end]) ++end;
      const Rect* match = runs < open ? &parts[parts.size() - open + runs] : nullptr;
      alike = match != nullptr && match->start[last] == rect.start[last] + c && match->size[last] == end - c;
      ++runs;
    }
    if (alike && runs == open) {
      for (std::size_t k = parts.size() - open; k < parts.size(); ++k) ++parts[k].size[tall];
      continue;
    }
    open = 0;
    for (std::int64_t c = 0; c < columns; ++c) {
      if (!cells[c]) continue;
      std::int64_t end = c;
      while (end < columns && cells[end]) ++end;
      Rect run = row;
      run.start[last] = rect.start[last] + c;
      run.size[last] = end - c;
      parts.push_back(run);
      ++open;
      c = end;
    }
  }
}

}  // namespace weft::model
