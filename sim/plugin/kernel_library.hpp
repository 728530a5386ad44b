#pragma once
// One kernel library (sim/api/plugin.hpp) opened for one command: dlopen'ed with every symbol
// bound at once (so a library that needs something this weft lacks fails here, not mid-run),
// its entry point found and its weft version checked before anything of it is called. Closing
// it (the destructor) unmaps its code: every scenario taken from it must be gone by then, and
// so must every exception object it threw (the Catalog keeps that order).
//
// While it is loaded, a rescue may abandon its code as it may the main program's
// (scheduler/fiber/kernel_code.hpp).
//
// Every way it can fail is a ConfigError whose source is the library's path: the file is
// missing, it is not a shared library this process can load (the loader's message: a missing
// symbol, another architecture), it has no `weft_plugin` entry point, or one that is not a
// function of the library (a data symbol), it was built against another weft version (both
// versions named), it gives no function of its own to list its scenarios (a null one), or
// listing its scenarios threw. Its code that runs outside an execution (initialisers, entry
// point, listing, destructors) runs under a LibraryCode (exit_guard.hpp): an exit or a crash
// there ends weft with exit 2 naming the library.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "scheduler/fiber/kernel_code.hpp"
#include "sim/api/plugin.hpp"

namespace weft::sim {

class KernelLibrary {
 public:
  explicit KernelLibrary(const std::filesystem::path& path);

  // The scenarios it defines (their code stays in the library: keep this object alive).
  ScenarioRegistry scenarios() const;

 private:
  struct Close {
    std::string path;  // named if its destructors end the process (exit_guard.hpp)
    void operator()(void* handle) const;
  };

  std::filesystem::path path_;
  std::unique_ptr<void, Close> handle_;
  const WeftPlugin* plugin_ = nullptr;
  // Its kernels' stack overflows and endless spins are rescued as a built-in kernel's are
  // (declared after the handle: forgotten before the library is closed).
  std::optional<scheduler::rescue::KernelCode> code_;
};

}  // namespace weft::sim
