#include "python/native/python_fiber.hpp"

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "scheduler/fiber/context_fiber.hpp"

namespace weft::python {
namespace {

// A Python thread state for the life of a thread Python did not start, without the GIL.
class ThreadState {
 public:
  ThreadState() : gil_(PyGILState_Ensure()), saved_(PyEval_SaveThread()) {}
  ~ThreadState() {
    PyEval_RestoreThread(saved_);
    PyGILState_Release(gil_);
  }
  ThreadState(const ThreadState&) = delete;
  ThreadState& operator=(const ThreadState&) = delete;

 private:
  PyGILState_STATE gil_;
  PyThreadState* saved_;
};

class CoreThreadState final : public scheduler::FiberHooks {
 public:
  explicit CoreThreadState(PythonWatchdog* watchdog) : watchdog_(watchdog) {}
  CoreThreadState(const CoreThreadState&) = delete;
  CoreThreadState& operator=(const CoreThreadState&) = delete;
  ~CoreThreadState() override {
    if (state_ == nullptr) return;
    const PyGILState_STATE gil = PyGILState_Ensure();
    // A core abandoned mid-kernel (a swallowed teardown, a stack overflow) still has frames, on
    // a stack that is gone: its state is left alone (it points into that stack: not read).
    if (state_->cframe == &state_->root_cframe) {
      PyThreadState_Clear(state_);
      PyThreadState_Delete(state_);
    }
    PyGILState_Release(gil);
  }

  void entering() override {
    keep_thread_state();
    gil_ = PyGILState_Ensure();
    if (state_ == nullptr) state_ = PyThreadState_New(PyInterpreterState_Get());
    outer_ = PyThreadState_Swap(state_);
    if (watchdog_ != nullptr) watchdog_->started(state_);
  }
  void left() override {
    if (watchdog_ != nullptr) watchdog_->stopped(state_);
    PyThreadState_Swap(outer_);
    PyGILState_Release(gil_);
  }

 private:
  PyThreadState* state_ = nullptr;
  PyThreadState* outer_ = nullptr;
  PyGILState_STATE gil_{};
  PythonWatchdog* watchdog_;
};

}  // namespace

void keep_thread_state() {
  if (PyGILState_GetThisThreadState() != nullptr) return;
  thread_local ThreadState state;
}

std::unique_ptr<scheduler::Fiber> make_python_fiber(scheduler::StackPool& pool, std::function<void()> body,
                                                    PythonWatchdog* watchdog) {
  return std::make_unique<scheduler::ContextFiber>(pool, std::move(body), std::make_unique<CoreThreadState>(watchdog));
}

}  // namespace weft::python
