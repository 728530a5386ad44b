#include "sim/trace/describe.hpp"

#include "model/semaphores.hpp"

namespace weft::sim {
namespace {

using Kind = TraceEvent::Kind;

std::string slice_of(const TraceRecorder& recorder, int buffer, const model::Rect& rect) {
  if (buffer < 0) return "?";
  return buffer_name(recorder.buffers()[static_cast<std::size_t>(buffer)]) + " " + model::to_string(rect);
}

std::string cell_of(const TraceRecorder& recorder, const TraceRecord& record) {
  return semaphore_name(recorder, record.semaphore_id) + ", " +
         cell_name(record.target_core, recorder.cores_per_device());
}

// " (fetch of in[0] 'x' for grid point (0, 1))" for a library's DMA, else nothing.
std::string of_origin(const TraceRecord& record) { return record.origin.empty() ? "" : " (" + record.origin + ")"; }

std::string signed_amount(std::int64_t amount, char sign) { return std::string(1, sign) + std::to_string(amount); }

// A load, store or swap: its slice, and how much of it a mask kept (masked ones count it).
std::string access_of(const TraceRecorder& recorder, const TraceRecord& record) {
  std::string text = slice_of(recorder, record.buffer, record.rect);
  if (record.amount > 0 && record.amount < record.rect.volume())
    text += ", mask keeps " + std::to_string(record.amount) + " of " + std::to_string(record.rect.volume());
  return text;
}

}  // namespace

std::string_view kind_name(TraceEvent::Kind kind) {
  using Kind = TraceEvent::Kind;
  switch (kind) {
    case Kind::allocate:
      return "allocate";
    case Kind::load:
      return "load";
    case Kind::store:
      return "store";
    case Kind::swap:
      return "swap";
    case Kind::signal:
      return "signal";
    case Kind::wait:
      return "wait";
    case Kind::read:
      return "read";
    case Kind::barrier_arrive:
      return "barrier_arrive";
    case Kind::barrier_leave:
      return "barrier_leave";
    case Kind::dma_start:
      return "dma_start";
    case Kind::dma_read:
      return "dma_read";
    case Kind::dma_write:
      return "dma_write";
    case Kind::scope_end:
      return "scope_end";
    case Kind::launch_end:
      return "launch_end";
    case Kind::finish:
      return "finish";
  }
  return "other";
}

std::string core_name(int global_core, int cores_per_device) {
  return model::words::core_of(global_core, cores_per_device);
}

std::string cell_name(int global_core, int cores_per_device) {
  return model::words::cell_of(global_core, cores_per_device);
}

std::string buffer_name(const model::BufferInfo& info) { return model::describe(info); }

std::string semaphore_name(const TraceRecorder& recorder, int semaphore_id) {
  return model::words::semaphore(semaphore_id, recorder.semaphore_called(semaphore_id));
}

std::string record_title(const TraceRecorder& recorder, const TraceRecord& record) {
  switch (record.kind) {
    case Kind::allocate:
      return "allocate";
    case Kind::load:
      return "load";
    case Kind::store:
      return "store";
    case Kind::swap:
      return "swap";
    case Kind::signal:
      return "signal " + semaphore_name(recorder, record.semaphore_id);
    case Kind::wait:
      return "wait " + semaphore_name(recorder, record.semaphore_id);
    case Kind::read:
      return "read " + semaphore_name(recorder, record.semaphore_id);
    case Kind::barrier_arrive:
      return "arrive at the device barrier";
    case Kind::barrier_leave:
      return "leave the device barrier";
    case Kind::dma_start:
      return "start " + model::words::dma(record.dma) + of_origin(record);
    case Kind::dma_read:
      return model::words::dma(record.dma) + of_origin(record) + " read";
    case Kind::dma_write:
      return model::words::dma(record.dma) + of_origin(record) + " write";
    case Kind::scope_end:
      return "end the scope of run_scoped";
    case Kind::launch_end:
      return "end launch " + std::to_string(record.amount);
    case Kind::finish:
      return "finish";
  }
  return "?";
}

std::string record_details(const TraceRecorder& recorder, const TraceRecord& record) {
  const int cpd = recorder.cores_per_device();
  const std::string count = std::to_string(record.count);
  const auto signal_part = [&] {
    return record.semaphore_id < 0
               ? std::string()
               : "; signal " + cell_of(recorder, record) + " " + signed_amount(record.amount, '+') + " -> " + count;
  };
  switch (record.kind) {
    case Kind::allocate:
      if (record.buffer >= 0) return buffer_name(recorder.buffers()[static_cast<std::size_t>(record.buffer)]);
      if (record.amount > 1)  // an array of semaphores, consecutive ids
        return semaphore_name(recorder, record.semaphore_id) + ".." +
               std::to_string(record.semaphore_id + record.amount - 1);
      return semaphore_name(recorder, record.semaphore_id);
    case Kind::load:
    case Kind::store:
    case Kind::swap:
      return access_of(recorder, record);
    case Kind::signal:
      return cell_name(record.target_core, cpd) + " " + signed_amount(record.amount, '+') + " -> " + count;
    case Kind::wait:
      return cell_name(record.target_core, cpd) + " " + signed_amount(record.amount, '-') + " -> " + count;
    case Kind::read:
      return cell_name(record.target_core, cpd) + " = " + count;
    case Kind::barrier_arrive:
      return "+1 to the barrier cell of each of the device's " + std::to_string(record.amount) +
             " cores; own cell -> " + count;
    case Kind::barrier_leave:
      return "barrier " + cell_name(record.target_core, cpd) + " " + signed_amount(record.amount, '-') + " -> " + count;
    case Kind::dma_start:
      return slice_of(recorder, record.buffer, record.rect) + " -> " +
             slice_of(recorder, record.target_buffer, record.target_rect) + ", " + std::to_string(record.amount) +
             " bytes, recv " + cell_name(record.target_core, cpd);
    case Kind::dma_read:
      return slice_of(recorder, record.buffer, record.rect) + signal_part();
    case Kind::dma_write:
      return slice_of(recorder, record.target_buffer, record.target_rect) + signal_part();
    case Kind::scope_end:
      if (record.buffer < 0) return "frees nothing";
      return "frees " + buffer_name(recorder.buffers()[static_cast<std::size_t>(record.buffer)]) +
             (record.amount > 1 ? " and " + std::to_string(record.amount - 1) + " more" : std::string());
    case Kind::launch_end:
      return "its scratch freed, its semaphore ids free again; arrives at the device barrier (own cell -> " + count +
             ")";
    case Kind::finish:
      return "the kernel returned";
  }
  return "?";
}

std::string site_who(const model::FailureSite& site, int cores_per_device) {
  if (site.who.kind == model::Accessor::Kind::core) return core_name(site.who.index, cores_per_device);
  return model::words::dma(site.who.index);
}

std::string site_label(const model::FailureSite& site, int cores_per_device) {
  std::string text = site_who(site, cores_per_device);
  if (site.line.line > 0) text += " at " + model::to_string(site.line);
  return text + ", step " + std::to_string(site.step) + ": " + site.what;
}

}  // namespace weft::sim
