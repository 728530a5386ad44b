#include "app/python_handoff.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "sim/config/config_error.hpp"

namespace weft::app {
namespace {

std::filesystem::path executable_folder() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : self.parent_path();
}

std::optional<std::filesystem::path> package_folder() {
  const auto here = executable_folder();
  const std::string version = WEFT_PYTHON_VERSION;  // "3.11"
  for (const auto& candidate : {here / "python", here / ".." / "lib" / "python3" / "dist-packages",
                                here / ".." / "lib" / ("python" + version) / "site-packages",
                                here / ".." / "lib" / ("python" + version) / "dist-packages"}) {
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate / "weft" / "__main__.py", error))
      return std::filesystem::weakly_canonical(candidate, error);
  }
  return std::nullopt;
}

}  // namespace

sim::ScriptLoader python_handoff(int argc, char** argv) {
  return [argc, argv](const std::filesystem::path& script) -> sim::ScenarioRegistry {
    const auto package = package_folder();
    if (!package)
      throw sim::ConfigError(script.string(), 0, 0, "",
                             "a Python script, and no weft Python package beside this executable to run it "
                             "(build with python3-dev, pybind11-dev, python3-numpy and python3-greenlet: "
                             "docs/python.md)");
    std::string path = package->string();
    if (const char* existing = std::getenv("PYTHONPATH"); existing != nullptr && *existing != '\0')
      path += std::string(":") + existing;
    setenv("PYTHONPATH", path.c_str(), 1);
    setenv("WEFT_PROGRAM", argc > 0 ? argv[0] : "weft", 1);  // reproduce lines name the program the user ran
    std::vector<char*> arguments{const_cast<char*>(WEFT_PYTHON_EXECUTABLE), const_cast<char*>("-m"),
                                 const_cast<char*>("weft")};
    for (int i = 1; i < argc; ++i) arguments.push_back(argv[i]);
    arguments.push_back(nullptr);
    execv(WEFT_PYTHON_EXECUTABLE, arguments.data());
    throw sim::ConfigError(
        script.string(), 0, 0, "",
        std::string("a Python script, and the interpreter ") + WEFT_PYTHON_EXECUTABLE + " cannot be started to run it");
  };
}

}  // namespace weft::app
