// A DMA's write phase under dma.chunk_bytes (model/dma_chunks.hpp): slabs of whole rows along the
// target's first dimension of extent > 1, a step each, each writing only its rows, signalling
// only its bytes and making its access only over its rows; the whole copy in one step by default.

#include <catch2/catch.hpp>

#include <vector>

#include "model/dma_chunks.hpp"
#include "race_test_support.hpp"

using namespace weft::model;
using namespace weft::model::test;

namespace {

MachineSpec chunked(std::int64_t chunk_bytes) {
  MachineSpec spec = spec_of(1, 1);
  spec.dma_chunk_bytes = chunk_bytes;
  return spec;
}

// `rows` rows of 16 floats (64 bytes each) copied from a buffer counting up from 1 into one of
// zeros, on core a, with one receive semaphore.
struct RowsCopy {
  RowsCopy(std::int64_t chunk_bytes, std::int64_t rows) : machine(chunked(chunk_bytes)) {
    machine.set_observer(&recorder);
    src = alloc(machine, a, Space::vmem, Shape{rows, 16});
    dst = alloc(machine, a, Space::vmem, Shape{rows, 16});
    recv = semaphore(machine, a);
    fill(src, 1);
    for (std::int64_t i = 0; i < rows * 16; ++i) dst->data<float>()[i] = 0;
    Failure failure;
    id = machine.start_dma(a, {whole(src), whole(dst), a, recv, -1}, here, failure);
    REQUIRE(id >= 0);
    REQUIRE(machine.run_dma_phase(id, failure));  // the read phase
    recorder.accesses.clear();
  }
  const Dma& dma() const { return machine.dmas()[id]; }
  const DmaFlight& flight() const { return machine.dmas().flight(id); }
  // The values rows [0, rows) of the target hold once those rows have landed, the rest zero.
  std::vector<float> want_after(std::int64_t rows) const {
    std::vector<float> want(static_cast<std::size_t>(dst->info().shape.volume()), 0);
    for (std::int64_t i = 0; i < rows * 16; ++i) want[static_cast<std::size_t>(i)] = static_cast<float>(i + 1);
    return want;
  }
  // Runs write steps until the DMA is done; returns the rows of the target each one covered.
  std::vector<std::int64_t> land_all() {
    std::vector<std::int64_t> rows;
    std::int64_t landed_rows = 0;
    while (dma().next == DmaPhase::write) {
      const std::int64_t count_before = machine.semaphores().count(recv, 0);
      const DmaChunk next = next_chunk(dma(), flight(), machine.spec().dma_chunk_bytes);
      Failure failure;
      REQUIRE(machine.run_dma_phase(id, failure));
      const DmaChunk landed = landed_chunk(dma(), flight(), machine.spec().dma_chunk_bytes);
      CHECK(landed.rect == next.rect);
      CHECK(landed.bytes == next.bytes);
      landed_rows += landed.rect.size[0];
      rows.push_back(landed.rect.size[0]);
      CHECK(contents(dst) == want_after(landed_rows));
      CHECK(machine.semaphores().count(recv, 0) == count_before + landed.bytes);
      CHECK(flight().landed == landed_rows * 64);
      REQUIRE(!recorder.accesses.empty());
      CHECK(recorder.accesses.back().rect == next.rect);
      CHECK(recorder.accesses.back().is_write);
    }
    CHECK(recorder.accesses.size() == rows.size());
    // Its in-flight part went back to the pool after the last chunk: the next DMA takes its slot.
    Failure failure;
    const int next = machine.start_dma(a, {whole(src), whole(dst), a, recv, -1}, here, failure);
    REQUIRE(next == id + 1);
    CHECK(machine.dmas()[next].flight == dma().flight);
    return rows;
  }

  Machine machine;
  Recorder recorder;
  Buffer* src = nullptr;
  Buffer* dst = nullptr;
  int recv = -1;
  int id = -1;
};

}  // namespace

TEST_CASE("A write phase lands in chunks of whole rows that fit in dma.chunk_bytes", "[model]") {
  SECTION("chunk_bytes 100: one 64-byte row per chunk, 4 chunks") {
    RowsCopy copy(100, 4);
    CHECK(copy.land_all() == std::vector<std::int64_t>{1, 1, 1, 1});
  }
  SECTION("chunk_bytes 128: two rows per chunk, 2 chunks") {
    RowsCopy copy(128, 4);
    CHECK(copy.land_all() == std::vector<std::int64_t>{2, 2});
  }
  SECTION("chunk_bytes 128 over 5 rows: the last chunk holds the row left") {
    RowsCopy copy(128, 5);
    CHECK(copy.land_all() == std::vector<std::int64_t>{2, 2, 1});
  }
  SECTION("chunk_bytes 10, less than a row: still one row per chunk") {
    RowsCopy copy(10, 3);
    CHECK(copy.land_all() == std::vector<std::int64_t>{1, 1, 1});
  }
  SECTION("chunk_bytes 256 or more: the whole copy in one step") {
    RowsCopy copy(4096, 4);
    CHECK(copy.land_all() == std::vector<std::int64_t>{4});
  }
  SECTION("chunk_bytes 0 (the default): the whole copy in one step") {
    RowsCopy copy(0, 4);
    CHECK(copy.land_all() == std::vector<std::int64_t>{4});
    CHECK(copy.machine.semaphores().count(copy.recv, 0) == 256);
  }
}

TEST_CASE("Chunks run along the target's first dimension of extent > 1", "[model]") {
  Machine machine(chunked(32));
  Buffer* src = alloc(machine, a, Space::vmem, Shape{4, 8});
  Buffer* dst = alloc(machine, a, Space::vmem, Shape{3, 4, 8});
  const int recv = semaphore(machine, a);
  fill(src, 1);
  Failure failure;
  // Into dst[1]: a [1, 4, 8] rectangle viewed as [4, 8]; rows of 8 floats (32 bytes) along dimension 1.
  Slice target = slice(dst, Rect{3, {1, 0, 0}, {1, 4, 8}});
  target.view = Shape{4, 8};
  const int id = machine.start_dma(a, {whole(src), target, a, recv, -1}, here, failure);
  REQUIRE(id >= 0);
  REQUIRE(machine.run_dma_phase(id, failure));
  for (std::int64_t row = 0; row < 4; ++row) {
    const DmaChunk chunk = next_chunk(machine.dmas()[0], machine.dmas().flight(0), 32);
    CHECK(chunk.rect == (Rect{3, {1, row, 0}, {1, 1, 8}}));
    CHECK(chunk.offset == row * 32);
    CHECK(chunk.bytes == 32);
    REQUIRE(machine.run_dma_phase(id, failure));
  }
  CHECK(machine.dmas()[0].next == DmaPhase::done);
  const std::vector<float> all = contents(dst);
  CHECK(std::vector<float>(all.begin() + 32, all.begin() + 64) == contents(src));
  CHECK(machine.semaphores().count(recv, 0) == 128);
}

TEST_CASE("A copy of one element is one chunk whatever the chunk size", "[model]") {
  Machine machine(chunked(1));
  Buffer* src = alloc(machine, a, Space::vmem, Shape{1, 1});
  Buffer* dst = alloc(machine, a, Space::vmem, Shape{1, 1});
  const int recv = semaphore(machine, a);
  Failure failure;
  const int id = machine.start_dma(a, {whole(src), whole(dst), a, recv, -1}, here, failure);
  REQUIRE(machine.run_dma_phase(id, failure));
  REQUIRE(machine.run_dma_phase(id, failure));
  CHECK(machine.dmas()[0].next == DmaPhase::done);
  CHECK(machine.semaphores().count(recv, 0) == 4);
}

TEST_CASE("A chunked DMA that adds accumulates each chunk's rows once", "[model]") {
  Machine machine(chunked(8));
  Buffer* src = alloc(machine, a, Space::vmem, Shape{3, 2});
  Buffer* dst = alloc(machine, a, Space::vmem, Shape{3, 2});
  const int recv = semaphore(machine, a);
  fill(src, 1);
  fill(dst, 100);
  Failure failure;
  const int id = machine.start_dma(a, {whole(src), whole(dst), a, recv, -1, true}, here, failure);
  REQUIRE(machine.run_dma_phase(id, failure));
  REQUIRE(machine.run_dma_phase(id, failure));
  CHECK(contents(dst) == std::vector<float>{101, 103, 102, 103, 104, 105});
  REQUIRE(machine.run_dma_phase(id, failure));
  REQUIRE(machine.run_dma_phase(id, failure));
  CHECK(contents(dst) == std::vector<float>{101, 103, 105, 107, 109, 111});
  CHECK(machine.dmas()[0].next == DmaPhase::done);
}

TEST_CASE("A DMA in flight with chunks landed says how many bytes of it landed", "[model]") {
  RowsCopy copy(128, 4);
  Failure failure;
  REQUIRE(copy.machine.run_dma_phase(copy.id, failure));
  const auto check = copy.machine.exit_check();
  REQUIRE(check.has_value());
  CHECK(check->verdict == Verdict::dma_in_flight);
  CHECK_THAT(check->message, Catch::Contains("(write phase pending, 128 of 256 bytes landed)"));
}

TEST_CASE("A wait that took one chunk's bytes orders that chunk's rows, not the next chunk's", "[model][race]") {
  RaceMachine m(chunked(64));
  Buffer* src = alloc(m.machine, a, Space::vmem, Shape{2, 16});
  Buffer* dst = alloc(m.machine, a, Space::vmem, Shape{2, 16});
  const int recv = semaphore(m.machine, a);
  const int id = m.start_dma(a, whole(src), whole(dst), 0, recv, -1, 10);
  REQUIRE(m.phase(id));
  REQUIRE(m.phase(id));  // row 0
  m.wait(a, recv, 64);
  CHECK(m.load(a, dst, Rect{2, {0, 0}, {1, 16}}, 11));   // ordered after row 0's chunk
  CHECK(m.load(a, dst, Rect::whole(Shape{2, 16}), 12));  // row 1 has not landed: the chunk below races
  CHECK_FALSE(m.phase(id));
  CHECK(m.failure.verdict == Verdict::data_race);
  CHECK_THAT(m.failure.message, Catch::Contains("DMA write [1:2, 0:16] by DMA 0") && Catch::Contains("race.cpp:12"));
}
