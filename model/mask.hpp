#pragma once
// A mask as rectangles. A masked load, store or swap touches only the elements its mask keeps:
// those are its race accesses and its footprint, and only they must be in bounds. Race records
// and footprints speak in rectangles, so the mask is turned into the fewest rectangles that a
// single pass finds, and each becomes one access of its own.
//
// The mask lists the slice's elements in row-major order of the slice's rectangle (indexed
// dimensions have extent 1, so that is also the order of the tile the kernel holds). The pass
// walks the rectangle's rows (its last dimension): a row's kept elements form runs, each a
// rectangle one row tall. A row that follows the previous one along the next-to-last
// dimension (same leading indices) and has the same runs makes those rectangles one row
// taller instead. So the masks kernels write cost one rectangle per block of alike rows: a
// column bound (`col < n`) or a row bound (`row < n`) is a single rectangle whatever its size,
// a triangle one per row; only a scattered mask costs up to one per kept element.
//
// The rectangles are disjoint, inside the slice's rectangle, and cover exactly the kept
// elements. They are written into a vector the caller keeps, so a masked access in a loop
// allocates nothing once the vector has grown.

#include <vector>

#include "model/rect.hpp"

namespace weft::model {

// Replaces `parts` with the rectangles of the elements of `rect` whose `keep` entry is true
// (`keep` has rect.volume() entries, row-major).
void mask_parts(const Rect& rect, const bool* keep, std::vector<Rect>& parts);

}  // namespace weft::model
