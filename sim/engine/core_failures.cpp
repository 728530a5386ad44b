#include "sim/engine/core_failures.hpp"

#include <cstdio>

#include "sim/engine/fault_text.hpp"

namespace weft::sim {
namespace {

std::string since(model::SourceLine last) {
  if (*last.file == '\0') return "before its first visible operation";
  return "after its last visible operation at " + model::to_string(last);
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

}  // namespace

model::Failure stack_overflow_failure(model::CoreId core, std::size_t stack_bytes, model::SourceLine last) {
  return {model::Verdict::kernel_error, model::to_string(core) + " overflowed its fiber stack (" +
                                            std::to_string(stack_bytes) +
                                            " bytes, scheduler.stack_bytes) in its own code, " + since(last) +
                                            " (unbounded recursion?); its fiber was abandoned"};
}

model::Failure stack_exhausted_failure(model::CoreId core, std::size_t stack_bytes, std::size_t headroom_bytes,
                                       model::SourceLine at) {
  return {model::Verdict::kernel_error, model::to_string(core) + " overflowed its fiber stack: less than " +
                                            std::to_string(headroom_bytes) + " of its " + std::to_string(stack_bytes) +
                                            " bytes (scheduler.stack_bytes) were left at a visible operation at " +
                                            model::to_string(at) + " (unbounded recursion?)"};
}

model::Failure fault_failure(model::CoreId core, const scheduler::Fault& fault, model::SourceLine last) {
  return {model::Verdict::kernel_error, model::to_string(core) + " raised " + fault_text(fault) + " in its own code, " +
                                            since(last) + "; its fiber was abandoned"};
}

model::Failure watchdog_failure(model::CoreId core, double watchdog_seconds, model::SourceLine last) {
  return {
      model::Verdict::kernel_error,
      model::to_string(core) + " ran its own code for " + seconds_text(watchdog_seconds) +
          " s without a visible operation, " + since(last) +
          " (an endless loop?); the watchdog ended it (--watchdog SECONDS, scheduler.watchdog_seconds; 0 disables)"};
}

std::string swallowed_teardown(model::CoreId core, model::SourceLine went_on_at) {
  std::string text = model::to_string(core) +
                     " caught weft's teardown and did not rethrow it (a catch (...) in a kernel must rethrow)";
  if (*went_on_at.file != '\0')
    text += ": it went on to a visible operation at " + model::to_string(went_on_at) + ", and its fiber was abandoned";
  return text;
}

}  // namespace weft::sim
