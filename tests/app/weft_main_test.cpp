// weft::main, the command line in a program of one's own: the program's scenarios beside the
// built-in ones, every verb of the stock executable (bench included), and a name used twice
// refused.

#include <catch2/catch.hpp>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/main.hpp"

namespace {

struct Printed {
  int status;
  std::string out;
  std::string err;
};

Printed run_main(std::vector<std::string> args, weft::sim::ScenarioRegistry own) {
  args.insert(args.begin(), "my_weft");
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  const int status = weft::main(static_cast<int>(argv.size()), argv.data(), std::move(own));
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {status, out.str(), err.str()};
}

weft::sim::ScenarioDefinition named(std::string name) {
  weft::sim::ScenarioDefinition s;
  s.name = std::move(name);
  s.summary = "a scenario of the program's own";
  s.kernel = [](weft::sim::Core& core) { core.check(core.num_devices() > 0, "devices"); };
  return s;
}

}  // namespace

TEST_CASE("a program's own scenarios run beside the built-in ones", "[app]") {
  const Printed listed = run_main({"list"}, {named("mine")});
  CHECK(listed.status == 0);
  CHECK(listed.out.find("scenario  mine ") != std::string::npos);
  CHECK(listed.out.find("scenario  ring_all_reduce ") != std::string::npos);
  const Printed swept = run_main({"sweep", "mine", "--seeds", "0..9"}, {named("mine")});
  CHECK(swept.status == 0);
  CHECK(swept.out.find("10 executions, 0 not as expected (ok)") != std::string::npos);
}

TEST_CASE("a program has every verb of the stock weft, bench included", "[app]") {
  CHECK(run_main({"bench", "--help"}, {}).status == 0);
  const Printed unknown = run_main({"frob"}, {});
  CHECK(unknown.status == 2);
  CHECK(unknown.err == "weft: unknown verb 'frob'; the verbs: list, run, replay, sweep, explore, merge, bench\n");
}

TEST_CASE("a program's scenario with a built-in scenario's name is exit 2", "[app]") {
  const Printed clash = run_main({"list"}, {named("ring_all_reduce")});
  CHECK(clash.status == 2);
  CHECK(clash.err == "weft: built in: two scenarios are named 'ring_all_reduce'\n");
}
