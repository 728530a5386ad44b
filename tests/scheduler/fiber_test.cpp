// Fibers: a body runs only while resumed, stops at each suspend, and finishes; destroying an
// unfinished fiber unwinds its stack; stacks are pooled and reused.

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "scheduler/fiber/fiber.hpp"
#include "scheduler/fiber/fiber_backend.hpp"

namespace {

using weft::scheduler::Fiber;
using weft::scheduler::FiberBackend;
using weft::scheduler::ForcedUnwind;
using weft::scheduler::make_fiber;
using weft::scheduler::StackPool;

constexpr std::size_t stack_bytes = 64 * 1024;

// Every test runs on both backends (scheduler/fiber/fiber_backend.hpp).
const char* backend_name(FiberBackend backend) {
  return backend == FiberBackend::context ? "backend context" : "backend boost_fiber";
}

// Appends to a log when destroyed, to see which stack objects were unwound.
struct Guard {
  std::vector<std::string>* log;
  std::string name;
  ~Guard() { log->push_back("~" + name); }
};

}  // namespace

TEST_CASE("A fiber runs to its first suspend, resumes where it stopped, and finishes", "[scheduler]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  std::vector<std::string> log;
  Fiber* self = nullptr;
  auto fiber = make_fiber(backend, pool, [&] {
    log.push_back("start");
    self->suspend();
    log.push_back("middle");
    self->suspend();
    log.push_back("end");
  });
  self = fiber.get();
  CHECK(log.empty());  // constructing runs nothing
  CHECK_FALSE(fiber->finished());

  fiber->resume();
  CHECK(log == std::vector<std::string>{"start"});
  CHECK_FALSE(fiber->finished());
  log.push_back("scheduler");

  fiber->resume();
  CHECK(log == std::vector<std::string>{"start", "scheduler", "middle"});
  CHECK_FALSE(fiber->finished());

  fiber->resume();
  CHECK(log == std::vector<std::string>{"start", "scheduler", "middle", "end"});
  CHECK(fiber->finished());
}

TEST_CASE("Local state on a fiber's stack survives its suspensions", "[scheduler]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  std::vector<int> seen;
  Fiber* self = nullptr;
  auto fiber = make_fiber(backend, pool, [&] {
    int total = 0;
    for (int i = 1; i <= 5; ++i) {
      total += i;
      seen.push_back(total);
      self->suspend();
    }
  });
  self = fiber.get();
  int resumes = 0;
  while (!fiber->finished()) {
    fiber->resume();
    ++resumes;
  }
  CHECK(resumes == 6);  // five suspensions, then the return
  CHECK(seen == std::vector<int>{1, 3, 6, 10, 15});
}

TEST_CASE("Two fibers interleave only as the caller resumes them", "[scheduler]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  std::string trace;
  std::unique_ptr<Fiber> a, b;
  a = make_fiber(backend, pool, [&] {
    trace += "a1 ";
    a->suspend();
    trace += "a2 ";
  });
  b = make_fiber(backend, pool, [&] {
    trace += "b1 ";
    b->suspend();
    trace += "b2 ";
  });
  b->resume();
  a->resume();
  a->resume();
  b->resume();
  CHECK(trace == "b1 a1 a2 b2 ");
  CHECK(a->finished());
  CHECK(b->finished());
  CHECK(pool.allocated() == 2);
}

TEST_CASE("Destroying an unfinished fiber runs the destructors of its stack objects", "[scheduler]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  std::vector<std::string> log;
  bool saw_unwind = false;
  {
    Fiber* self = nullptr;
    auto fiber = make_fiber(backend, pool, [&] {
      Guard outer{&log, "outer"};
      try {
        Guard inner{&log, "inner"};
        self->suspend();
        log.push_back("not reached");
      } catch (const ForcedUnwind&) {
        saw_unwind = true;
        throw;  // a body must let the unwind through
      }
    });
    self = fiber.get();
    fiber->resume();
    CHECK(log.empty());
    CHECK_FALSE(fiber->finished());
    fiber.reset();
  }
  CHECK(saw_unwind);
  CHECK(log == std::vector<std::string>{"~inner", "~outer"});
  // The unwound fiber's stack went back to the pool and is reused.
  CHECK(pool.allocated() == 1);
  bool ran = false;
  auto next = make_fiber(backend, pool, [&] { ran = true; });
  next->resume();
  CHECK(ran);
  CHECK(pool.allocated() == 1);
}

TEST_CASE("Destroying a fiber that never ran does not run its body", "[scheduler]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  bool ran = false;
  {
    auto fiber = make_fiber(backend, pool, [&] { ran = true; });
  }
  CHECK_FALSE(ran);
}

TEST_CASE("The stack pool reuses one stack for many sequential fibers", "[scheduler]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  CHECK(pool.allocated() == 0);
  int finished = 0;
  for (int i = 0; i < 200; ++i) {
    CAPTURE(i);
    Fiber* self = nullptr;
    auto fiber = make_fiber(backend, pool, [&] {
      self->suspend();
      ++finished;
    });
    self = fiber.get();
    fiber->resume();
    if (i % 2 == 0) fiber->resume();  // every other fiber is destroyed unfinished
    REQUIRE(pool.allocated() == 1);
  }
  CHECK(finished == 100);
  CHECK(pool.allocated() == 1);
}

TEST_CASE("The stack pool allocates only as many stacks as fibers alive at once", "[scheduler]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  for (int round = 0; round < 5; ++round) {
    std::vector<std::unique_ptr<Fiber>> fibers;
    for (int i = 0; i < 4; ++i) fibers.push_back(make_fiber(backend, pool, [] {}));
    for (auto& fiber : fibers) fiber->resume();
    CHECK(pool.allocated() == 4);
  }
}

TEST_CASE("A fiber's stack is large enough for real work", "[scheduler]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  long sum = 0;
  auto fiber = make_fiber(backend, pool, [&] {
    std::vector<long> values(10'000);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<long>(i);
    char local[16 * 1024];
    for (std::size_t i = 0; i < sizeof local; ++i) local[i] = static_cast<char>(i);
    for (long v : values) sum += v;
    sum += local[100];
  });
  fiber->resume();
  CHECK(fiber->finished());
  CHECK(sum == 49'995'000L + 100);
}
