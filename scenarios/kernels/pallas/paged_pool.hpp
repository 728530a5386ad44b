#pragma once
// The paged pool of both paged kernels (paged_gather.cpp copies pages with the body's own DMAs,
// paged_blocks.cpp has the pipeline fetch them): a pool of `pages` pages of `page` floats in HBM,
// a block table of `per_sequence` page numbers for each of `sequences` sequences (the param
// `block_table`, one list per sequence; empty, one that spreads the pages), and an output of
// every sequence's pages, doubled.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/api/host.hpp"
#include "sim/config/params.hpp"

namespace weft::scenarios::paged_pool {

// Whether a table may name a page outside the pool (a bad table, as a kernel's bug to show).
enum class Pages { in_pool, any };

// The parameters every paged kernel takes, with their defaults.
sim::Params params();
// The block table, flattened: sequence s's slot i at s * per_sequence + i. A table of the wrong
// shape (or, for Pages::in_pool, naming a page outside the pool) is std::invalid_argument.
std::vector<std::int32_t> block_table(const sim::Host& host, Pages pages);
// Host buffers `pool` (filled with input values), `table` (the block table) and `out`.
void setup(sim::Host& host, Pages pages);
// "" if `out` holds each slot's page doubled on every device; else where it first does not.
std::string check(const sim::Host& host, Pages pages);

}  // namespace weft::scenarios::paged_pool
