#pragma once
// `weft merge F...`: the JSON lines of a sweep's shards (one file per machine or array task) as
// one sweep: every failure line in seed order, as the shards wrote it, then one summary line.
//
// It merges only what is one sweep: every file is checked whole first (shard_lines.hpp), and
// all must name the same sweep (scenario, config digest, strategy, expected verdict, seed range,
// keep going, shard count) with each shard at most once. An exploration's JSON lines (weft
// explore --jsonl) are refused by name: an exploration is not sharded, so there is nothing to
// merge, and its lines have no seeds to merge a sweep's by. A shard that no file holds is missing;
// a shard without a summary line (a killed sweep's F.partial) or whose summary says it stopped
// early is unfinished. Either makes the merged sweep incomplete, and each is named on stderr and
// in the summary line (missing_shards, unfinished_shards). Totals are sums of checked per-shard
// counts, each at most the shard's planned seeds, so they cannot wrap.
//
// The summary line also groups the failures of all shards by signature (signature.hpp; a line
// of a weft older than signatures counts under its verdict): each signature with its count and
// its first seed, in order of first seed.
//
// The failure lines are merged a line per file at a time (the files hold them in seed order), so
// memory stays flat however many failures there are (it grows with the distinct signatures
// only); each file stays open while it is merged.

#include <string>
#include <vector>

namespace weft::sim {

// Returns the exit status: 0 a complete sweep without failures, 1 failures, 2 an input that is
// not one sweep's shards (unreadable, malformed, another sweep's, a shard twice), 4 incomplete
// without failures.
int command_merge(const std::vector<std::string>& files);

}  // namespace weft::sim
