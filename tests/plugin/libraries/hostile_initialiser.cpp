// A kernel library whose static initialiser ends the process while weft loads it, in the way
// WEFT_TEST_INITIALISER names: 1 exit(0), 2 a segmentation fault, 3 abort(), 4 an exception
// thrown out of the initialiser. weft must end with a status of its own naming the library.
#include <cstdlib>
#include <stdexcept>

#include <weft/weft.hpp>

namespace {

int hostile() {
#if WEFT_TEST_INITIALISER == 1
  std::exit(0);
#elif WEFT_TEST_INITIALISER == 2
  static int* volatile nowhere = nullptr;  // volatile: the compiler cannot know it is null
  return *nowhere;
#elif WEFT_TEST_INITIALISER == 3
  std::abort();
#else
  throw std::runtime_error("thrown by a kernel library's initialiser");
#endif
}

[[maybe_unused]] volatile int initialised = hostile();

weft::sim::ScenarioRegistry scenarios() { return {}; }

}  // namespace

WEFT_PLUGIN(scenarios)
