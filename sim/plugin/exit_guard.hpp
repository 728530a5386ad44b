#pragma once
// Exit status 0 means that every execution gave the expected verdict, so code that is not
// weft's (a kernel, a kernel library's initialisers, entry point or destructors, a scenario's
// setup or check) must not end the process with a status of its own: `exit(0)` in a kernel
// would otherwise turn a sweep green.
//
// - While an ExitGuard lives (weft::main holds one around the command), an exit() or
//   quick_exit() other than weft's own return from main ends the process at once (_exit) with
//   status 3 and a message naming whose code called it: the core and the scenario, or the
//   scenario alone (outside a kernel), or the kernel library being loaded (then status 2: the
//   library is wrong).
// - While a LibraryCode lives, one kernel library's code runs on weft's behalf outside any
//   execution (its initialisers in dlopen, its entry point, its listing of scenarios, its
//   destructors in dlclose). A crash there (SIGSEGV, SIGBUS, SIGILL, SIGFPE, or SIGABRT, as from
//   an exception thrown out of an initialiser) ends the process with status 2 and a message
//   naming the library, instead of a bare signal; the handlers weft displaced are put back
//   after.
//
// Process-wide state, read by the exit and signal handlers: whether a guard is armed, the path
// of the library whose code runs (a fixed buffer, so a signal handler can print it) and what the
// command runs (set by note_scenario). _exit() and a signal from outside cannot be caught.

#include <string>

namespace weft::sim {

class ExitGuard {
 public:
  ExitGuard();
  ~ExitGuard();
  ExitGuard(const ExitGuard&) = delete;
  ExitGuard& operator=(const ExitGuard&) = delete;
};

// What the command runs, for the message ("scenario 'ring' of kernel library ./libk.so").
void note_scenario(const std::string& description);

class LibraryCode {
 public:
  explicit LibraryCode(const std::string& path);
  ~LibraryCode();
  LibraryCode(const LibraryCode&) = delete;
  LibraryCode& operator=(const LibraryCode&) = delete;
};

}  // namespace weft::sim
