#pragma once
// Helpers shared by the config tests: a per-test temporary folder, a config whose every field
// differs from the defaults, field-by-field comparison, and catching a ConfigError.

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "sim/config/config.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim::testing {

// A fresh folder under the system's temporary directory, removed with everything in it.
class TempDir {
 public:
  explicit TempDir(std::string_view label)
      : path_(std::filesystem::temp_directory_path() /
              ("weft-config-tests-" + std::to_string(::getpid()) + "-" + std::string{label})) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Writes `text` to `relative` inside the folder (creating subfolders) and returns its path.
  std::filesystem::path write(const std::filesystem::path& relative, std::string_view text) const {
    const std::filesystem::path file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream stream(file, std::ios::binary);
    stream << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

inline std::filesystem::path source_path(std::string_view relative) {
  return std::filesystem::path{WEFT_SOURCE_DIR} / relative;
}

// Every field set to something other than its default.
inline Config non_default_config() {
  Config config;
  config.machine.mesh = {3, 5};
  config.machine.cores_per_device = 7;
  config.machine.uninitialized = model::Uninitialized::zero;
  config.machine.out_of_bounds_reads = model::OutOfBoundsReads::uninitialized;
  config.machine.hbm_bytes = 11;
  config.machine.vmem_bytes = 12;
  config.machine.smem_bytes = 13;
  config.machine.vmem_shared_bytes = 14;
  config.machine.host_bytes = 15;
  config.machine.dma_execution = model::DmaExecution::eager;
  config.machine.dma_chunk_bytes = 16;
  config.machine.compat = model::CompatProfile::jax;
  config.race_detection.enabled = false;
  config.race_detection.semaphore_clocks = SemaphoreClocks::accumulate;
  config.scheduler.strategy = "pct";
  config.scheduler.seed = 99;
  config.scheduler.pct_depth = 9;
  config.scheduler.pct_steps = 77;
  config.scheduler.max_steps = 55;
  config.scheduler.stack_bytes = 70'000;
  config.scheduler.watchdog_seconds = 2.5;
  config.scheduler.fiber_backend = scheduler::FiberBackend::boost_fiber;
  return config;
}

inline void check_same_config(const Config& actual, const Config& expected) {
  CHECK(actual.machine.mesh == expected.machine.mesh);
  CHECK(actual.machine.cores_per_device == expected.machine.cores_per_device);
  CHECK(actual.machine.uninitialized == expected.machine.uninitialized);
  CHECK(actual.machine.out_of_bounds_reads == expected.machine.out_of_bounds_reads);
  CHECK(actual.machine.hbm_bytes == expected.machine.hbm_bytes);
  CHECK(actual.machine.vmem_bytes == expected.machine.vmem_bytes);
  CHECK(actual.machine.smem_bytes == expected.machine.smem_bytes);
  CHECK(actual.machine.vmem_shared_bytes == expected.machine.vmem_shared_bytes);
  CHECK(actual.machine.host_bytes == expected.machine.host_bytes);
  CHECK(actual.machine.dma_execution == expected.machine.dma_execution);
  CHECK(actual.machine.dma_chunk_bytes == expected.machine.dma_chunk_bytes);
  CHECK(actual.machine.compat == expected.machine.compat);
  CHECK(actual.race_detection.enabled == expected.race_detection.enabled);
  CHECK(actual.race_detection.semaphore_clocks == expected.race_detection.semaphore_clocks);
  CHECK(actual.scheduler.strategy == expected.scheduler.strategy);
  CHECK(actual.scheduler.seed == expected.scheduler.seed);
  CHECK(actual.scheduler.pct_depth == expected.scheduler.pct_depth);
  CHECK(actual.scheduler.pct_steps == expected.scheduler.pct_steps);
  CHECK(actual.scheduler.max_steps == expected.scheduler.max_steps);
  CHECK(actual.scheduler.stack_bytes == expected.scheduler.stack_bytes);
  CHECK(actual.scheduler.watchdog_seconds == expected.scheduler.watchdog_seconds);
  CHECK(actual.scheduler.fiber_backend == expected.scheduler.fiber_backend);
}

// The ConfigError `action` throws; fails the test when it throws none.
inline ConfigError config_error_from(const std::function<void()>& action) {
  try {
    action();
  } catch (const ConfigError& error) {
    return error;
  }
  FAIL("expected a ConfigError, none was thrown");
  throw std::logic_error("unreachable");
}

// Checks where an error points: source, line, column and key.
#define CHECK_CONFIG_ERROR(error, source_name, line_number, column_number, dotted_key) \
  do {                                                                                 \
    INFO("what(): " << (error).what());                                                \
    CHECK((error).source == (source_name));                                            \
    CHECK((error).line == (line_number));                                              \
    CHECK((error).column == (column_number));                                          \
    CHECK((error).key == (dotted_key));                                                \
  } while (false)

}  // namespace weft::sim::testing
