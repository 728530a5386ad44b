#include "sim/plugin/kernel_library.hpp"

#include <dlfcn.h>

#include <string>

#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& why) {
  throw ConfigError(path.string(), 0, 0, "", why);
}

}  // namespace

void KernelLibrary::Close::operator()(void* handle) const { dlclose(handle); }

KernelLibrary::KernelLibrary(const std::filesystem::path& path) : path_(path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) refuse(path, "no such kernel library (a shared library file)");
  // An absolute path, so that dlopen never searches the library path for a bare name.
  const std::string file = std::filesystem::absolute(path).string();
  handle_.reset(dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (!handle_) refuse(path, std::string("cannot load this kernel library: ") + dlerror());
  dlerror();  // clear any earlier message before the lookup
  void* const entry = dlsym(handle_.get(), plugin_entry_point);
  if (entry == nullptr)
    refuse(path, std::string("no entry point '") + plugin_entry_point +
                     "' (a kernel library defines it with WEFT_PLUGIN, sim/api/plugin.hpp)");
  plugin_ = reinterpret_cast<const WeftPlugin* (*)()>(entry)();
  const std::string built_with = plugin_ != nullptr && plugin_->weft_version != nullptr ? plugin_->weft_version : "";
  if (built_with != WEFT_VERSION)
    refuse(path, "built against weft " + (built_with.empty() ? std::string("of no known version") : built_with) +
                     ", but this is weft " + WEFT_VERSION + ": rebuild it against this weft");
  code_.emplace(entry);
}

ScenarioRegistry KernelLibrary::scenarios() const {
  ScenarioRegistry scenarios;
  try {
    plugin_->add_scenarios(&scenarios);
  } catch (const std::exception& error) {
    refuse(path_, std::string("listing its scenarios threw: ") + error.what());
  } catch (...) {
    refuse(path_, "listing its scenarios threw an exception of unknown type");
  }
  return scenarios;
}

}  // namespace weft::sim
