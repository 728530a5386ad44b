#include "sim/plugin/kernel_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdint>
#include <string>

#include "sim/config/config_error.hpp"
#include "sim/plugin/exit_guard.hpp"
#include "sim/plugin/version_rule.hpp"

namespace weft::sim {
namespace {

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& why) {
  throw ConfigError(path.string(), 0, 0, "", why);
}

// Whether `address` lies in an executable segment of the library `handle` names (not of the
// libraries it depends on, which dlsym searches too): a function of its own.
bool in_own_code(void* handle, const void* address) {
  link_map* map = nullptr;
  if (address == nullptr || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) return false;
  struct Search {
    const link_map* map;
    std::uintptr_t address;
    bool found;
  } search{map, reinterpret_cast<std::uintptr_t>(address), false};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto& wanted = *static_cast<Search*>(data);
        if (info->dlpi_addr != wanted.map->l_addr || info->dlpi_name == nullptr ||
            std::string(info->dlpi_name) != wanted.map->l_name)
          return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& header = info->dlpi_phdr[i];
          const std::uintptr_t begin = info->dlpi_addr + header.p_vaddr;
          if (header.p_type == PT_LOAD && (header.p_flags & PF_X) != 0 && wanted.address >= begin &&
              wanted.address < begin + header.p_memsz)
            wanted.found = true;
        }
        return 1;
      },
      &search);
  return search.found;
}

}  // namespace

void KernelLibrary::Close::operator()(void* handle) const {
  const LibraryCode running(path);  // its destructors
  dlclose(handle);
}

KernelLibrary::KernelLibrary(const std::filesystem::path& path) : path_(path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) refuse(path, "no such kernel library (a shared library file)");
  // An absolute path, so that dlopen never searches the library path for a bare name.
  const std::string file = std::filesystem::absolute(path).string();
  const LibraryCode running(path.string());  // its initialisers, and its entry point
  handle_ = std::unique_ptr<void, Close>(dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL), Close{path.string()});
  if (!handle_) refuse(path, std::string("cannot load this kernel library: ") + dlerror());
  dlerror();  // clear any earlier message before the lookup
  void* const entry = dlsym(handle_.get(), plugin_entry_point);
  if (entry == nullptr)
    refuse(path, std::string("no entry point '") + plugin_entry_point +
                     "' (a kernel library defines it with WEFT_PLUGIN, sim/api/plugin.hpp)");
  if (!in_own_code(handle_.get(), entry))
    refuse(path,
           std::string("its '") + plugin_entry_point +
               "' is not a function of the library (a kernel library defines it with WEFT_PLUGIN, sim/api/plugin.hpp)");
  plugin_ = reinterpret_cast<const WeftPlugin* (*)()>(entry)();
  const std::string built_with = plugin_ != nullptr && plugin_->weft_version != nullptr ? plugin_->weft_version : "";
  if (!works_with(built_with, WEFT_VERSION))
    refuse(path, "built against weft " + (built_with.empty() ? std::string("of no known version") : built_with) +
                     ", but this is weft " + WEFT_VERSION +
                     " (a library loads in a weft of its MAJOR.MINOR, not older than its own: docs/kernel-api.md, "
                     "\"Versions\"): rebuild it against this weft");
  if (!in_own_code(handle_.get(), reinterpret_cast<const void*>(plugin_->add_scenarios)))
    refuse(path,
           std::string("its '") + plugin_entry_point +
               "' gives no function of the library that lists its scenarios (add_scenarios; WEFT_PLUGIN defines it)");
  code_.emplace(entry);
}

ScenarioRegistry KernelLibrary::scenarios() const {
  ScenarioRegistry scenarios;
  const LibraryCode running(path_.string());
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
