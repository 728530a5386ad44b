#include "sim/engine/poll_window.hpp"

#include <algorithm>
#include <cstring>

#include "model/words.hpp"

namespace weft::sim {
namespace {

bool same_target(const PollTarget& a, const PollTarget& b) {
  return a.line.line == b.line.line && a.buffer == b.buffer && a.semaphore == b.semaphore &&
         a.global_core == b.global_core && a.rect == b.rect &&
         (a.line.file == b.line.file || std::strcmp(a.line.file, b.line.file) == 0);
}

}  // namespace

bool PollWindow::value_now(const PollTarget& target, const model::Machine& machine, Value& value) {
  if (target.buffer == nullptr) {
    value.count = machine.semaphores().count(target.semaphore, target.global_core);
    return true;
  }
  const auto& info = target.buffer->info();
  if (target.buffer->freed || !target.rect.inside(info.shape)) return false;
  const std::int64_t bytes = target.rect.volume() * target.buffer->element_bytes();
  if (bytes > static_cast<std::int64_t>(value_bytes)) return false;
  target.buffer->read(target.rect, value.bytes.data());
  value.count = bytes;
  return true;
}

bool PollWindow::same_value(const PollTarget& target, const Value& a, const Value& b) {
  if (target.buffer == nullptr) return a.count == b.count;
  return a.count == b.count && std::memcmp(a.bytes.data(), b.bytes.data(), static_cast<std::size_t>(a.count)) == 0;
}

std::size_t PollWindow::find(const PollTarget& target) const {
  for (std::size_t k = 0; k < used_; ++k)
    if (same_target(entries_[k].target, target)) return k;
  return used_;
}

void PollWindow::read(const PollTarget& target, const model::Machine& machine) {
  const std::size_t at = find(target);
  if (at == used_) {
    // The first read of it in this window: its value is not kept (a loop's first iteration
    // costs nothing more than a lookup).
    if (used_ == capacity) {
      clear();  // a loop of more reads than the window holds is not reduced
      return;
    }
    Observation& first = entries_[used_++];  // its value is not read while it is not known
    first.target = target;
    first.known = first.stable = false;
    return;
  }
  Observation observation = entries_[at];
  Value now;
  if (!value_now(target, machine, now)) {
    clear();
    return;
  }
  observation.stable = observation.known && same_value(target, observation.value, now);
  observation.known = true;
  observation.value = now;
  // Kept in the order of the last reads: the entries after it are what was read since.
  std::move(entries_.begin() + static_cast<std::ptrdiff_t>(at + 1),
            entries_.begin() + static_cast<std::ptrdiff_t>(used_), entries_.begin() + static_cast<std::ptrdiff_t>(at));
  entries_[used_ - 1] = observation;
}

bool PollWindow::spinning(const PollTarget& target, const model::Machine& machine) const {
  const std::size_t at = find(target);
  if (at == used_) return false;
  for (std::size_t k = at; k < used_; ++k) {
    const Observation& observation = entries_[k];
    Value now;
    if (!observation.known || (k > at && !observation.stable) || !value_now(observation.target, machine, now) ||
        !same_value(observation.target, observation.value, now))
      return false;
  }
  return true;
}

std::string PollWindow::describe(const model::Machine& machine) const {
  std::string text;
  for (std::size_t k = 0; k < used_; ++k) {
    const PollTarget& target = entries_[k].target;
    if (!text.empty()) text += ", then ";
    if (target.buffer == nullptr) {
      text += machine.semaphores().describe(target.semaphore) + ", " +
              model::words::cell_of(target.global_core, machine.topology().cores_per_device()) + " (count " +
              std::to_string(machine.semaphores().count(target.semaphore, target.global_core)) + ")";
    } else {
      text += model::describe(target.buffer->info()) + model::to_string(target.rect);
    }
    text += " at " + model::to_string(target.line);
  }
  return text;
}

}  // namespace weft::sim
