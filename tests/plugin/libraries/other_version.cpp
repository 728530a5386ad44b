// A kernel library that says it was built against another weft: its entry point is written by
// hand, as WEFT_PLUGIN would write it for weft 0.0.
#include <weft/weft.hpp>

extern "C" __attribute__((visibility("default"))) const WeftPlugin* weft_plugin() {
  static constexpr WeftPlugin plugin{"0.0", [](void*) {}};
  return &plugin;
}
