#pragma once
// File descriptors 0, 1 and 2 must be open before weft opens anything: `weft sweep ... >&-`
// would otherwise hand descriptor 1 to the first file weft opens (a --jsonl file), and the
// report meant for stdout would land in it. A closed one is opened onto /dev/null read-only:
// it is taken, and a write to it still fails (EBADF) as a write to a closed descriptor does, so
// a closed stdout is a stdout that cannot be written (stdout_status.hpp), as before.

namespace weft::sim {

void occupy_closed_standard_fds();

}  // namespace weft::sim
