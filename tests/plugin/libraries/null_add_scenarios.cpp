// A kernel library whose entry point, written by hand, gives no function to list its scenarios.
#include <weft/weft.hpp>

extern "C" __attribute__((visibility("default"))) const WeftPlugin* weft_plugin() {
  static constexpr WeftPlugin plugin{WEFT_VERSION, nullptr};
  return &plugin;
}
