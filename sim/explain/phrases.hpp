#pragma once
// The words explanations use for the events of a recording: who did it ("device 5 core 0",
// "DMA 17"), where ("line 30" in the kernel's own file, "other.cpp:12" elsewhere), and what a
// signal was ("the signal of semaphore 2003 by device 5 core 0 at line 27, step 63"). Cores,
// DMAs, semaphores and cells are spelled by model/words.hpp, as in reports and traces.

#include <string>

#include "sim/trace/recorder.hpp"

namespace weft::sim {

class Phrases {
 public:
  // `home` is a line of the kernel's file ("file.cpp:42"): lines of that file are "line N".
  Phrases(const TraceRecorder& recorder, const std::string& home);

  std::string at(const std::string& line) const;     // "line 30", or "other.cpp:30"
  std::string core(int global_core) const;           // "device 5 core 0"
  std::string who(const TraceRecord& record) const;  // "device 5 core 0", "DMA 17"
  // "the read", "the write" (a DMA phase), "the load", "the store"
  static std::string access(const TraceRecord& record);
  // The signal of `signal` that a wait took `units` of: "the signal of semaphore 2003 by device 5
  // core 0 at line 27, step 63" (with "unit 2 of 2 of" when the wait took part of it), or "the
  // completion of DMA 16's read (semaphore 2001, step 111)" for a DMA phase ("the completion of a
  // chunk of 1024 of the 4096 bytes of DMA 16's write (...)" for a chunk of a write phase; a
  // pipeline DMA's origin leads the parenthesis: "(fetch of in[0] 'x' for grid point (0), block
  // (0, 0), semaphore ...").
  std::string signal(const TraceRecord& signal, std::string units = "") const;
  // Where a record was issued: "at line 30, step 109".
  std::string where(const TraceRecord& record) const;
  // A DMA by its number, and for one the Pallas pipeline started, what it is to the kernel's
  // author: "DMA 17", "DMA 12 (write-back of out[0] 'z' for grid point (1, 0, 1), block (0, 0)
  // (BlockSpec at matmul.cpp:47))".
  std::string dma(int id) const;

 private:
  const TraceRecorder& recorder_;
  std::string home_file_;
};

// The file part of "file.cpp:42".
std::string file_of(const std::string& line);

// How much of a DMA in flight has landed, when its write phase lands in chunks and some have:
// "1024 of its 4096 bytes landed"; empty when none has.
std::string landed_words(const TracedDma& dma);

}  // namespace weft::sim
