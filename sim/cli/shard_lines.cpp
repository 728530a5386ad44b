#include "sim/cli/shard_lines.hpp"

#include "sim/cli/file_lock.hpp"
#include "sim/cli/sweep_output.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t max_line = std::size_t{8} << 20;

[[noreturn]] void refuse(const LineReader& reader, const std::string& message) {
  throw ConfigError(reader.path(), reader.line_number(), 0, "", message);
}

Json parse(const LineReader& reader, std::string_view text) {
  Json line = Json::parse(text, nullptr, false);
  if (line.is_discarded() || !line.is_object()) refuse(reader, "not a JSON object: not a sweep's JSON lines");
  return line;
}

const Json& field(const LineReader& reader, const Json& line, const char* key) {
  const auto found = line.find(key);
  if (found == line.end()) refuse(reader, std::string("no '") + key + "'");
  return *found;
}

std::uint64_t count_field(const LineReader& reader, const Json& line, const char* key) {
  const Json& value = field(reader, line, key);
  if (!value.is_number_unsigned())
    refuse(reader, std::string("'") + key + "' is " + value.dump() + ", not an integer of 0..18446744073709551615");
  return value.get<std::uint64_t>();
}

bool flag_field(const LineReader& reader, const Json& line, const char* key) {
  const Json& value = field(reader, line, key);
  if (!value.is_boolean()) refuse(reader, std::string("'") + key + "' is " + value.dump() + ", not true or false");
  return value.get<bool>();
}

std::string text_field(const LineReader& reader, const Json& line, const char* key) {
  const Json& value = field(reader, line, key);
  if (!value.is_string()) refuse(reader, std::string("'") + key + "' is " + value.dump() + ", not a string");
  return value.get<std::string>();
}

// The header: which sweep, which shard, how many seeds.
void read_header(LineReader& reader, ShardLines& shard) {
  const auto text = reader.next();
  if (!text) refuse(reader, "is empty: not a sweep's JSON lines (its first line is the sweep's header)");
  const Json header = parse(reader, *text);
  if (header.contains("merged")) refuse(reader, "is the output of weft merge: merge the shards' own files");
  if (header.contains("seed"))
    refuse(reader,
           "the first line is a failure, not a sweep's header: the output of weft merge, or of a weft "
           "older than the header line; merge the shards' own files");
  if (header.contains("explore"))
    refuse(reader,
           "is an exploration's JSON lines (weft explore --jsonl), not a sweep's: weft merge joins the shards "
           "of one sweep, and an exploration is not sharded (its file is whole as it is)");
  if (!header.contains("header")) refuse(reader, "the first line is not a sweep's header: not a sweep's JSON lines");
  for (const std::string_view key : sweep_identity_keys) {
    const Json& value = field(reader, header, std::string(key).c_str());
    shard.header[std::string(key)] = value;
  }
  shard.header["shard"] = text_field(reader, header, "shard");
  try {
    shard.seeds = parse_seed_range(text_field(reader, header, "seeds"));
    shard.shard = resolve_shard(text_field(reader, header, "shard"), std::nullopt,
                                [](const std::string&) { return std::optional<std::string>(); });
    SweepOptions options;
    options.seeds = shard.seeds;
    options.shard = shard.shard;
    shard.planned = shard_seed_count(options);
  } catch (const ConfigError& error) {
    refuse(reader, error.what());
  }
  if (count_field(reader, header, "planned") != shard.planned)
    refuse(reader, "'planned' is not the count of seeds of shard " + text_field(reader, header, "shard") + " in " +
                       text_field(reader, header, "seeds"));
}

// A failure line's seed, checked against the shard and the seed before it.
std::uint64_t failure_seed(const LineReader& reader, const Json& line, const ShardLines& shard,
                           std::optional<std::uint64_t> previous) {
  if (text_field(reader, line, "scenario") != shard.header["scenario"] ||
      text_field(reader, line, "expected") != shard.header["expected"])
    refuse(reader, "a failure of another sweep (its scenario or expected verdict differs from the header's)");
  const std::uint64_t seed = count_field(reader, line, "seed");
  if (seed < shard.seeds.first || seed > shard.seeds.last || seed % shard.shard.count != shard.shard.index)
    refuse(reader, "seed " + std::to_string(seed) + " is not a seed of shard " +
                       shard.header["shard"].get<std::string>() + " of " + shard.header["seeds"].get<std::string>());
  if (previous && seed <= *previous) refuse(reader, "seed " + std::to_string(seed) + " is not above the line before");
  return seed;
}

// What a failure line is counted under: its signature, or (a line of a weft older than the
// signature) its verdict.
std::string finding_of(const LineReader& reader, const Json& line) {
  return text_field(reader, line, line.contains("signature") ? "signature" : "verdict");
}

void read_summary(const LineReader& reader, const Json& summary, ShardLines& shard, std::optional<std::uint64_t> last) {
  for (const std::string_view key : sweep_identity_keys)
    if (field(reader, summary, std::string(key).c_str()) != shard.header[std::string(key)])
      refuse(reader, "the summary's '" + std::string(key) + "' differs from the header's");
  if (text_field(reader, summary, "shard") != shard.header["shard"] ||
      count_field(reader, summary, "planned") != shard.planned)
    refuse(reader, "the summary's shard or planned count differs from the header's");
  shard.executions = count_field(reader, summary, "executions");
  if (count_field(reader, summary, "failures") != shard.failures)
    refuse(reader, "'failures' is not the number of failure lines (" + std::to_string(shard.failures) + ")");
  if (shard.executions < shard.failures || shard.executions > shard.planned)
    refuse(reader, "'executions' is not between the failures and the planned seeds");
  shard.complete = flag_field(reader, summary, "complete");
  shard.interrupted = flag_field(reader, summary, "interrupted");
  shard.out_of_time = flag_field(reader, summary, "out_of_time");
  if (summary.contains("stopped_before_seed") && last && count_field(reader, summary, "stopped_before_seed") <= *last)
    refuse(reader, "'stopped_before_seed' is not above every failure");
  if (!shard.complete && shard.executions == shard.planned) refuse(reader, "incomplete, yet every planned seed ran");
  if (!shard.complete) shard.note = summary.value("incomplete", std::string("the sweep says it is incomplete"));
  shard.summarised = true;
}

}  // namespace

ShardLines read_shard_lines(const std::string& path) {
  ShardLines shard;
  shard.path = path;
  // Asked before the lines are read: a sweep that ends while they are read has written its summary.
  const bool running = locked_by_another(path);
  LineReader reader(path, max_line);
  read_header(reader, shard);
  std::optional<std::uint64_t> last;
  while (const auto text = reader.next()) {
    if (shard.summarised) refuse(reader, "a line after the summary line");
    if (reader.cut_short()) {
      shard.note = "its last line has no newline (cut short): left out; ";
      break;
    }
    const Json line = parse(reader, *text);
    if (line.contains("summary")) {
      read_summary(reader, line, shard, last);
      continue;
    }
    if (line.contains("header")) refuse(reader, "a second header: two sweeps' lines in one file");
    last = failure_seed(reader, line, shard, last);
    finding_of(reader, line);  // checked here, before merge prints anything
    ++shard.failures;
  }
  if (!shard.summarised) {
    // Seeds are released in order: every seed of the shard up to the last failure ran.
    shard.executions = last ? (*last - shard.seeds.first) / shard.shard.count + 1 : 0;
    shard.note += std::string(running ? "no summary line yet: the sweep writing it is still running (it holds the "
                                        "file's lock; merge again when it has ended)"
                                      : "no summary line (the sweep was killed, or its disk filled)") +
                  ": its " + std::to_string(shard.failures) + " failure lines are counted, and the " +
                  std::to_string(shard.executions) + " seeds up to its last failure as run";
  }
  return shard;
}

FailureLines::FailureLines(const ShardLines& shard) : reader_(shard.path, max_line), left_(shard.failures) {
  reader_.next();  // the header
}

std::optional<FailureLine> FailureLines::next() {
  if (left_ == 0) return std::nullopt;
  const auto text = reader_.next();
  if (!text) throw ConfigError(reader_.path(), reader_.line_number(), 0, "", "the file changed while it was merged");
  --left_;
  const Json line = parse(reader_, *text);
  return FailureLine{count_field(reader_, line, "seed"), finding_of(reader_, line), std::string(*text)};
}

}  // namespace weft::sim
