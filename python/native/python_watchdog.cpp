#include "python/native/python_watchdog.hpp"

#include <algorithm>

namespace weft::python {
namespace {

PyObject* watchdog_timeout = nullptr;  // weft._weft.WatchdogTimeout, made once at import

}  // namespace

bool PythonWatchdog::add_watchdog_type(PyObject* module) {
  watchdog_timeout = PyErr_NewExceptionWithDoc(
      "weft._weft.WatchdogTimeout",
      "a core ran its own code for longer than the watchdog's budget without a visible operation", PyExc_BaseException,
      nullptr);
  return watchdog_timeout != nullptr && PyModule_AddObjectRef(module, "WatchdogTimeout", watchdog_timeout) == 0;
}

PythonWatchdog::PythonWatchdog(double seconds) : budget_(seconds), thread_([this] { watch(); }) {}

PythonWatchdog::~PythonWatchdog() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  // The watch may be waiting for the GIL, which the destroying thread may hold: let it go.
  Py_BEGIN_ALLOW_THREADS thread_.join();
  Py_END_ALLOW_THREADS
}

void PythonWatchdog::started(PyThreadState* state) {
  const std::lock_guard lock(mutex_);
  runs_.push_back({state, std::chrono::steady_clock::now(), false});
}

void PythonWatchdog::stopped(PyThreadState* state) {
  const std::lock_guard lock(mutex_);
  const auto run = std::find_if(runs_.begin(), runs_.end(), [state](const Run& r) { return r.state == state; });
  if (run != runs_.end()) runs_.erase(run);
}

void PythonWatchdog::watch() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::milliseconds(50));
    if (stop_) break;
    const auto now = std::chrono::steady_clock::now();
    const bool overdue = std::any_of(runs_.begin(), runs_.end(),
                                     [&](const Run& run) { return !run.interrupted && now - run.since > budget_; });
    if (!overdue) continue;
    lock.unlock();
    const PyGILState_STATE gil = PyGILState_Ensure();  // the spinning core hands the GIL over
    lock.lock();
    // Under the GIL no core starts or stops: the runs are those of now.
    for (Run& run : runs_) {
      if (run.interrupted || std::chrono::steady_clock::now() - run.since <= budget_) continue;
      run.interrupted = true;
      Py_INCREF(watchdog_timeout);
      Py_XSETREF(run.state->async_exc, watchdog_timeout);
    }
    lock.unlock();
    PyGILState_Release(gil);
    lock.lock();
  }
}

}  // namespace weft::python
