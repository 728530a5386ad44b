#include "sim/cli/finding_json.hpp"

namespace weft::sim {
namespace {

using Json = nlohmann::ordered_json;

// The first line of what happened, at most 4 KiB of it (a kernel's message can be any length;
// the report on stdout and the JUnit report have all of it), cut between UTF-8 characters.
std::string description(const std::string& text) {
  constexpr std::size_t most = 4096;
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() <= most) return line;
  std::size_t cut = most;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return line.substr(0, cut) + "...";
}

// One object per site (a racing access, a core that stopped), at most `most_sites` of them (a
// deadlock of every core of a large machine would outgrow the 8 MiB line that weft merge reads),
// with what is known of it and nothing more.
constexpr std::size_t most_sites = 1000;

Json site_json(const model::FailureSite& site, bool access) {
  Json json;
  json["actor"] = site.who.kind == model::Accessor::Kind::core ? "core" : "dma";
  json["index"] = site.who.index;
  if (access) json["access"] = site.who.is_write ? "write" : "read";
  json["step"] = site.step;
  if (site.line.line > 0) {
    json["file"] = model::file_name(site.line);
    json["line"] = site.line.line;
  }
  json["what"] = site.what;
  // A wait on one cell: its semaphore, needs and holds; on any of several: the first's, and
  // every cell in "either".
  const auto cell = [&](const model::BlockedWait& waits, Json& into) {
    into["semaphore"] = waits.semaphore_id;
    into["needs"] = waits.needs;
    into["holds"] = waits.holds;
  };
  if (!site.waits.empty()) cell(site.waits.front(), json);
  if (site.waits.size() > 1) {
    Json either = Json::array();
    for (const model::BlockedWait& waits : site.waits) cell(waits, either.emplace_back());
    json["either"] = std::move(either);
  }
  return json;
}

void add_sites(const ExecutionResult& result, Json& line) {
  const bool accesses = result.verdict == model::Verdict::data_race;  // else the cores that stopped
  Json sites = Json::array();
  for (std::size_t at = 0; at < result.sites.size() && at < most_sites; ++at)
    sites.push_back(site_json(result.sites[at], accesses));
  line["sites"] = std::move(sites);
  if (result.sites.size() > most_sites) line["sites_left_out"] = result.sites.size() - most_sites;
}

}  // namespace

void add_finding_fields(Json& line, const Request& request, const ExecutionResult& result,
                        const std::string& what_happened, const std::string& signature,
                        const ScheduleArgument& schedule) {
  line["verdict"] = model::to_string(result.verdict);
  line["expected"] = model::to_string(request.expect);
  line["description"] = description(what_happened);
  line["steps"] = result.steps;
  line["signature"] = signature;
  add_sites(result, line);
  if (schedule.file) line["schedule_file"] = *schedule.file;
  else if (schedule.left_out)
    line["schedule_left_out"] =
        "longer than a command-line argument; written once per signature: replay this seed by reproduce";
  else line["schedule"] = schedule.schedule;
}

}  // namespace weft::sim
