#pragma once
// Which library runs the cores' fibers (`[scheduler] fiber_backend`). Either way the weft
// scheduler makes every decision and a run gives byte-identical schedules, reports and traces
// (tests/cli/fiber_backend_test.cpp); the backends differ only in cost and in a few hundred bytes
// of each stack (docs/design-choices.md, "Two fiber backends").
//
//   context      Boost.Context (context_fiber.hpp): one bare context switch per resume and per
//                suspend. The default.
//   boost_fiber  Boost.Fiber (boost_fiber.hpp), driven through a scheduling algorithm that only
//                ever holds the one fiber weft resumed (sole_ready.hpp).
//
// This header names the choice only, so the configuration can hold it without pulling in either
// library; make_fiber (fiber_backend.cpp) builds a fiber of the chosen kind.

#include <cstdint>
#include <functional>
#include <memory>

namespace weft::scheduler {

enum class FiberBackend : std::uint8_t { context, boost_fiber };

class Fiber;
class StackPool;

// A fiber of `backend` that will run `body` on a stack from `pool` (nothing runs until resumed).
std::unique_ptr<Fiber> make_fiber(FiberBackend backend, StackPool& pool, std::function<void()> body);

}  // namespace weft::scheduler
