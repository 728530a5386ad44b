// A kernel library that says which weft it was built against: its entry point is written by
// hand, as WEFT_PLUGIN would write it for weft WEFT_TEST_CLAIMED_VERSION (a string literal; 0.0
// unless the build says otherwise).
#include <weft/weft.hpp>

#ifndef WEFT_TEST_CLAIMED_VERSION
#define WEFT_TEST_CLAIMED_VERSION "0.0"
#endif

extern "C" __attribute__((visibility("default"))) const WeftPlugin* weft_plugin() {
  static constexpr WeftPlugin plugin{WEFT_TEST_CLAIMED_VERSION, [](void*) {}};
  return &plugin;
}
