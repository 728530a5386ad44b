#include "sim/cli/signature.hpp"

#include <regex>
#include <set>

namespace weft::sim {

std::string finding_signature(const ExecutionResult& result) {
  std::string signature(model::to_string(result.verdict));
  std::set<std::string> places;
  for (const model::FailureSite& site : result.sites) {
    const std::string kind = site.waits ? "wait" : site.what.substr(0, site.what.find(" ["));
    places.insert(kind + " at " + model::to_string(site.line));
  }
  if (places.empty()) {  // signed by the first source line its message names, if any
    static const std::regex source_line(R"([\w.-]+\.(cpp|cc|cxx|hpp|h):\d+)");
    std::smatch found;
    if (std::regex_search(result.details, found, source_line)) signature += ": at " + found.str();
    return signature;
  }
  std::string separator = ": ";
  for (const std::string& place : places) {
    signature += separator + place;
    separator = ", ";
  }
  return signature;
}

bool FindingGroups::add(const SeedOutcome& outcome) {
  ++failures_;
  const std::string signature = finding_signature(outcome.result);
  const auto [found, fresh] = index_.try_emplace(signature, groups_.size());
  if (fresh) groups_.push_back({signature, 0, outcome.seed, outcome.seed, outcome.result.steps});
  Group& group = groups_[found->second];
  ++group.count;
  if (outcome.result.steps < group.shortest_steps) {
    group.shortest_seed = outcome.seed;
    group.shortest_steps = outcome.result.steps;
  }
  return fresh;
}

std::string FindingGroups::summary() const {
  std::string text = "findings: " + std::to_string(groups_.size()) +
                     (groups_.size() == 1 ? " distinct signature in " : " distinct signatures in ") +
                     std::to_string(failures_) + (failures_ == 1 ? " failure\n" : " failures\n");
  for (const Group& group : groups_) {
    text += "  " + std::to_string(group.count) + " x " + group.signature + "\n    first seed " +
            std::to_string(group.first_seed) + ", shortest: seed " + std::to_string(group.shortest_seed) + " (" +
            std::to_string(group.shortest_steps) + " steps)\n";
  }
  return text;
}

}  // namespace weft::sim
