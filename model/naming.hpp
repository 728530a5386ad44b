#pragma once
// What a kernel calls a buffer or a semaphore, for reports, traces and timelines: the name the
// kernel gave (`core.vmem<float>({8, 128}, "recv")`, `core.semaphore("capacity")`) or a host
// buffer's name, else the source line that allocated it ("ring.cpp:21"). Allocation keeps the
// given name and the line as they are; the words are made only when something is reported.

#include <string>
#include <string_view>

#include "model/failure.hpp"

namespace weft::model {

struct Naming {
  std::string_view name{};  // given by the kernel, or empty
  SourceLine site{};        // where the kernel allocated it (line 0: not a kernel allocation)
};

// The name, else the allocation site, else "" (a host setup's unnamed object, the barrier).
inline std::string called(const std::string& name, SourceLine site) {
  if (!name.empty()) return name;
  return site.line > 0 ? to_string(site) : std::string();
}

}  // namespace weft::model
