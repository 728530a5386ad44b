#pragma once
// The spin reduction's state over an execution's cores (the rule is poll_window.hpp's, the
// contract docs/semantics.md §6): each core's window of reads since its last effect, which cores
// it blocks (the pollers), and which of them the last step released.
//
// Invariants: polling() lists, in the order they were blocked, exactly the cores whose
// polling(core) is true; a core is released (released(core)) from the step whose change
// unblocked it until its own next step starts.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/poll_window.hpp"

namespace weft::sim {

class SpinReduction {
 public:
  explicit SpinReduction(std::size_t cores) : windows_(cores), flags_(cores) {}

  // On by default; off, the windows stay empty and nothing is ever spinning.
  void set_on(bool on) { on_ = on; }
  bool on() const { return on_; }

  // After core `global`'s operation: a read a polling loop may repeat (`target`), or an effect.
  void note_read(std::size_t global, const PollTarget& target, const model::Machine& machine) {
    if (on_) windows_[global].read(target, machine);
  }
  void note_effect(std::size_t global) {
    if (on_) windows_[global].clear();
  }
  // Whether core `global`, standing at a read of `target` (nothing: at no such read), would
  // repeat its last iteration with every value unchanged.
  bool spinning(std::size_t global, const PollTarget& target, const model::Machine& machine) const {
    return windows_[global].spinning(target, machine);
  }
  bool spinning(std::size_t global, const std::optional<PollTarget>& target, const model::Machine& machine) const {
    return target && spinning(global, *target, machine);
  }
  // Whether the check is worth making: on, and the core has read something since its last effect.
  bool may_spin(std::size_t global) const { return on_ && !windows_[global].empty(); }

  // Core `global`'s status after a step: blocked by the reduction (`spins`) or not; a core
  // that stops being blocked while unfinished is released.
  void set_polling(std::size_t global, bool spins, bool finished) {
    if (spins != flags_[global].polling) change_polling(global, spins, finished);
  }
  bool polling(std::size_t global) const { return flags_[global].polling; }
  const std::vector<int>& polling() const { return polling_; }
  bool released(std::size_t global) const { return flags_[global].released; }
  // The cores the step under way released (cleared as each step starts).
  const std::vector<int>& released_now() const { return released_now_; }
  void start_step() { released_now_.clear(); }
  void start_core_step(std::size_t global) { flags_[global].released = false; }

  // For a report of a blocked poller: what it keeps reading (PollWindow::describe).
  std::string describe(std::size_t global, const model::Machine& machine) const {
    return windows_[global].describe(machine);
  }

 private:
  void change_polling(std::size_t global, bool spins, bool finished);

  // Per core. The flags apart from the windows, a few bytes each: every step writes one and
  // every refresh reads one.
  struct Flags {
    bool polling = false;
    bool released = false;
  };
  std::vector<PollWindow> windows_;
  std::vector<Flags> flags_;
  std::vector<int> polling_;
  std::vector<int> released_now_;
  bool on_ = true;
};

}  // namespace weft::sim
