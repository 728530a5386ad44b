#include "sim/cli/merge.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <tuple>

#include <nlohmann/json.hpp>

#include "sim/cli/whole_output.hpp"

namespace weft::sim {

int command_merge(const std::vector<std::string>& files) {
  using Json = nlohmann::ordered_json;
  std::map<std::tuple<std::string, std::uint64_t>, Json> failures;  // by scenario, seed
  Json total{{"summary", true}, {"merged_files", files.size()}, {"planned", 0}, {"executions", 0}, {"failures", 0},
             {"complete", true}, {"interrupted", false}, {"out_of_time", false}};
  std::vector<std::string> shards;
  for (const auto& file : files) {
    std::ifstream in(file);
    if (!in) {
      std::cerr << "weft merge: cannot read " << file << "\n";
      return 2;
    }
    int number = 0;
    for (std::string text; std::getline(in, text);) {
      ++number;
      if (text.empty()) continue;
      Json line;
      try {
        line = Json::parse(text);
        if (line.value("summary", false)) {
          for (const char* key : {"planned", "executions", "failures"})
            total[key] = total[key].get<std::uint64_t>() + line.at(key).get<std::uint64_t>();
          for (const char* key : {"interrupted", "out_of_time"}) total[key] = total[key].get<bool>() || line.at(key).get<bool>();
          total["complete"] = total["complete"].get<bool>() && line.at("complete").get<bool>();
          total["scenario"] = line.at("scenario");
          total["seeds"] = line.at("seeds");
          shards.push_back(line.at("shard").get<std::string>());
        } else {
          failures[{line.at("scenario").get<std::string>(), line.at("seed").get<std::uint64_t>()}] = line;
        }
      } catch (const std::exception& error) {
        std::cerr << "weft merge: " << file << ":" << number << ": " << error.what() << "\n";
        return 2;
      }
    }
  }
  total["shards"] = shards;
  for (const auto& [key, line] : failures) write_record(std::cout, line.dump() + "\n");
  write_record(std::cout, total.dump() + "\n");
  return failures.empty() ? 0 : 1;
}

}  // namespace weft::sim
