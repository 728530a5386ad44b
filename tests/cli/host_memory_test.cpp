// A configuration whose buffers the host cannot hold is refused before they are allocated,
// naming the buffer (it grew to 23.6 GB and was OOM-killed); an allocation failure elsewhere
// is a clear message with exit 2, never "internal error".

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "weft_process.hpp"

using weft::testing::run_weft;
using weft::testing::Streams;
using weft::testing::WeftProcess;

TEST_CASE("Buffers past the host memory budget are refused before they are allocated", "[cli][hardening]") {
  const std::vector<std::string> big{"run",   "right_permute",    "--set", "topology.devices=32",
                                     "--set", "params.rows=8192", "--set", "params.cols=16384"};
  std::vector<std::string> budgeted = big;
  budgeted.insert(budgeted.end(), {"--set", "memory.host_bytes=1000000000"});
  const auto refused = run_weft(budgeted);
  CHECK(refused.status == 2);
  CHECK(refused.err ==
        "weft: scenario setup: host buffer 'x' of shape [8192, 16384] takes 536870912 bytes on each of 32 devices, "
        "17179869184 in all, but the host memory budget is 1000000000 bytes (memory.host_bytes), 0 of them already "
        "taken\n");
  // With the default budget (half this machine's memory), 2 TiB per device is refused too.
  const auto by_default = run_weft({"sweep", "right_permute", "--seeds", "0..3", "--set", "params.rows=1048576",
                                    "--set", "params.cols=524288", "--set", "memory.hbm_bytes=4398046511104"});
  CHECK(by_default.status == 2);
  CHECK(by_default.err.find(
            "host buffer 'x' of shape [1048576, 524288] takes 2199023255552 bytes on each of 4 devices") !=
        std::string::npos);
  // A kernel's own allocation past it is a finding, out_of_memory.
  const auto kernel = run_weft({"run", "scenarios/dma_read_before_wait.toml", "--set", "memory.host_bytes=40000"});
  INFO(kernel.out);
  CHECK(kernel.status == 1);
  CHECK(kernel.out.find("verdict:  out_of_memory") != std::string::npos);
  CHECK(kernel.out.find(
            "allocates 4096 bytes of vmem for buffer 100, but the buffers of this execution already take 36864 "
            "bytes of the host memory budget of 40000 (memory.host_bytes)") != std::string::npos);
}

TEST_CASE("Running out of host memory is a clear message and exit 2, not an internal error", "[cli][hardening]") {
  // Under a 1.5 GB address-space limit, a budget of 1 TB lets 2 GiB buffers through to the
  // allocator, which fails. Not under AddressSanitizer: it reserves terabytes of shadow address
  // space (no address-space limit can hold it), and its operator new ends the process on
  // failure instead of throwing std::bad_alloc. The ordinary build runs this test.
#if defined(WEFT_SANITIZE_ADDRESS)
  WARN("not run under AddressSanitizer: its allocator does not throw std::bad_alloc");
  return;
#endif
  WeftProcess weft({"run", "right_permute", "--set", "params.rows=65536", "--set", "params.cols=8192", "--set",
                    "memory.hbm_bytes=4294967296", "--set", "memory.host_bytes=1000000000000"},
                   Streams{"/dev/null"}, {}, {"/bin/sh", "-c", "ulimit -v 1464843 && exec \"$0\" \"$@\""});
  CHECK(weft.wait().status == 2);
  CHECK(weft.err().rfind("weft: out of host memory: ", 0) == 0);
  CHECK(weft.err().find("internal error") == std::string::npos);
}
