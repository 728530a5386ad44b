#include "sim/cli/signature.hpp"

#include <regex>

namespace weft::sim {
namespace {

// The places a failure points at ("DMA read at ring.cpp:30"), sorted, each with its first site.
std::map<std::string, const model::FailureSite*> places_of(const ExecutionResult& result) {
  std::map<std::string, const model::FailureSite*> places;
  for (const model::FailureSite& site : result.sites) {
    const std::string kind = !site.waits.empty() ? "wait" : site.what.substr(0, site.what.find(" ["));
    places.try_emplace(kind + " at " + model::to_string(site.line), &site);
  }
  return places;
}

}  // namespace

std::string finding_signature(const ExecutionResult& result) {
  std::string signature(model::to_string(result.verdict));
  const auto places = places_of(result);
  if (places.empty()) {  // signed by the first source line its message names, if any
    static const std::regex source_line(R"([\w.-]+\.(cpp|cc|cxx|hpp|h):\d+)");
    std::smatch found;
    if (std::regex_search(result.details, found, source_line)) signature += ": at " + found.str();
    return signature;
  }
  std::string separator = ": ";
  for (const auto& [place, site] : places) {
    signature += separator + place;
    separator = ", ";
  }
  return signature;
}

const model::FailureSite* signature_site(const ExecutionResult& result) {
  const auto places = places_of(result);
  return places.empty() ? nullptr : places.begin()->second;
}

bool FindingGroups::add(const std::string& signature, const SeedOutcome& outcome) {
  ++failures_;
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
