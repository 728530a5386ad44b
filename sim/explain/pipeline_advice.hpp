#pragma once
// The fix for a race one of whose accesses is a DMA of the Pallas pipeline (sim/pallas/), told
// in what the kernel's author controls. The author never starts a fetch or a write-back: the
// pipeline does, at the launch's line, so "move the start of DMA 12" or "wait before the
// pallas_call's line" names nothing the author can change. What the author writes is the grid's
// dimension semantics, each operand's BlockSpec and index map, and the body's own
// synchronisation:
//
//   both pipeline DMAs, on two cores, whose grid points differ in a parallel dimension: the
//            index map gives points that run on different cores (the megacore split) one
//            block. Fix the index map (the BlockSpec's line), or, if the points are meant to
//            share the block, make that dimension "arbitrary" (the launch's line, where its
//            dimension semantics are written).
//   both pipeline DMAs, on two cores, with no parallel dimension between them (per-core
//            pipelines over refs the body chose, as emit_pipeline): the cores' refs overlap.
//            Make them disjoint (the BlockSpecs' lines), or order the cores with the kernel's
//            own signal and wait around the pipelines.
//   one pipeline DMA and the kernel's own access (a load, store or manual DMA): the pipeline
//            orders its copies only with its own steps. On the same core the body touches
//            elements the pipeline is copying while the copy is in flight; on another core
//            nothing orders them but the kernel's own synchronisation. The fix points at the
//            kernel's own access, or at the BlockSpec whose blocks cover those elements.
//
// Every fix names the operand, fetch or write-back, grid point and block as model::describe
// (DmaOrigin) does.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/explain/explanation.hpp"
#include "sim/explain/phrases.hpp"

namespace weft::sim {

// One racing access as the advice sees it.
struct RacingAccess {
  int core = -1;          // the core that performs it, or that started its DMA
  int dma = -1;           // its DMA, or -1 (a core's own access)
  std::string line;       // its source line ("file.cpp:42"); a DMA's: its start's
  std::string operation;  // "read", "write", "load", "store"
  std::uint64_t step = 0;
};

// True when `access` is a DMA the Pallas pipeline started.
bool pipeline_dma(const TraceRecorder& recorder, const RacingAccess& access);

// The fixes for the race of `first` and `second` (at least one a pipeline DMA), first the one
// most likely meant.
std::vector<FixCandidate> pipeline_fixes(const TraceRecorder& recorder, const Phrases& words, const RacingAccess& first,
                                         const RacingAccess& second);

}  // namespace weft::sim
