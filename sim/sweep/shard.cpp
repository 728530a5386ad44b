#include "sim/sweep/shard.hpp"

#include <charconv>
#include <cstdlib>
#include <limits>
#include <vector>

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

[[noreturn]] void refuse(const std::string& source, const std::string& message) {
  throw ConfigError(source, 0, 0, "shard", message);
}

Shard checked(std::uint64_t index, std::uint64_t count, const std::string& source) {
  if (count == 0 || index >= count)
    refuse(source, "shard index " + std::to_string(index) + " is not below the shard count " + std::to_string(count));
  return {index, count, source};
}

std::string text(const Shard& shard) { return std::to_string(shard.index) + "/" + std::to_string(shard.count); }

std::optional<Shard> from_pair(const Environment& env, const std::string& index, const std::string& total) {
  const auto i = env(index), n = env(total);
  if (!i && !n) return std::nullopt;
  if (!i || !n) refuse(i ? total : index, "is unset while " + (i ? index : total) + " is set");
  return checked(number(*i, index), number(*n, total), index + "/" + total);
}

// A job array's task ids are MIN, MIN + STEP, ..., MAX: task ID is shard (ID - MIN) / STEP of
// (MAX - MIN) / STEP + 1. An array whose ids are not evenly spaced (--array=1,2,7) cannot be
// mapped so: its COUNT then differs from that count, and it is refused.
std::optional<Shard> from_slurm(const Environment& env) {
  const auto id_text = env("SLURM_ARRAY_TASK_ID");
  if (!id_text) return std::nullopt;
  const std::string source = "SLURM_ARRAY_TASK_ID";
  const std::uint64_t id = number(*id_text, source);
  const auto min_text = env("SLURM_ARRAY_TASK_MIN"), max_text = env("SLURM_ARRAY_TASK_MAX");
  const auto step_text = env("SLURM_ARRAY_TASK_STEP"), count_text = env("SLURM_ARRAY_TASK_COUNT");
  if (!min_text || !max_text) {
    if (!count_text) refuse(source, "is set, but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MIN/_MAX is");
    return checked(id, number(*count_text, "SLURM_ARRAY_TASK_COUNT"), source + "/SLURM_ARRAY_TASK_COUNT");
  }
  const std::uint64_t min = number(*min_text, "SLURM_ARRAY_TASK_MIN"), max = number(*max_text, "SLURM_ARRAY_TASK_MAX");
  const std::uint64_t step = step_text ? number(*step_text, "SLURM_ARRAY_TASK_STEP") : 1;
  const std::string array = std::to_string(min) + "-" + std::to_string(max) + ":" + std::to_string(step);
  if (step == 0) refuse("SLURM_ARRAY_TASK_STEP", "is 0");
  if (max < min)
    refuse("SLURM_ARRAY_TASK_MIN",
           "is " + std::to_string(min) + ", above SLURM_ARRAY_TASK_MAX (" + std::to_string(max) + ")");
  if ((max - min) / step == std::numeric_limits<std::uint64_t>::max())  // its task count would wrap to 0
    refuse(source,
           "the array " + array + " (SLURM_ARRAY_TASK_MIN-MAX:STEP) has 2^64 tasks: too many to count as shards");
  // --array=0-12:4 without the step in the environment: MIN-MAX alone reads as 13 tasks.
  if (!step_text && count_text && number(*count_text, "SLURM_ARRAY_TASK_COUNT") != max - min + 1)
    refuse("SLURM_ARRAY_TASK_STEP", "is unset, but SLURM_ARRAY_TASK_COUNT is " + *count_text + " while the array " +
                                        std::to_string(min) + "-" + std::to_string(max) +
                                        " (SLURM_ARRAY_TASK_MIN-MAX) has " + std::to_string(max - min + 1) +
                                        " ids: set SLURM_ARRAY_TASK_STEP to the array's step, or give --shard I/N");
  if ((max - min) % step != 0)
    refuse(source, "the array " + array + " (SLURM_ARRAY_TASK_MIN-MAX:STEP) does not end on a step");
  if (id < min || id > max || (id - min) % step != 0)
    refuse(source, std::to_string(id) + " is not a task of the array " + array + " (SLURM_ARRAY_TASK_MIN-MAX:STEP)");
  const std::uint64_t tasks = (max - min) / step + 1;
  if (count_text && number(*count_text, "SLURM_ARRAY_TASK_COUNT") != tasks)
    refuse("SLURM_ARRAY_TASK_COUNT", "is " + *count_text + ", but the array " + array +
                                         " (SLURM_ARRAY_TASK_MIN-MAX:STEP) has " + std::to_string(tasks) +
                                         " tasks: its ids are not evenly spaced, so they cannot be mapped to shards; "
                                         "submit --array=A-B[:STEP], or give --shard I/N");
  return checked((id - min) / step, tasks, source);
}

std::optional<Shard> from_kubernetes(const Environment& env, const std::optional<std::uint64_t>& shard_count) {
  const auto index = env("JOB_COMPLETION_INDEX");
  if (!index) return std::nullopt;
  if (!shard_count) refuse("JOB_COMPLETION_INDEX", "is set; give the Job's completions as --shard-count N");
  return checked(number(*index, "JOB_COMPLETION_INDEX"), *shard_count, "JOB_COMPLETION_INDEX");
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
    if (slash == std::string::npos) refuse("--shard", "'" + *flag + "' is not I/N");
    return checked(number(flag->substr(0, slash), "--shard"), number(flag->substr(slash + 1), "--shard"), "--shard");
  }
  std::vector<Shard> found;
  for (auto shard : {from_pair(environment, "GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS"),
                     from_pair(environment, "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS"), from_slurm(environment),
                     from_kubernetes(environment, shard_count)})
    if (shard) found.push_back(*shard);
  if (found.empty()) {
    if (shard_count) refuse("--shard-count", "needs JOB_COMPLETION_INDEX in the environment");
    return {};
  }
  for (const Shard& other : found)
    if (other.index != found.front().index || other.count != found.front().count)
      refuse(found.front().source, "says shard " + text(found.front()) + ", but " + other.source + " says " +
                                       text(other) + "; unset one, or give --shard I/N");
  return found.front();
}

}  // namespace weft::sim
