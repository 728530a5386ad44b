// The race analysis' table from objects to values (scheduler/strategies/object_table.hpp): each
// object gets one value, indices follow the order of first lookup and never change, values
// survive the table's growth, and an object never looked up is absent.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "scheduler/strategies/object_table.hpp"

namespace {

using weft::scheduler::ObjectId;
using weft::scheduler::ObjectTable;

// Objects that differ in one field at a time, the way a run's buffers, cells and slots do.
std::vector<ObjectId> objects(int count) {
  std::vector<ObjectId> out;
  for (int i = 0; i < count; ++i)
    out.push_back({static_cast<std::uint32_t>(i % 3), i / 3, i % 7, -static_cast<std::int64_t>(i % 5)});
  return out;
}

}  // namespace

TEST_CASE("An object table gives each object one value, indexed in order of first lookup", "[scheduler]") {
  const std::vector<ObjectId> keys = objects(5000);  // grows the table many times
  ObjectTable<std::vector<int>> table;
  std::map<std::tuple<std::uint32_t, std::int64_t, std::int64_t, std::int64_t>, std::uint32_t> expected;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const ObjectId& key = keys[i];
    const auto [at, made] = expected.try_emplace({key.kind, key.a, key.b, key.c}, expected.size());
    const std::uint32_t index = table.index(key);
    CHECK(index == at->second);
    table.at(index).push_back(static_cast<int>(i));
  }
  CHECK(table.size() == expected.size());
  // Every value kept what was put into it, through every growth, and lookups find the same index.
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint32_t index = table.find(keys[i]);
    REQUIRE(index != table.absent);
    const std::vector<int>& values = table.at(index);
    CHECK(std::find(values.begin(), values.end(), static_cast<int>(i)) != values.end());
  }
  CHECK(table.find(ObjectId{7, 1, 2, 3}) == table.absent);
  CHECK(table.size() == expected.size());  // find adds nothing
}

TEST_CASE("An empty object table finds nothing, and operator[] makes a default value", "[scheduler]") {
  ObjectTable<int> table;
  CHECK(table.find(ObjectId{}) == table.absent);
  CHECK(table[ObjectId{1, 2, 3, 4}] == 0);
  table[ObjectId{1, 2, 3, 4}] = 9;
  CHECK(table.at(table.find(ObjectId{1, 2, 3, 4})) == 9);
  CHECK(table.find(ObjectId{1, 2, 3, 5}) == table.absent);
  CHECK(table.size() == 1);
}
