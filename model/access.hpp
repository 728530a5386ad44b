#pragma once
// The single place every buffer access passes through: loads, stores and DMA phases each become
// one Access with its actor, rectangle and kernel source line. Race detection and tracing
// subscribe here; with no observer the cost is one branch.

#include "model/buffer.hpp"
#include "model/failure.hpp"

namespace weft::model {

struct Access {
  Accessor who{};
  const Buffer* buffer = nullptr;
  Rect rect{};
  bool is_write = false;
  SourceLine line{};
};

class AccessObserver {
 public:
  virtual ~AccessObserver() = default;
  // Returns a failure (a data race) to stop the execution, or nothing.
  virtual bool on_access(const Access& access, Failure& failure) = 0;
};

}  // namespace weft::model
