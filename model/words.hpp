#pragma once
// The words every report, explanation, trace, timeline and JSON text uses for the machine's
// facts: one spelling per thing, made here and nowhere else. A caller hands in facts (ids,
// indices, what the kernel called something) and gets the words; model/topology.hpp,
// model/buffer.hpp and model/semaphores.hpp name their objects through these, and sim/trace and
// sim/explain through those or directly. docs/decisions/one-vocabulary.md lists the spellings.
//
// Invariants: the same facts give the same words (no state, no locale); a spelling never
// depends on where it is printed; the short forms of a schedule string (c3, r5, w5) are a
// schedule's syntax, not words, and are not made here.

#include <string>
#include <string_view>

namespace weft::model::words {

std::string device(int device);                              // "device 5"
std::string core(int device, int core);                      // "device 5 core 0"
std::string core_of(int global_core, int cores_per_device);  // the same, from a global core id
std::string dma(int id);                                     // "DMA 17"
std::string dma_lane(int lane);                              // "DMA lane 0" (a timeline's row of DMAs)
// "semaphore 2001 'capacity'", "barrier semaphore 0", "sync_copy semaphore 1999"; `called` is
// what the kernel calls it (model/naming.hpp), or empty.
std::string semaphore(int id, std::string_view called);
std::string cell(int device, int core);                      // "cell of device 5 core 0"
std::string cell_of(int global_core, int cores_per_device);  // the same, from a global core id
// "vmem buffer 100 'recv' f32[2, 8, 128] on device 5 core 0" (a shared space has no core: -1).
std::string buffer(std::string_view space, int id, std::string_view called, std::string_view type_and_shape, int device,
                   int core);

}  // namespace weft::model::words
