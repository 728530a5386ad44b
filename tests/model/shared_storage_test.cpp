#include "model/shared_storage.hpp"

#include <catch2/catch.hpp>

#include <vector>

using weft::model::SharedStorage;

TEST_CASE("shared storage is held by count and recycled with its capacity, emptied by the caller's reset",
          "[model][shared_storage]") {
  SharedStorage<std::vector<int>> storage;
  int resets = 0;
  const auto reset = [&](std::vector<int>& contents) {
    ++resets;
    contents.clear();
  };
  const int first = storage.acquire(reset);
  CHECK(resets == 0);  // a new record needs no reset
  storage.contents(first).assign(100, 7);
  const int* buffer = storage.contents(first).data();
  CHECK_FALSE(storage.shared(first));
  storage.retain(first);
  CHECK(storage.shared(first));
  storage.release(first);
  CHECK_FALSE(storage.shared(first));
  const int second = storage.acquire(reset);  // the first is still held: a new record
  CHECK(second != first);
  storage.release(first);  // the last holder: recycled
  const int again = storage.acquire(reset);
  CHECK(again == first);
  CHECK(resets == 1);
  CHECK(storage.contents(again).empty());
  CHECK(storage.contents(again).capacity() >= 100);  // the buffer kept
  CHECK(storage.contents(again).data() == buffer);
  CHECK(storage.storages() == 2);
}
