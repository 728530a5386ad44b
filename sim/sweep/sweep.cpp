#include "sim/sweep/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "sim/config/config_error.hpp"
#include "sim/request/seed_text.hpp"

namespace weft::sim {
namespace {

using Clock = std::chrono::steady_clock;  // for the time budget and the reports' times only: it never picks an actor

// The seeds of one shard within a range, by index.
struct ShardSeeds {
  std::uint64_t first = 0;
  std::uint64_t stride = 1;
  std::uint64_t count = 0;

  ShardSeeds(SeedRange range, const Shard& shard) : stride(shard.count) {
    if (range.first == 0 && range.last == UINT64_MAX)
      throw ConfigError("--seeds", 0, 0, "seeds",
                        "0..18446744073709551615 holds 2^64 seeds, one more than a sweep can count; "
                        "sweep 0..18446744073709551614 and the last seed on its own");
    const std::uint64_t offset = (shard.index + shard.count - range.first % shard.count) % shard.count;
    if (range.last - range.first < offset) return;
    first = range.first + offset;
    count = (range.last - first) / stride + 1;
  }
  std::uint64_t seed(std::uint64_t index) const { return first + index * stride; }
};

std::string compare_runs(const ExecutionResult& first, const ExecutionResult& second) {
  const auto& a = first.schedule;
  const auto& b = second.schedule;
  const auto parted = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  if (parted.first != a.end() || parted.second != b.end()) {
    const auto step = static_cast<std::size_t>(parted.first - a.begin());
    return "the kernel is not deterministic: two executions of this seed part at step " + std::to_string(step) + " (" +
           (parted.first != a.end() ? scheduler::to_string(*parted.first) : std::string("end")) + " vs " +
           (parted.second != b.end() ? scheduler::to_string(*parted.second) : std::string("end")) + ")";
  }
  if (first.verdict != second.verdict || first.details != second.details)
    return "the kernel is not deterministic: the same schedule gave a different outcome the second time (" +
           std::string(model::to_string(second.verdict)) + ")";
  return {};
}

class Collector {
 public:
  Collector(const ShardSeeds& seeds, const SweepOptions& options, const SweepListener& listener)
      : seeds_(seeds), options_(options), listener_(listener), started_(Clock::now()) {}

  // The next index to run, or nothing when the sweep is over for this worker.
  std::optional<std::uint64_t> take() {
    if (allocation_failed_.load() || stop_requested()) return std::nullopt;
    const std::uint64_t index = next_.fetch_add(1);
    if (index >= seeds_.count || index > stop_at_.load()) return std::nullopt;
    return index;
  }

  // `found`: the execution gave the verdict of a scenario whose bug only some schedules reach
  // (Request::found_within).
  void finish(std::uint64_t index, std::optional<SeedOutcome> failure, bool found = false) {
    std::lock_guard lock(mutex_);
    if (failure && !options_.keep_going) {
      std::uint64_t current = stop_at_.load();
      while (index < current && !stop_at_.compare_exchange_weak(current, index)) {
      }
    }
    done_.emplace(index, Done{std::move(failure), found});
    while (!done_.empty() && done_.begin()->first == released_) {
      auto node = done_.extract(done_.begin());
      if (released_ > stop_at_.load()) break;
      ++released_;
      if (node.mapped().found) ++found_;
      if (node.mapped().failure) {
        ++failures_;
        listener_.failure(*node.mapped().failure);
      }
      if (listener_.progress) listener_.progress(released_, failures_);
    }
  }

  SweepSummary summary() const {
    SweepSummary summary;
    summary.planned = seeds_.count;
    summary.executions = released_;
    summary.failures = failures_;
    summary.found = found_;
    if (released_ < seeds_.count) summary.next_seed = seeds_.seed(released_);
    // Without keep_going the first failure stops the release, and every seed below it was
    // handed out before it, so a failure means everything up to it ran.
    summary.stopped_at_failure = !options_.keep_going && failures_ > 0;
    summary.interrupted = options_.interrupted && options_.interrupted->load();
    summary.out_of_time = out_of_time_.load();
    summary.allocation_failed = allocation_failed_.load();
    summary.seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    return summary;
  }

  const ShardSeeds& seeds() const { return seeds_; }
  // After an internal error in one worker: the others stop taking seeds.
  void abandon() {
    stop_at_ = 0;
    next_ = seeds_.count;
  }
  // After an allocation failed in one worker: the others finish the seeds they hold and stop;
  // the seed that failed is never released, so nothing after it is either.
  void allocation_failed() { allocation_failed_ = true; }

 private:
  bool stop_requested() {
    if (options_.interrupted && options_.interrupted->load()) return true;
    if (options_.time_budget_seconds &&
        std::chrono::duration<double>(Clock::now() - started_).count() > *options_.time_budget_seconds)
      out_of_time_ = true;
    return out_of_time_.load();
  }

  const ShardSeeds& seeds_;
  const SweepOptions& options_;
  const SweepListener& listener_;
  const Clock::time_point started_;
  std::atomic<std::uint64_t> next_{0};
  std::atomic<std::uint64_t> stop_at_{UINT64_MAX};
  std::atomic<bool> out_of_time_{false};
  std::atomic<bool> allocation_failed_{false};
  std::mutex mutex_;
  struct Done {
    std::optional<SeedOutcome> failure;
    bool found = false;
  };
  std::map<std::uint64_t, Done> done_;  // finished, not yet released
  std::uint64_t released_ = 0;
  std::uint64_t failures_ = 0;
  std::uint64_t found_ = 0;
};

// Runs seeds until the collector hands out no more. An allocation that fails (std::bad_alloc:
// the host's address-space or cgroup limit reached below the budget, or several jobs'
// executions at once) stops the sweep as an interrupt does, with what was released so far.
void work(const Request& request, Collector& collector) {
  try {
    Simulation simulation(request.config, *request.scenario, request.params);
    while (const auto index = collector.take()) {
      const std::uint64_t seed = collector.seeds().seed(*index);
      const auto started = Clock::now();
      ExecutionResult result = simulation.run_seed(seed);
      if (request.accepts(result.verdict)) {
        collector.finish(*index, std::nullopt, request.found_within && result.verdict == request.expect);
        continue;
      }
      SeedOutcome outcome{seed, std::move(result), {}, std::chrono::duration<double>(Clock::now() - started).count()};
      outcome.nondeterminism = compare_runs(outcome.result, simulation.run_seed(seed));
      collector.finish(*index, std::move(outcome));
    }
  } catch (const std::bad_alloc&) {
    collector.allocation_failed();
  }
}

}  // namespace

SeedRange parse_seed_range(const std::string& text) {
  const auto refuse = [&](const std::string& why) {
    throw ConfigError("--seeds", 0, 0, "seeds",
                      "'" + text + "' is not a seed range (A..B, both inclusive, or one seed N): " + why);
  };
  const std::string_view whole(text);
  const auto dots = whole.find("..");
  const SeedParse first = parse_seed(whole.substr(0, dots));
  const SeedParse last = dots == std::string_view::npos ? first : parse_seed(whole.substr(dots + 2));
  if (!first.seed) refuse(first.problem);
  if (!last.seed) refuse(last.problem);
  if (*first.seed > *last.seed) refuse(std::to_string(*first.seed) + " is above " + std::to_string(*last.seed));
  return {*first.seed, *last.seed};
}

std::uint64_t shard_seed_count(const SweepOptions& options) { return ShardSeeds(options.seeds, options.shard).count; }

SweepSummary run_sweep(const Request& request, const SweepOptions& options, const SweepListener& listener) {
  const ShardSeeds seeds(options.seeds, options.shard);
  Collector collector(seeds, options, listener);
  const int jobs = std::max(1, options.jobs);
  std::mutex error_mutex;
  std::exception_ptr error;
  const auto guarded = [&] {
    try {
      work(request, collector);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      collector.abandon();
    }
  };
  std::vector<std::thread> workers;
  for (int job = 1; job < jobs; ++job) workers.emplace_back(guarded);
  guarded();
  for (auto& worker : workers) worker.join();
  if (error) std::rethrow_exception(error);
  return collector.summary();
}

}  // namespace weft::sim
