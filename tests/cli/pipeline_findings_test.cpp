// What a Pallas author reads at the command line when a finding involves the pipeline's DMAs or
// a wait no copy can satisfy: the DMA named by operand, fetch or write-back, grid point, block
// and BlockSpec; a fix in the index map or dimension semantics; an over-wait that is no cycle.
#include <fstream>

#include "cli_runner.hpp"

using weft::testing::run_weft;

namespace {

// The number of the first line of scenarios/kernels/FILE holding `code`.
int line_of(const std::string& file, const std::string& code) {
  std::ifstream source(std::string(WEFT_SOURCE_DIR) + "/scenarios/kernels/" + file);
  int number = 0;
  for (std::string line; std::getline(source, line);) {
    ++number;
    if (line.find(code) != std::string::npos) return number;
  }
  FAIL("no line of " << file << " holds " << code);
  return 0;
}

}  // namespace

TEST_CASE("an index map past the array: the out-of-bounds fetch names operand, grid point, block and BlockSpec",
          "[cli][pallas]") {
  const auto run = run_weft({"run", "scenarios/pallas_paged_blocks_bad_table.toml"});
  INFO(run.out);
  CHECK(run.status == 0);
  CHECK(run.out.find("verdict:  out_of_bounds (expected out_of_bounds: as expected)") != std::string::npos);
  const int spec = line_of("pallas/paged_blocks.cpp", "input<float>(\"pool\"");
  const int launch = line_of("pallas/paged_blocks.cpp", "sim::pallas::launch(core, spec");
  CHECK(run.out.find("at paged_blocks.cpp:" + std::to_string(launch) +
                     " starts the fetch of in[0] 'pool' for grid point " +
                     "(1, 1), block (6, 0) (BlockSpec at paged_blocks.cpp:" + std::to_string(spec) +
                     "), a DMA reading [6:7, 0:8] of hbm buffer") != std::string::npos);
}

TEST_CASE("a race of two write-backs: the fix is the index map or the dimension semantics, not the launch line",
          "[cli][pallas]") {
  const auto run = run_weft({"run", "scenarios/pallas_matmul_shared_output_race.toml"});
  INFO(run.out);
  CHECK(run.status == 0);
  const std::string spec = std::to_string(line_of("pallas/matmul.cpp", "output<float>(\"z\", {s.bm, s.bn}, [shared]"));
  const std::string launch =
      std::to_string(line_of("pallas/matmul.cpp", "sim::pallas::launch(core, matmul_spec(sizes)"));
  const std::string fixes = run.out.substr(run.out.find("to fix it, one of:\n"));
  CHECK(
      fixes.find("give the points of grid dimension 0, which is parallel, blocks of their own: the index map of out[0] "
                 "'z' (BlockSpec at line " +
                 spec + ") gives block (0, 0) to grid point (") != std::string::npos);
  CHECK(fixes.find("make grid dimension 0 \"arbitrary\" in the dimension semantics of the launch at line " + launch) !=
        std::string::npos);
  CHECK(fixes.find("wait, before line " + launch) == std::string::npos);
  CHECK(fixes.find("move ") == std::string::npos);
}

TEST_CASE("an over-wait says what the wait needs and that nothing can still arrive, and is no cycle", "[cli][pallas]") {
  const auto run = run_weft({"run", "scenarios/pallas_paged_gather_over_wait_deadlock.toml"});
  INFO(run.out);
  CHECK(run.status == 0);
  CHECK(run.out.find("verdict:  deadlock (expected deadlock: as expected)") != std::string::npos);
  CHECK(run.out.find("needs 64 bytes, holds 32") != std::string::npos);
  CHECK(run.out.find("can still arrive: nothing, from no one") != std::string::npos);
  CHECK(run.out.find("this is an over-wait, not a cycle") != std::string::npos);
  CHECK(run.out.find("a cycle:") == std::string::npos);
}
