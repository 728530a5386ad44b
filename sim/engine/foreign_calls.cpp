// weft's API called from code that is not the core's own kernel (execution.hpp's
// called_elsewhere). perform() and fail() compare the running fiber with the core's: one
// compare on the step path, everything here only when it differs.

#include <unistd.h>

#include <array>
#include <string>

#include "sim/engine/execution.hpp"

namespace weft::sim {
namespace {

void write_all(const std::string& text) {
  const char* at = text.data();
  for (std::size_t left = text.size(); left > 0;) {
    const ssize_t written = ::write(STDERR_FILENO, at, left);
    if (written <= 0) return;
    at += written;
    left -= static_cast<std::size_t>(written);
  }
}

}  // namespace

void Execution::called_elsewhere(int global, std::string_view call, model::SourceLine line) {
  const model::CoreId target = cores_[static_cast<std::size_t>(global)].core->id();
  const std::string where = *line.file == '\0' ? std::string() : " at " + model::to_string(line);
  const scheduler::Fiber* caller = scheduler::Fiber::current();
  for (std::size_t other = 0; other < cores_.size(); ++other) {
    if (caller == nullptr || cores_[other].fiber.get() != caller) continue;
    const model::CoreId culprit = cores_[other].core->id();
    fail(static_cast<int>(other),
         {model::Verdict::kernel_error, model::to_string(culprit) + "'s kernel used " + model::to_string(target) +
                                            "'s core: " + std::string(call) + where +
                                            " (a kernel may call only the core it was given)"});
  }
  write_all("weft: " + model::to_string(target) + "'s core " + std::string(call) + where +
            ", called from a thread that is not its kernel's (a std::thread the kernel started?): weft's API runs "
            "only on the kernel's own fiber, and the execution cannot be ended safely from another thread, so no "
            "verdict holds (exit 3)\n");
  _exit(3);
}

}  // namespace weft::sim
