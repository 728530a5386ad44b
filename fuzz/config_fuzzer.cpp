// libFuzzer target: the configuration loader. Every input is tried as a config file, as a
// scenario file (its sections and [params] applied too) and, when it is one line, as a --set
// assignment. Each may be accepted or rejected with a ConfigError whose message is one line;
// anything else (another exception, a crash, a sanitizer report, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/config/config_loader.hpp"
#include "sim/config/scenario_file.hpp"
#include "sim/config/set_assignment.hpp"

namespace {

using weft::sim::ConfigError;

template <class Load>
void load_or_reject(Load load) {
  try {
    load();
  } catch (const ConfigError& error) {
    if (std::string(error.what()).find('\n') != std::string::npos) __builtin_trap();  // one line, always
  }
}

weft::sim::Params kernel_params() { return {{"rows", 8}, {"cols", 128}}; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  load_or_reject([&] {
    weft::sim::Config config;
    weft::sim::apply_config_text(config, text, "fuzz.toml");
  });
  load_or_reject([&] {
    const auto scenario = weft::sim::parse_scenario_text(text, "scenarios/fuzz.toml");
    weft::sim::Config config;
    weft::sim::apply_scenario_overrides(config, scenario);
    auto params = kernel_params();
    weft::sim::apply_scenario_params(params, scenario);
  });
  if (text.find_first_of("\r\n") == std::string::npos) {
    load_or_reject([&] {
      weft::sim::Config config;
      auto params = kernel_params();
      weft::sim::apply_set(config, params, text);
    });
  }
  return 0;
}
