// One DMA semaphore shared by two copies of different sizes, end to end, and a wait for the
// larger one's bytes. Landing whole, no interleaving races; landing in chunks
// (dma.chunk_bytes), explore and a sweep both find the read of a row not landed yet.

#include "cli_runner.hpp"

using weft::testing::run_weft;

namespace {

const std::string whole = "scenarios/shared_semaphore_sizes.toml";
const std::string chunked = "scenarios/shared_semaphore_sizes_chunked_race.toml";

}  // namespace

TEST_CASE("Copies that land whole are correct in every interleaving, in both modes explore takes", "[cli][explore]") {
  for (const std::string mode : {"async", "eager"}) {
    CAPTURE(mode);
    const auto result = run_weft({"explore", whole, "--keep-going", "--set", "dma.execution=" + mode});
    INFO(result.out << result.err);
    CHECK(result.status == 0);
    CHECK(result.out.find("space:    exhausted") != std::string::npos);
    CHECK(result.out.find("verdicts:\n  ok: ") != std::string::npos);
    CHECK(result.out.find("signature:") == std::string::npos);  // no failure class
    CHECK(result.out.find("result:   as expected (expected ok)") != std::string::npos);
  }
  // A chunk as large as the larger copy lands each copy whole: still correct.
  const auto large = run_weft({"explore", whole, "--keep-going", "--set", "dma.chunk_bytes=16384"});
  INFO(large.out);
  CHECK(large.status == 0);
  CHECK(large.out.find("signature:") == std::string::npos);
}

TEST_CASE("Copies that land in 1 KiB chunks race, and explore finds it in most interleaving classes",
          "[cli][explore]") {
  for (const std::vector<std::string>& target :
       {std::vector<std::string>{chunked},
        std::vector<std::string>{whole, "--set", "dma.chunk_bytes=1024", "--expect", "data_race"}}) {
    std::vector<std::string> args{"explore"};
    args.insert(args.end(), target.begin(), target.end());
    args.push_back("--keep-going");
    const auto result = run_weft(args);
    INFO(result.out << result.err);
    CHECK(result.status == 0);
    CHECK(result.out.find("space:    exhausted") != std::string::npos);
    CHECK(result.out.find("signature: data_race: DMA write at shared_semaphore_sizes.cpp:23, load at "
                          "shared_semaphore_sizes.cpp:25") != std::string::npos);
    // Only the classes where A lands after B's last chunk are ok: A's bytes then come after B's.
    CHECK(result.out.find("  data_race: 48 runs\n") != std::string::npos);
    CHECK(result.out.find("  ok: 2 runs\n") != std::string::npos);
    CHECK(result.out.find("result:   as expected (expected data_race)") != std::string::npos);
  }
}

TEST_CASE("A sweep of the chunked copies races at every seed, and the whole ones at none", "[cli]") {
  const auto race = run_weft({"sweep", chunked, "--seeds", "0..99"});
  INFO(race.out << race.err);
  CHECK(race.status == 0);
  CHECK(race.out.find("100 executions, 0 not as expected (data_race)") != std::string::npos);
  const auto ok = run_weft({"sweep", whole, "--seeds", "0..99", "--set", "dma.chunk_bytes=0"});
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  CHECK(ok.out.find("100 executions, 0 not as expected (ok)") != std::string::npos);
}
