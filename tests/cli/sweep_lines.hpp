#pragma once
// What the sweep tests share: a sweep in which every seed fails (so every shard has failure
// lines to merge), and the lines of a sweep's JSON lines text.

#include <sstream>
#include <string>
#include <vector>

namespace weft::testing {

// Every seed of 0..40 races; keep going, no shrinking.
inline const std::vector<std::string> racy_sweep{"sweep",
                                                 "scenarios/two_cores_one_output_race.toml",
                                                 "--seeds",
                                                 "0..40",
                                                 "--expect",
                                                 "ok",
                                                 "--keep-going",
                                                 "--shrink-budget",
                                                 "0"};

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The failure lines of a JSON lines text (neither its header nor its summary), in order.
inline std::vector<std::string> failure_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (auto& line : lines_of(text))
    if (line.find("\"header\":true") == std::string::npos && line.find("\"summary\":true") == std::string::npos)
      lines.push_back(std::move(line));
  return lines;
}

}  // namespace weft::testing
