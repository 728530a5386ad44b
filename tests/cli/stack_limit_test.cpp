// A stack limit too small for weft's own threads is refused at the start, naming the limit and
// what weft needs (`ulimit -s 64` ended `explore` by SIGSEGV); and at the least limit weft
// accepts, TOML nested past what it parses is refused by file, line and column (20,000 nested
// brackets overflowed toml++'s recursion at 128 to 224 KiB, 3,000 inline tables at 320).

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "sim/cli/stack_limit.hpp"
#include "weft_process.hpp"

using weft::testing::temp_file;
using weft::testing::WeftProcess;

namespace {

// weft under a shell that sets the soft stack limit first: too small, and the least weft takes.
const std::vector<std::string> stack_64_kib{"/bin/sh", "-c", "ulimit -S -s 64 && exec \"$0\" \"$@\""};
const std::vector<std::string> stack_1024_kib{"/bin/sh", "-c", "ulimit -S -s 1024 && exec \"$0\" \"$@\""};

std::vector<std::string> words(const std::string& command) {
  std::vector<std::string> split;
  std::istringstream in(command);
  for (std::string word; in >> word;) split.push_back(word);
  return split;
}

std::string nested(const std::string& open, const std::string& inner, const std::string& close, int depth) {
  std::string text;
  for (int i = 0; i < depth; ++i) text += open;
  text += inner;
  for (int i = 0; i < depth; ++i) text += close;
  return text;
}

}  // namespace

TEST_CASE("A stack limit too small for weft is refused at the start, naming it", "[cli][hardening]") {
  CHECK(weft::sim::stack_limit_problem(std::nullopt) == std::nullopt);  // unlimited
  CHECK(weft::sim::stack_limit_problem(weft::sim::needed_stack_bytes) == std::nullopt);
  CHECK(weft::sim::stack_limit_problem(weft::sim::needed_stack_bytes - 1).has_value());
#if defined(WEFT_SANITIZE_ADDRESS)
  WARN("not run under AddressSanitizer, whose frames are larger than the stack limits this test sets");
  return;
#endif
  for (const std::string command :
       {"run ring_all_reduce", "explore scenarios/readers6.toml", "sweep ring_all_reduce --seeds 0..3"}) {
    CAPTURE(command);
    WeftProcess weft(words(command), {}, stack_64_kib);
    CHECK(weft.wait().status == 2);
    INFO(weft.err());
    CHECK(weft.err() ==
          "weft: the stack size limit is 64 KiB (65536 bytes; ulimit -s), but weft needs at least 1024 KiB for its own "
          "threads: raise it (ulimit -s 1024, or more) and run again\n");
    CHECK(weft.out().empty());
  }
  // The least limit it takes runs.
  WeftProcess least({"explore", "scenarios/readers6.toml"}, {}, stack_1024_kib);
  CHECK(least.wait().status == 0);
}

TEST_CASE("TOML nested too deep is refused by file, line and column at the least stack weft takes",
          "[cli][hardening]") {
#if defined(WEFT_SANITIZE_ADDRESS)
  WARN("not run under AddressSanitizer, whose frames are larger than the stack limits this test sets");
  return;
#endif
  struct Deep {
    std::string name;
    std::string text;
    std::string expected;  // after the path
  };
  const std::vector<Deep> files{
      {"brackets", "a = " + nested("[", "", "]", 20000) + "\n",
       ":1:37: arrays and inline tables nested more than 32 deep"},
      {"inline_tables", "a = " + nested("{b = ", "1", "}", 3000) + "\n",
       ":1:165: arrays and inline tables nested more than 32 deep"},
      {"across_lines", "a = [\n" + nested("[\n", "", "]\n", 40),
       ":33:1: arrays and inline tables nested more than 32 deep"},
  };
  for (const Deep& file : files) {
    CAPTURE(file.name);
    const std::string path = temp_file("deep_" + file.name + ".toml", file.text);
    WeftProcess weft({"run", "ring_all_reduce", "--config", path}, {}, stack_1024_kib);
    CHECK(weft.wait().status == 2);
    CHECK(weft.err() == "weft: " + path + file.expected + "\n");
  }
  // 32 levels, in strings and comments any number: parsed (and refused for what they are, an unknown key).
  const std::string fine =
      temp_file("deep_fine.toml", "# " + std::string(100, '[') + "\nx = " + nested("[", "", "]", 32) +
                                      " # ]]]]\ny = \"" + std::string(100, '{') + "\"\n");
  WeftProcess weft({"run", "ring_all_reduce", "--config", fine}, {}, stack_1024_kib);
  CHECK(weft.wait().status == 2);
  CHECK(weft.err().find(fine + ":2:1: key 'x': unknown key") != std::string::npos);
}
