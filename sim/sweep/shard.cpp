#include "sim/sweep/shard.hpp"

#include <charconv>
#include <cstdlib>

#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

std::uint64_t number(const std::string& text, const std::string& source) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size())
    throw ConfigError(source, 0, 0, "shard", "'" + text + "' is not a non-negative integer");
  return value;
}

Shard checked(std::uint64_t index, std::uint64_t count, const std::string& source) {
  if (count == 0 || index >= count)
    throw ConfigError(source, 0, 0, "shard",
                      "shard index " + std::to_string(index) + " is not below the shard count " + std::to_string(count));
  return {index, count, source};
}

std::optional<Shard> from_pair(const Environment& env, const std::string& index, const std::string& total) {
  const auto i = env(index), n = env(total);
  if (!i && !n) return std::nullopt;
  if (!i || !n) throw ConfigError(i ? total : index, 0, 0, "shard", "is unset while " + (i ? index : total) + " is set");
  return checked(number(*i, index), number(*n, total), index + "/" + total);
}

std::optional<Shard> from_slurm(const Environment& env) {
  const auto id = env("SLURM_ARRAY_TASK_ID");
  if (!id) return std::nullopt;
  const std::uint64_t task = number(*id, "SLURM_ARRAY_TASK_ID");
  const auto min = env("SLURM_ARRAY_TASK_MIN"), max = env("SLURM_ARRAY_TASK_MAX");
  if (min && max) {
    const std::uint64_t lo = number(*min, "SLURM_ARRAY_TASK_MIN"), hi = number(*max, "SLURM_ARRAY_TASK_MAX");
    if (task < lo || hi < lo) throw ConfigError("SLURM_ARRAY_TASK_ID", 0, 0, "shard", "is outside SLURM_ARRAY_TASK_MIN..MAX");
    return checked(task - lo, hi - lo + 1, "SLURM_ARRAY_TASK_ID");
  }
  if (const auto count = env("SLURM_ARRAY_TASK_COUNT"))
    return checked(task, number(*count, "SLURM_ARRAY_TASK_COUNT"), "SLURM_ARRAY_TASK_ID");
  throw ConfigError("SLURM_ARRAY_TASK_ID", 0, 0, "shard",
                    "is set, but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MIN/_MAX is");
}

}  // namespace

Environment process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
}

Shard resolve_shard(const std::optional<std::string>& flag, const std::optional<std::uint64_t>& shard_count,
                    const Environment& environment) {
  if (flag) {
    const auto slash = flag->find('/');
    if (slash == std::string::npos) throw ConfigError("--shard", 0, 0, "shard", "'" + *flag + "' is not I/N");
    return checked(number(flag->substr(0, slash), "--shard"), number(flag->substr(slash + 1), "--shard"), "--shard");
  }
  if (auto shard = from_pair(environment, "GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS")) return *shard;
  if (auto shard = from_pair(environment, "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS")) return *shard;
  if (auto shard = from_slurm(environment)) return *shard;
  if (const auto index = environment("JOB_COMPLETION_INDEX")) {
    if (!shard_count)
      throw ConfigError("JOB_COMPLETION_INDEX", 0, 0, "shard", "is set; give the Job's completions as --shard-count N");
    return checked(number(*index, "JOB_COMPLETION_INDEX"), *shard_count, "JOB_COMPLETION_INDEX");
  }
  if (shard_count) throw ConfigError("--shard-count", 0, 0, "shard", "needs JOB_COMPLETION_INDEX in the environment");
  return {};
}

}  // namespace weft::sim
