#pragma once
// The scenarios one command can name, each with where it comes from: the program's own
// ("built in") and those of the kernel libraries the command loads (--kernels, a scenario
// file's `kernels` key). A catalog is made for one command and dropped after it; nothing of it
// is global, so two commands in one process (tests) never see each other's libraries.
//
// Names are unique: a scenario whose name is taken is an error naming the library and where
// the name was taken first. A library named twice (by --kernels and by the scenario file, or
// by two spellings of one path) is loaded once.
//
// Order of destruction: the scenarios (whose functions are code in the libraries) go before
// the libraries that hold their code; an exception thrown by a library's code must not
// outlive the catalog, so keep the catalog in a scope around the command's error handling.

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "sim/api/scenario.hpp"
#include "sim/plugin/kernel_library.hpp"

namespace weft::sim {

// The origin of the program's own scenarios.
inline const std::string builtin_origin = "built in";

// Reads the scenarios of a script in another language (a `.py` file: python/), or throws
// ConfigError naming it.
using ScriptLoader = std::function<ScenarioRegistry(const std::filesystem::path&)>;

class Catalog {
 public:
  // Scripts are loaded with `scripts`; without one, naming a script is an error saying so.
  explicit Catalog(ScriptLoader scripts = {}) : scripts_(std::move(scripts)) {}

  // Adds scenarios of the program itself (builtin_origin).
  void add_builtin(ScenarioRegistry scenarios);
  // Loads a kernel library, or a script (a `.py` file), and adds its scenarios (nothing when it
  // is already loaded). Throws ConfigError naming the library (kernel_library.hpp) or script,
  // or a scenario name already taken.
  void load(const std::filesystem::path& library);

  const ScenarioRegistry& scenarios() const { return scenarios_; }
  // Where scenarios()[index] comes from: builtin_origin, or the path of its library as given.
  const std::string& origin(std::size_t index) const { return origins_[index]; }

 private:
  void add(ScenarioRegistry scenarios, const std::string& origin);

  ScriptLoader scripts_;
  std::vector<KernelLibrary> libraries_;       // declared first: destroyed after the scenarios
  std::vector<std::filesystem::path> loaded_;  // the canonical path of each library
  ScenarioRegistry scenarios_;
  std::vector<std::string> origins_;  // one per scenario
};

}  // namespace weft::sim
