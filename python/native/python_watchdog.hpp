#pragma once
// The watchdog of Python kernels: a core that runs its own Python code for longer than the
// budget without reaching a visible operation gets the exception WatchdogTimeout raised in it
// (a BaseException: a kernel's `except Exception` lets it through), which ends the execution as
// a kernel_error naming the core and the line it spun at.
//
// The C++ watchdog (scheduler/fiber/watchdog.hpp) abandons a core from a signal handler, which
// could leave the interpreter mid-operation; this one asks the interpreter itself. Its thread
// takes the GIL (the spinning core's interpreter hands it over within its switch interval),
// sets the core's thread state's pending asynchronous exception, and gives the GIL back; the
// core raises it as soon as it runs Python again. It never picks, delays or orders a step: it
// reads a clock and ends only a run that would never end. A core spinning inside C code that
// keeps the GIL (a long numpy call) is interrupted when that call returns.

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace weft::python {

class PythonWatchdog {
 public:
  // `seconds` > 0: the budget of one run of a core's own code. The thread starts at once.
  explicit PythonWatchdog(double seconds);
  PythonWatchdog(const PythonWatchdog&) = delete;
  PythonWatchdog& operator=(const PythonWatchdog&) = delete;
  ~PythonWatchdog();

  // With the GIL, on the thread that runs the core: the core whose thread state is `state`
  // runs its own code from now on / stopped at a visible operation (or ended).
  void started(PyThreadState* state);
  void stopped(PyThreadState* state);

  // WatchdogTimeout, made when the module is imported (add_watchdog_type).
  static bool add_watchdog_type(PyObject* module);

 private:
  struct Run {
    PyThreadState* state;
    std::chrono::steady_clock::time_point since;
    bool interrupted;
  };
  void watch();

  const std::chrono::duration<double> budget_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::vector<Run> runs_;  // the cores running now, one per thread that runs executions
  std::thread thread_;
};

}  // namespace weft::python
