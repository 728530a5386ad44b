#pragma once
// The scheduler tests' stand-in for an execution: a few actors, each with a scripted number of
// transitions left (an actor with none is finished) and an optional rule for when it is enabled
// ("c1 waits until c0 has run twice"). It stops when every actor has finished.

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "scheduler/step_loop.hpp"

namespace weft::scheduler::testing {

class ScriptedProcess final : public Process {
 public:
  using Rule = std::function<bool(const ScriptedProcess&)>;
  void add(Actor actor, int transitions, Rule enabled = {}) {
    order_.push_back(actor);
    left_[actor] = transitions;
    rules_[actor] = std::move(enabled);
  }
  // `actor` is enabled only once `after.first` has run `after.second` times.
  void add(Actor actor, int transitions, std::pair<Actor, int> after) {
    add(actor, transitions, [after](const ScriptedProcess& p) { return p.runs_of(after.first) >= after.second; });
  }
  std::span<const Actor> enabled_actors() override {
    ++queries;
    enabled_.clear();
    for (const Actor& actor : order_)
      if (left_.at(actor) > 0 && (!rules_.at(actor) || rules_.at(actor)(*this))) enabled_.push_back(actor);
    return enabled_;
  }
  void run(Actor actor) override {
    REQUIRE(left_.at(actor) > 0);
    --left_[actor];
    ++runs_[actor];
    ran.push_back(actor);
  }
  bool stopped() const override {
    for (const auto& [actor, left] : left_)
      if (left > 0) return false;
    return true;
  }
  int runs_of(Actor actor) const {
    const auto found = runs_.find(actor);
    return found == runs_.end() ? 0 : found->second;
  }

  std::vector<Actor> ran;
  int queries = 0;

 private:
  std::vector<Actor> order_;
  std::map<Actor, int> left_;
  std::map<Actor, Rule> rules_;
  std::map<Actor, int> runs_;
  std::vector<Actor> enabled_;
};

}  // namespace weft::scheduler::testing
