#pragma once
// State of a binding's that lives per fiber and must be current while the fiber runs: the
// Python package gives each core its own interpreter thread state (python/native/
// python_fiber.hpp). The fiber calls `entering` right before each switch into it (a resume,
// and the switch that unwinds it) and `left` right after it switched back, both on the
// resumer's side; nothing else of the fiber changes.

namespace weft::scheduler {

class FiberHooks {
 public:
  virtual ~FiberHooks() = default;
  virtual void entering() = 0;
  virtual void left() = 0;
};

}  // namespace weft::scheduler
