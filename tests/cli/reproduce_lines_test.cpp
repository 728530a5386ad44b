// Every reproduce line a sweep prints replays the execution it reports, for every registered
// strategy: each line of its reports on stdout (by seed and by schedule), of its JSON lines, of
// its JUnit report and of its shrunk schedule is run as printed, by the weft executable, and
// gives the same verdict, step count and schedule. A schedule longer than one argument may be
// (Linux refuses more than 128 KiB) is printed as --schedule @FILE, and replays from the file.
// A line carries every --set of its sweep (dma.chunk_bytes among them).

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "scheduler/strategies/registry.hpp"
#include "weft_process.hpp"

using weft::testing::file_text;
using weft::testing::fresh_path;
using weft::testing::WeftProcess;

namespace {

struct Execution {
  std::string verdict;
  std::uint64_t steps = 0;
  std::string schedule;
};

std::string line_after(const std::string& text, const std::string& prefix) {
  const auto at = text.find(prefix);
  REQUIRE(at != std::string::npos);
  const auto start = at + prefix.size();
  return text.substr(start, text.find('\n', start) - start);
}

// The words of a line as sim/request's shell_quote writes them: plain, or '...' with '\'' inside.
std::vector<std::string> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == ' ') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else if (line[i] == '\'') {
      const auto end = line.find('\'', i + 1);
      REQUIRE(end != std::string::npos);
      word += line.substr(i + 1, end - i - 1);
      i = end;
      in_word = true;
    } else if (line[i] == '\\') {
      word += line[++i];
    } else {
      word += line[i];
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

// The schedule a --schedule word names: the string, or the contents of @FILE (from `folder`).
std::string schedule_of(const std::string& word, const std::string& folder) {
  if (!word.starts_with("@")) return word;
  const std::filesystem::path file = word.substr(1);
  std::string text = file_text(file.is_absolute() ? file.string() : folder + "/" + file.string());
  REQUIRE(!text.empty());
  return text.substr(0, text.find('\n'));
}

// What a report (one execution, as `weft run` prints it) says of its execution.
Execution execution_of(const std::string& report, const std::string& folder) {
  Execution execution;
  execution.verdict = line_after(report, "verdict:  ");
  execution.verdict = execution.verdict.substr(0, execution.verdict.find(' '));
  const auto run = line_after(report, "run:      ");
  execution.steps = std::stoull(run.substr(run.rfind(", ") + 2));
  const auto words = shell_words(line_after(report, " --schedule "));
  REQUIRE(words.size() == 1);
  execution.schedule = schedule_of(words[0], folder);
  return execution;
}

struct ReproduceLine {
  std::string where;  // "stdout", "JSON line", "JUnit", "shrunk"
  std::string command;
  Execution expected;
};

// Runs `line.command` as printed (its first word is the weft executable) and compares.
void check_replays(const ReproduceLine& line, const std::string& folder) {
  CAPTURE(line.where, line.command.substr(0, 400));
  auto words = shell_words(line.command);
  REQUIRE(words.size() > 2);
  CHECK(words[0] == WEFT_BINARY);
  CHECK(words[1] == "replay");
  WeftProcess replay(std::vector<std::string>(words.begin() + 1, words.end()), {}, {}, folder);
  replay.wait();
  const std::string report = replay.out();
  INFO(replay.err());
  const Execution got = execution_of(report, folder);
  CHECK(got.verdict == line.expected.verdict);
  CHECK(got.steps == line.expected.steps);
  CHECK(got.schedule == line.expected.schedule);
}

// Every reproduce line of a sweep's stdout: the reports' two lines, and the shrunk schedule's.
std::vector<ReproduceLine> stdout_lines(const std::string& out, const std::string& folder) {
  std::vector<ReproduceLine> lines;
  for (std::size_t at = out.find("scenario: "); at != std::string::npos; at = out.find("\nscenario: ", at + 1)) {
    const std::string report = out.substr(at, out.find("\n\n", at) - at);
    const Execution expected = execution_of(report, folder);
    std::istringstream commands(report.substr(report.find("reproduce:\n") + 11));
    for (std::string command; std::getline(commands, command);)
      lines.push_back({"stdout", command.substr(2), expected});
  }
  if (const auto at = out.find("shrunk seed "); at != std::string::npos) {
    const auto head = out.substr(at, out.find('\n', at) - at);
    Execution expected;
    expected.verdict = head.substr(head.rfind(' ') + 1);
    const auto steps = head.substr(0, head.find(" steps ("));
    expected.steps = std::stoull(steps.substr(steps.rfind(' ') + 1));
    const std::string command = line_after(out.substr(at), "\n  ");
    expected.schedule = schedule_of(shell_words(command.substr(command.find(" --schedule ") + 12))[0], folder);
    lines.push_back({"shrunk", command, expected});
  }
  return lines;
}

std::string xml_unescape(std::string text) {
  for (const auto& [from, to] :
       std::vector<std::pair<std::string, std::string>>{{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}})
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("Every reproduce line a sweep prints replays its execution, for every strategy", "[cli][reproduce]") {
  const std::string source = WEFT_SOURCE_DIR;
  const auto folder = std::filesystem::temp_directory_path() / "weft_reproduce_lines";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::vector<std::vector<std::string>> sweeps{
      {source + "/scenarios/ring_all_gather_early_reuse_race.toml", "--seeds", "0..5", "--expect", "ok", "--keep-going",
       "--verbose"},  // a report, so reproduce lines, for every failure
      {source + "/scenarios/barrier_deadlock.toml", "--seeds", "0..3", "--expect", "ok"},
      // 64 devices: schedules of some 110,000 characters, written to files (run's test below
      // has 96 devices, and one of 250,000: too long for one argument).
      {"ring_all_gather", "--set", "topology.devices=64", "--seeds", "0..0", "--expect", "deadlock", "--shrink-budget",
       "2"},
      // DMAs landing in chunks: the race of copies of different sizes on one semaphore, by an
      // option on the command line and by the scenario file that sets it.
      {source + "/scenarios/shared_semaphore_sizes.toml", "--set", "dma.chunk_bytes=1024", "--seeds", "0..3",
       "--expect", "ok"},
      {source + "/scenarios/shared_semaphore_sizes_chunked_race.toml", "--seeds", "0..3", "--expect", "ok"},
  };
  std::size_t replayed = 0, from_files = 0;
  for (const std::string_view strategy : weft::scheduler::strategy_names()) {
    for (std::size_t index = 0; index < sweeps.size(); ++index) {
      CAPTURE(strategy, sweeps[index][0]);
      const std::string base = (folder / (std::string(strategy) + std::to_string(index))).string();
      std::vector<std::string> args{"sweep"};
      args.insert(args.end(), sweeps[index].begin(), sweeps[index].end());
      args.insert(args.end(),
                  {"--strategy", std::string(strategy), "--jsonl", base + ".jsonl", "--junit", base + ".xml"});
      WeftProcess sweep(args, {}, {}, folder.string());
      REQUIRE(sweep.wait().status == 1);
      const std::string out = sweep.out();
      std::vector<ReproduceLine> lines = stdout_lines(out, folder.string());

      std::map<std::uint64_t, Execution> by_seed;  // from the JSON lines
      std::istringstream jsonl(file_text(base + ".jsonl"));
      for (std::string text; std::getline(jsonl, text);) {
        const auto line = nlohmann::json::parse(text);
        if (line.contains("header") || line.contains("summary")) continue;
        Execution expected{line["verdict"], line["steps"],
                           line.contains("schedule_file")
                               ? schedule_of("@" + line["schedule_file"].get<std::string>(), "")
                               : line["schedule"].get<std::string>()};
        if (line.contains("schedule_file")) ++from_files;
        by_seed[line["seed"]] = expected;
        lines.push_back({"JSON line", line["reproduce"], expected});
      }
      // A JUnit testcase per signature, which replays its first seed (the first it lists).
      const std::string xml = file_text(base + ".xml");
      std::size_t testcases = 0;
      for (auto at = xml.find("<failure"); at != std::string::npos; at = xml.find("<failure", at + 1), ++testcases) {
        const auto start = xml.find("\">", at) + 2;
        const auto seeds = line_after(xml.substr(at), "<system-out>");
        const std::uint64_t first = std::stoull(seeds.substr(seeds.find(": ") + 2));
        REQUIRE(by_seed.contains(first));
        lines.push_back({"JUnit", xml_unescape(xml.substr(start, xml.find('\n', start) - start)), by_seed[first]});
      }
      CHECK(testcases >= 1);
      CHECK(lines.size() >= 3 * by_seed.size() + testcases);
      for (const auto& line : lines) {
        for (std::size_t k = 0; k + 1 < sweeps[index].size(); ++k)  // every --set that changes the execution
          if (sweeps[index][k] == "--set") CHECK(line.command.find(sweeps[index][k + 1]) != std::string::npos);
        check_replays(line, folder.string());
      }
      replayed += lines.size();
    }
  }
  CHECK(replayed > 50);
  CHECK(from_files >= 2);  // the 64-device schedules went to files, for each strategy
}

TEST_CASE("Every reproduce line an exploration writes replays its execution", "[cli][reproduce][explore]") {
  const auto folder = std::filesystem::temp_directory_path() / "weft_reproduce_explore";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::string base = (folder / "explore").string();
  // Two failing verdicts (a race, a scope's end with a copy in flight), and each with a schedule.
  WeftProcess explore(
      {"explore", WEFT_SOURCE_DIR "/scenarios/ring_all_gather_early_reuse_race.toml", "--set", "topology.devices=3",
       "--expect", "ok", "--keep-going", "--jsonl", base + ".jsonl", "--junit", base + ".xml"},
      {}, {}, folder.string());
  REQUIRE(explore.wait().status == 1);
  std::vector<ReproduceLine> lines;
  std::map<std::string, Execution> by_signature;
  std::istringstream jsonl(file_text(base + ".jsonl"));
  for (std::string text; std::getline(jsonl, text);) {
    const auto line = nlohmann::json::parse(text);
    if (line.contains("header") || line.contains("summary")) continue;
    const Execution expected{line["verdict"], line["steps"], line["schedule"]};
    by_signature[line["signature"]] = expected;
    lines.push_back({"JSON line", line["reproduce"], expected});
  }
  const std::string xml = file_text(base + ".xml");
  for (auto at = xml.find("<failure"); at != std::string::npos; at = xml.find("<failure", at + 1)) {
    const auto name_at = xml.rfind(" name=\"", at) + 7;
    const std::string signature = xml_unescape(xml.substr(name_at, xml.find('"', name_at) - name_at));
    REQUIRE(by_signature.contains(signature));
    const auto start = xml.find("\">", at) + 2;
    lines.push_back({"JUnit", xml_unescape(xml.substr(start, xml.find('\n', start) - start)), by_signature[signature]});
  }
  CHECK(by_signature.size() >= 1);
  CHECK(lines.size() == 2 * by_signature.size());
  for (const auto& line : lines) {
    CHECK(line.command.find("topology.devices=3") != std::string::npos);
    check_replays(line, folder.string());
  }
}

TEST_CASE("run's reproduce lines replay too, a long schedule from the file beside its trace", "[cli][reproduce]") {
  const auto folder = std::filesystem::temp_directory_path() / "weft_reproduce_run";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const auto trace = (folder / "run.txt").string();
  WeftProcess run({"run", "ring_all_gather", "--set", "topology.devices=96", "--seed", "3", "--expect", "deadlock",
                   "--trace-text", trace},
                  {}, {}, folder.string());
  CHECK(run.wait().status == 1);
  const std::string out = run.out();
  CHECK(out.find("--schedule @" + trace + ".seed-3.schedule\n") != std::string::npos);
  const Execution expected = execution_of(out, folder.string());
  CHECK(expected.schedule.size() > 128 * 1024);
  std::istringstream commands(out.substr(out.find("reproduce:\n") + 11));
  int lines = 0;
  for (std::string command; std::getline(commands, command) && command.starts_with("  "); ++lines)
    check_replays({"run", command.substr(2), expected}, folder.string());
  CHECK(lines == 2);
}

TEST_CASE("A schedule file that does not hold one schedule is refused naming it", "[cli][reproduce][hardening]") {
  const auto two_lines = fresh_path("two_lines.schedule");
  std::ofstream(two_lines) << "c0\nc1\n";
  const auto empty = fresh_path("empty.schedule");
  std::ofstream(empty).close();
  const auto bad = fresh_path("bad.schedule");
  std::ofstream(bad) << "c0,x1\n";
  for (const auto& [file, expected] : std::vector<std::pair<std::string, std::string>>{
           {two_lines, two_lines + ":2:0: a second line"},
           {empty, empty + ":1:0: holds no schedule"},
           {bad, "x1"},
           {"/no/such.schedule", "/no/such.schedule: cannot read the file"},
           {"/tmp", "/tmp: cannot read the file: it is not a regular file (it is a folder)"},
           {"/dev/zero", "/dev/zero: cannot read the file: it is not a regular file (it is a device)"}}) {
    CAPTURE(file);
    WeftProcess replay({"replay", "ring_all_gather", "--schedule", "@" + file});
    CHECK(replay.wait().status == 2);
    CHECK(replay.err().find(expected) != std::string::npos);
    CHECK(replay.out().empty());
  }
}
