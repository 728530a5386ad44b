#pragma once
// The words every trace writer uses for cores, records and failure sites, so the text listing,
// the Chrome trace and the HTML timeline name things alike; a core, DMA, semaphore, cell or
// buffer is spelled by model/words.hpp, as in reports.

#include <string>

#include "model/failure.hpp"
#include "model/words.hpp"
#include "sim/trace/recorder.hpp"

namespace weft::sim {

std::string_view kind_name(TraceEvent::Kind kind);             // "dma_start"
std::string core_name(int global_core, int cores_per_device);  // "device 1 core 0"
std::string cell_name(int global_core, int cores_per_device);  // "cell of device 1 core 0"
std::string buffer_name(const model::BufferInfo& info);        // "hbm buffer 3 'x' f32[8, 128] on device 1"
// "semaphore 2001 'capacity'", "semaphore 2002 'ring.cpp:23'" (what the kernel calls it),
// "barrier semaphore 0"
std::string semaphore_name(const TraceRecorder& recorder, int semaphore_id);
// A record in a few words: "store", "wait semaphore 2001 'capacity'", "DMA 3 read".
std::string record_title(const TraceRecorder& recorder, const TraceRecord& record);
// A record in one line, without its step and actor: what it touched, the cell and its count.
std::string record_details(const TraceRecorder& recorder, const TraceRecord& record);
// Who a failure site is: "device 5 core 0" or "DMA 17".
std::string site_who(const model::FailureSite& site, int cores_per_device);
// "DMA 25 at ring.cpp:30, step 162: DMA write [0:1, 0:8, 0:128]"
std::string site_label(const model::FailureSite& site, int cores_per_device);

}  // namespace weft::sim
