#include "scheduler/fiber/fiber_backend.hpp"

#include "scheduler/fiber/boost_fiber.hpp"
#include "scheduler/fiber/context_fiber.hpp"

namespace weft::scheduler {

std::unique_ptr<Fiber> make_fiber(FiberBackend backend, StackPool& pool, std::function<void()> body) {
  if (backend == FiberBackend::boost_fiber) return std::make_unique<BoostFiber>(pool, std::move(body));
  return std::make_unique<ContextFiber>(pool, std::move(body));
}

}  // namespace weft::scheduler
