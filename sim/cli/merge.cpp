#include "sim/cli/merge.hpp"

#include <sys/resource.h>

#include <iostream>
#include <map>
#include <queue>

#include "sim/cli/exit_status.hpp"
#include "sim/cli/shard_lines.hpp"
#include "sim/cli/sweep_output.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/config/config_error.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim {
namespace {

using Json = nlohmann::ordered_json;

std::string shard_name(std::uint64_t index, std::uint64_t count) {
  return std::to_string(index) + "/" + std::to_string(count);
}

// Every file names the same sweep as the first, and holds a shard no other file holds.
void check_one_sweep(const std::vector<ShardLines>& shards) {
  const ShardLines& first = shards.front();
  std::map<std::uint64_t, const ShardLines*> seen;
  for (const ShardLines& shard : shards) {
    for (const std::string_view key : sweep_identity_keys) {
      const std::string name(key);
      if (shard.header[name] != first.header[name])
        throw ConfigError(shard.path, 1, 0, "",
                          "another sweep than " + first.path + "'s: its " + name + " is " + shard.header[name].dump() +
                              ", not " + first.header[name].dump());
    }
    if (shard.shard.count != first.shard.count)
      throw ConfigError(shard.path, 1, 0, "",
                        "another sweep than " + first.path + "'s: it has " + std::to_string(shard.shard.count) +
                            " shards, not " + std::to_string(first.shard.count));
    const auto [at, fresh] = seen.emplace(shard.shard.index, &shard);
    if (!fresh)
      throw ConfigError(shard.path, 1, 0, "",
                        "shard " + shard_name(shard.shard.index, shard.shard.count) + " again: " + at->second->path +
                            " holds it too (give each shard's file once)");
  }
}

// A signature's failures across the shards (its lines' "signature", or an older line's verdict).
struct Finding {
  std::string signature;
  std::uint64_t count = 0;
  std::uint64_t first_seed = 0;
};

// Prints the failure lines of every file in seed order (the smallest next seed of the files
// first); returns their findings, in order of first seed.
std::vector<Finding> print_failures_in_seed_order(const std::vector<ShardLines>& shards) {
  std::vector<FailureLines> files;
  files.reserve(shards.size());
  using Head = std::pair<std::uint64_t, std::size_t>;  // seed, file
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  std::vector<FailureLine> lines(shards.size());
  const auto advance = [&](std::size_t file) {
    if (auto next = files[file].next()) {
      lines[file] = std::move(*next);
      heads.emplace(lines[file].seed, file);
    }
  };
  for (std::size_t file = 0; file < shards.size(); ++file) {
    files.emplace_back(shards[file]);
    advance(file);
  }
  std::vector<Finding> findings;
  std::map<std::string, std::size_t> index;  // signature -> its finding
  while (!heads.empty()) {
    const std::size_t file = heads.top().second;
    heads.pop();
    const FailureLine& line = lines[file];
    write_record(std::cout, line.text + "\n");
    const auto [found, fresh] = index.try_emplace(line.signature, findings.size());
    if (fresh) findings.push_back({line.signature, 0, line.seed});
    ++findings[found->second].count;
    advance(file);
  }
  return findings;
}

// Each file stays open while the failures are merged: allow as many as the hard limit does.
void allow_open_files(std::size_t files) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  const rlim_t wanted = static_cast<rlim_t>(files) + 64;
  if (limit.rlim_cur >= wanted) return;
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
  ::setrlimit(RLIMIT_NOFILE, &limit);
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < wanted)
    throw ConfigError("weft merge", 0, 0, "",
                      std::to_string(files) + " files are more than this process may hold open (" +
                          std::to_string(limit.rlim_cur) + "): raise 'ulimit -n'");
}

}  // namespace

int command_merge(const std::vector<std::string>& files) {
  std::vector<ShardLines> shards;
  for (const std::string& file : files) shards.push_back(read_shard_lines(file));
  check_one_sweep(shards);
  allow_open_files(shards.size());

  const ShardLines& first = shards.front();
  const std::uint64_t count = first.shard.count;
  Json summary{{"summary", true}, {"merged", true}};
  for (const std::string_view key : sweep_identity_keys) summary[std::string(key)] = first.header[std::string(key)];
  summary["shard_count"] = count;
  // Distinct shards of one range (at most 2^64 - 1 seeds), each within its planned count: no sum wraps.
  const std::uint64_t planned = first.seeds.last - first.seeds.first + 1;
  std::uint64_t executions = 0, failures = 0;
  bool interrupted = false, out_of_time = false;
  std::map<std::uint64_t, const ShardLines*> by_index;
  for (const ShardLines& shard : shards) {
    executions += shard.executions;
    failures += shard.failures;
    interrupted = interrupted || shard.interrupted;
    out_of_time = out_of_time || shard.out_of_time;
    by_index[shard.shard.index] = &shard;
  }
  Json merged = Json::array(), missing = Json::array(), unfinished = Json::array();
  for (const auto& [index, shard] : by_index) {
    merged.push_back(shard_name(index, count));
    if (shard->summarised && shard->complete) continue;
    unfinished.push_back(shard_name(index, count));
    std::cerr << "weft merge: shard " << shard_name(index, count) << " (" << shard->path
              << ") is unfinished: " << shard->note << "\n";
  }
  // Missing shards, named one by one up to a hundred (an array of a million tasks stays legible).
  const std::uint64_t absent = count - by_index.size();
  for (std::uint64_t index = 0; index < count && missing.size() < 100 && missing.size() < absent; ++index)
    if (!by_index.contains(index)) missing.push_back(shard_name(index, count));
  if (absent > 0)
    std::cerr << "weft merge: " << absent << " of " << count
              << " shards missing (no file holds them): " << missing.dump()
              << (absent > missing.size() ? " and more" : "") << "\n";

  const bool complete = absent == 0 && unfinished.empty();
  summary["planned"] = planned;
  summary["executions"] = executions;
  summary["failures"] = failures;
  summary["complete"] = complete;
  summary["shards"] = merged;
  summary["missing_shards"] = missing;
  summary["missing_shard_count"] = absent;
  summary["unfinished_shards"] = unfinished;
  summary["interrupted"] = interrupted;
  summary["out_of_time"] = out_of_time;

  Json signatures = Json::array();
  for (const Finding& finding : print_failures_in_seed_order(shards))
    signatures.push_back(
        {{"signature", finding.signature}, {"count", finding.count}, {"first_seed", finding.first_seed}});
  summary["signatures"] = std::move(signatures);
  write_record(std::cout, json_text(summary) + "\n");
  if (failures > 0) return 1;
  return complete ? 0 : exit_incomplete;
}

}  // namespace weft::sim
