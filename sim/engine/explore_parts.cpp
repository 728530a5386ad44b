#include "sim/engine/explore_parts.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/host_memory.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim::explore_parts {

std::size_t memory_budget(const ExploreWatch& watch, const Config& config) {
  return watch.memory_budget > 0 ? watch.memory_budget
                                 : static_cast<std::size_t>(model::host_budget_bytes(config.machine));
}

void refuse_checkpoints(const ExploreWatch& watch, const std::string& who) {
  if (watch.save || watch.resume != nullptr)
    throw std::invalid_argument("explore: " + who + " cannot save or resume a checkpoint (one job can)");
}

void check_explorable(const Config& config) {
  if (config.machine.dma_execution == model::DmaExecution::on_wait)
    throw ConfigError("dma.execution", 0, 0, "",  // the source names the key: once
                      "explore needs eager or async DMAs (async runs every interleaving on_wait can, and more); "
                      "add --set dma.execution=async");
}

void tally(ExploreReport& report, const ExecutionResult& result, bool least) {
  auto found = std::find_if(report.verdicts.begin(), report.verdicts.end(),
                            [&](const FoundVerdict& f) { return f.verdict == result.verdict; });
  if (found == report.verdicts.end()) {
    report.verdicts.push_back({result.verdict, 1, result});
    return;
  }
  ++found->runs;
  if (least && result.verdict != model::Verdict::ok && result.schedule < found->first.schedule) found->first = result;
}

}  // namespace weft::sim::explore_parts
