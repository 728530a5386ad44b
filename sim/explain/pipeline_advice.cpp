#include "sim/explain/pipeline_advice.hpp"

#include "sim/trace/describe.hpp"

namespace weft::sim {
namespace {

// A pipeline DMA's facts, from its start record and its origin.
struct PipelineCopy {
  const model::DmaOrigin* origin = nullptr;
  const TraceRecord* start = nullptr;
  std::string array;  // the operand's array's name ("" when it has none)
  model::Rect rect;   // what it copies of that array
};

PipelineCopy copy_of(const TraceRecorder& recorder, int dma) {
  PipelineCopy copy;
  const TracedDma* traced = dma >= 0 ? recorder.dma(dma) : nullptr;
  if (traced == nullptr || traced->start == no_record || traced->origin.what == nullptr) return copy;
  copy.origin = &traced->origin;
  copy.start = &recorder.records()[traced->start];
  const int buffer = copy.origin->output ? copy.start->target_buffer : copy.start->buffer;
  copy.rect = copy.origin->output ? copy.start->target_rect : copy.start->rect;
  if (buffer >= 0) copy.array = recorder.buffers()[static_cast<std::size_t>(buffer)].name;
  return copy;
}

std::string indices(const std::array<std::int64_t, 4>& at, int rank) {
  std::string text = "(";
  for (int i = 0; i < rank; ++i) text += (i > 0 ? ", " : "") + std::to_string(at[static_cast<std::size_t>(i)]);
  return text + ")";
}
std::string point(const model::DmaOrigin& origin) { return indices(model::grid_point(origin), origin.grid_rank); }
std::string block(const model::DmaOrigin& origin) { return indices(origin.block, origin.block_rank); }

// "out[0] 'z'"
std::string operand(const PipelineCopy& copy) {
  const std::string text =
      std::string(copy.origin->output ? "out[" : "in[") + std::to_string(copy.origin->operand) + "]";
  return copy.array.empty() ? text : text + " '" + copy.array + "'";
}
// "the write-back of out[0] 'z' for grid point (1, 0, 1), block (0, 0)"
std::string named(const PipelineCopy& copy) { return "the " + model::describe(*copy.origin, copy.array); }
// The line of the operand's BlockSpec, or else of the launch.
std::string spec_line(const PipelineCopy& copy) {
  return copy.origin->spec.line > 0 ? model::to_string(copy.origin->spec) : copy.start->line;
}
std::string array_words(const PipelineCopy& copy) {
  return (copy.array.empty() ? "its array" : "'" + copy.array + "'");
}

// The grid dimensions, parallel in both launches' grids, in which two copies' grid points differ.
int parallel_between(const model::DmaOrigin& a, const model::DmaOrigin& b) {
  if (a.grid_rank != b.grid_rank || a.parallel != b.parallel) return -1;
  const auto pa = model::grid_point(a), pb = model::grid_point(b);
  for (int axis = 0; axis < a.grid_rank; ++axis)
    if ((a.parallel >> axis & 1U) != 0 && pa[static_cast<std::size_t>(axis)] != pb[static_cast<std::size_t>(axis)])
      return axis;
  return -1;
}

// Both accesses are the pipeline's (on two cores: one core's pipeline orders its own copies).
std::vector<FixCandidate> both_pipelines(const Phrases& words, const RacingAccess& first, const PipelineCopy& a,
                                         const RacingAccess& second, const PipelineCopy& b) {
  const std::string ca = words.core(first.core), cb = words.core(second.core);
  const int axis = parallel_between(*a.origin, *b.origin);
  if (axis >= 0) {
    const std::string dimension = "grid dimension " + std::to_string(axis);
    const bool one_map = a.origin->operand == b.origin->operand && a.origin->output == b.origin->output;
    const std::string maps =
        one_map
            ? "the index map of " + operand(b) + " (BlockSpec at " + words.at(spec_line(b)) + ") gives block " +
                  block(*b.origin) + " to grid point " + point(*a.origin) + " (" + ca + ") and to grid point " +
                  point(*b.origin) + " (" + cb + ")"
            : "the index maps of " + operand(a) + " (BlockSpec at " + words.at(spec_line(a)) + ") and " + operand(b) +
                  " (BlockSpec at " + words.at(spec_line(b)) + ") give grid points " + point(*a.origin) + " (" + ca +
                  ") and " + point(*b.origin) + " (" + cb + ") blocks covering the same elements of " + array_words(b);
    return {
        {spec_line(b), "give the points of " + dimension + ", which is parallel, blocks of their own: " + maps +
                           ", and the megacore split runs those points on different cores"},
        {b.start->line, "or, if those grid points are meant to share the block, make " + dimension +
                            " \"arbitrary\" in the dimension semantics of the launch at " + words.at(b.start->line) +
                            ": one core then runs them in order (keep the steps that map to the block consecutive)"}};
  }
  return {
      {spec_line(b), "give each core's pipeline elements of " + array_words(b) + " of its own: " + named(a) + " on " +
                         ca + " and " + named(b) + " on " + cb + " both touch " + model::to_string(b.rect) +
                         " (the refs and BlockSpecs each core hands its pipeline, at " + words.at(spec_line(a)) +
                         (spec_line(a) == spec_line(b) ? "" : " and " + words.at(spec_line(b))) + ")"},
      {b.start->line, "or order the two pipelines with the kernel's own synchronisation: " + cb +
                          " waits, before its " + "pipeline at " + words.at(b.start->line) + ", for a signal " + ca +
                          " sends after its own pipeline at " + words.at(a.start->line) + " returns"}};
}

// "the store at line 12", "DMA 5 (started at line 30)"
std::string own_words(const Phrases& words, const RacingAccess& access) {
  if (access.dma >= 0) return model::words::dma(access.dma) + " (started at " + words.at(access.line) + ")";
  return "the " + access.operation + " at " + words.at(access.line);
}

// One access is the pipeline's (`copy`, as `pipeline`), the other the kernel's own.
std::vector<FixCandidate> pipeline_and_kernel(const Phrases& words, const RacingAccess& pipeline,
                                              const PipelineCopy& copy, const RacingAccess& own) {
  const std::string spec = "or keep the blocks of " + operand(copy) + " off the elements " + own_words(words, own) +
                           " touches (its index map, BlockSpec at " + words.at(spec_line(copy)) + ")";
  if (pipeline.core != own.core) {
    return {{own.line,
             "order " + own_words(words, own) + " on " + words.core(own.core) + " and the pipeline's " +
                 model::describe(*copy.origin, copy.array) + " on " + words.core(pipeline.core) +
                 " with the kernel's own synchronisation: a signal sent after " +
                 "the earlier completes, waited for in the body of the other core before the later (the pipeline " +
                 "starts a fetch during the step before its grid point, a write-back after the body of its grid " +
                 "point returns)"},
            {spec_line(copy), spec}};
  }
  if (copy.start->step < own.step) {  // the pipeline's copy was in flight while the body ran
    return {{own.line,
             "do not touch " + model::to_string(copy.rect) + " of " + array_words(copy) + " from the body while " +
                 "the pipeline copies it: " + named(copy) + " is in flight while the body runs (the pipeline " +
                 "fetches the next step's blocks and writes finished ones back during later steps), and " +
                 own_words(words, own) + " touches those elements; use a buffer of the body's own, or give the " +
                 "operand Memory::any (pl.ANY) and copy it by hand"},
            {spec_line(copy), spec}};
  }
  return {{own.line, "wait for " + own_words(words, own) + " before the body returns: the pipeline starts " +
                         named(copy) +
                         " after the body of its grid point returns, ordered only after what the body waited for"}};
}

}  // namespace

bool pipeline_dma(const TraceRecorder& recorder, const RacingAccess& access) {
  return copy_of(recorder, access.dma).origin != nullptr;
}

std::vector<FixCandidate> pipeline_fixes(const TraceRecorder& recorder, const Phrases& words, const RacingAccess& first,
                                         const RacingAccess& second) {
  const PipelineCopy a = copy_of(recorder, first.dma), b = copy_of(recorder, second.dma);
  if (a.origin != nullptr && b.origin != nullptr) return both_pipelines(words, first, a, second, b);
  if (b.origin != nullptr) return pipeline_and_kernel(words, second, b, first);
  if (a.origin != nullptr) return pipeline_and_kernel(words, first, a, second);
  return {};
}

}  // namespace weft::sim
