#include "sim/cli/cli.hpp"

#include <malloc.h>
#include <unistd.h>

#include <iostream>
#include <limits>
#include <new>

#include <CLI/CLI.hpp>

#include "scheduler/schedule.hpp"
#include "scheduler/strategies/registry.hpp"
#include "scheduler/strategies/replay.hpp"
#include "sim/api/version.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/explore_command.hpp"
#include "sim/cli/interrupt.hpp"
#include "sim/cli/merge.hpp"
#include "sim/cli/number_options.hpp"
#include "sim/cli/output_check.hpp"
#include "sim/cli/output_target.hpp"
#include "sim/cli/shard_status_file.hpp"
#include "sim/cli/stack_limit.hpp"
#include "sim/cli/standard_fds.hpp"
#include "sim/cli/stdout_status.hpp"
#include "sim/cli/sweep_command.hpp"
#include "sim/config/config_error.hpp"
#include "sim/plugin/catalog.hpp"
#include "sim/plugin/exit_guard.hpp"

namespace weft::sim {
namespace {

// Kernel libraries to load (sim/api/plugin.hpp), for every subcommand that names scenarios.
void add_kernels_option(CLI::App& command, RequestArguments& arguments) {
  command
      .add_option("--kernels", arguments.kernels,
                  "load the scenarios of this kernel library (a shared library built with weft::plugin)")
      ->take_all()
      ->allow_extra_args(false);
}

// The options every scenario-running subcommand shares.
void add_request_options(CLI::App& command, RequestArguments& arguments) {
  command.add_option("SCENARIO", arguments.scenario, "a scenario TOML file, or a registered scenario name")->required();
  add_kernels_option(command, arguments);
  command.add_option("--config", arguments.config, "a config TOML file (replaces the scenario's own)");
  command.add_option("--set", arguments.sets, "override one key: --set topology.devices=2, --set params.rows=16")
      ->take_all()
      ->allow_extra_args(false);
  command.add_option("--expect", arguments.expect, "the verdict expected (overrides the scenario's)");
  command
      .add_option(
          "--watchdog", arguments.watchdog,
          "end a core that runs its own code this many seconds without a visible operation (default 10; 0: off)")
      ->transform(real_number(0, 86400, "a number of seconds from 0 to 86400"));
}

// The strategy of the runs a seed names (run, replay --seed, sweep); the same as
// --set scheduler.strategy=NAME, and carried by every reproduce line.
void add_strategy_option(CLI::App& command, RequestArguments& arguments) {
  const auto names = scheduler::strategy_names();
  command
      .add_option("--strategy", arguments.strategy,
                  "the scheduling strategy (default: the config's scheduler.strategy)")
      ->check(CLI::IsMember(std::vector<std::string>(names.begin(), names.end())));
}

// The trace files of one execution (run, replay).
void add_trace_options(CLI::App& command, TraceFiles& traces) {
  command.add_option("--trace", traces.json,
                     "write the execution as a Chrome trace (JSON; open it in ui.perfetto.dev)");
  command.add_option("--html", traces.html, "write the execution as a self-contained HTML timeline");
  command.add_option("--trace-text", traces.text,
                     "write the execution step by step as text ('-': stdout, after the report)");
}

// The verb argv names when it is none of the app's (or when there is no verb at all), for a
// message that lists the verbs; options (--help, --version) are left to CLI11.
std::optional<std::string> unknown_verb(const CLI::App& app, int argc, char** argv) {
  if (argc > 1 && argv[1][0] == '-') return std::nullopt;
  const std::string verb = argc > 1 ? argv[1] : "";
  std::string verbs;
  for (const CLI::App* command : app.get_subcommands({})) {
    if (command->get_name() == verb) return std::nullopt;
    verbs += (verbs.empty() ? "" : ", ") + command->get_name();
  }
  return (verb.empty() ? "give a verb: " : "unknown verb '" + verb + "'; the verbs: ") + verbs;
}

// The files the command will write: the trace files (run, replay, explore), and a sweep's or an
// exploration's JSON lines and JUnit report.
std::vector<NamedOutput> outputs_of(const TraceFiles& traces, const SweepFiles& files) {
  std::vector<NamedOutput> outputs;
  if (traces.json) outputs.push_back({"--trace", *traces.json});
  if (traces.html) outputs.push_back({"--html", *traces.html});
  if (traces.text && *traces.text != "-") outputs.push_back({"--trace-text", *traces.text});
  if (files.jsonl) outputs.push_back({"--jsonl", *files.jsonl, true});
  if (files.junit) outputs.push_back({"--junit", *files.junit});
  return outputs;
}

// "scenario 'ring'", and the kernel library or script that defines it, for exit_guard.hpp's messages.
std::string scenario_description(const Catalog& catalog, const ScenarioDefinition& scenario) {
  std::string description = "scenario '" + scenario.name + "'";
  const auto& all = catalog.scenarios();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (&all[i] == &scenario && catalog.origin(i) != builtin_origin)
      description += (catalog.origin(i).ends_with(".py") ? " of script " : " of kernel library ") + catalog.origin(i);
  return description;
}

int run_command(int argc, char** argv, const ScenarioRegistry& registry, const BenchCommand& bench,
                const ScriptLoader& scripts, RankTransport* ranks) {
  // Every execution allocates and frees the same buffers; without this, glibc hands the top of
  // the heap back to the kernel after each one and the next execution faults it all in again
  // (3x slower sweeps). It changes speed only, never a result.
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 64 << 20);
  const std::string program = argc > 0 ? argv[0] : "weft";
  CLI::App app{"weft: a deterministic simulator of kernels on many cores of many TPU-like devices"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "weft " WEFT_VERSION);

  RequestArguments arguments;
  auto* list =
      app.add_subcommand("list", "list the scenarios (built in, and of --kernels), scenario files and configs");
  add_kernels_option(*list, arguments);

  std::optional<std::uint64_t> seed;
  std::optional<std::string> schedule;
  std::string seeds;
  bool keep_going = false;
  int jobs = 1;
  std::optional<std::string> shard;
  std::optional<std::uint64_t> shard_count;
  std::optional<double> time_budget;
  SweepFiles files;  // its --jsonl and --junit are explore's too

  TraceFiles traces;
  auto* run = app.add_subcommand("run", "run one execution of a scenario");
  add_request_options(*run, arguments);
  add_trace_options(*run, traces);
  add_strategy_option(*run, arguments);
  run->add_option("--seed", seed, "the scheduler's seed (default: the config's scheduler.seed)")
      ->transform(seed_number());

  auto* replay = app.add_subcommand("replay", "replay one execution, by seed or by schedule string");
  add_request_options(*replay, arguments);
  add_trace_options(*replay, traces);
  add_strategy_option(*replay, arguments);
  auto* by_seed = replay->add_option("--seed", seed, "replay the execution of this seed")->transform(seed_number());
  auto* by_schedule =
      replay->add_option("--schedule", schedule, "replay this schedule string (@FILE: the one in FILE)");
  by_seed->excludes(by_schedule);

  auto* sweep = app.add_subcommand("sweep", "run many seeds; stop at the first verdict not as expected");
  add_request_options(*sweep, arguments);
  sweep->add_option("--seeds", seeds, "the seeds to run, A..B (both inclusive), or one seed")->required();
  sweep->add_flag("--keep-going", keep_going,
                  "go on after the first unexpected verdict: one report per finding's signature, the rest counted");
  sweep->add_flag("--verbose", files.verbose, "with --keep-going, a report for every unexpected verdict");
  add_strategy_option(*sweep, arguments);
  sweep->add_option("--jobs", jobs, "worker threads (results do not depend on it)")->transform(whole_number(1, 256));
  sweep->add_option("--shard", shard, "run the seeds s with s % N == I (default: from the environment)");
  sweep->add_option("--shard-count", shard_count, "the shard count with JOB_COMPLETION_INDEX (Kubernetes)")
      ->transform(whole_number(1, std::numeric_limits<std::uint64_t>::max()));
  sweep->add_option("--jsonl", files.jsonl, "write a JSON line per failing seed and a summary line");
  sweep->add_option("--junit", files.junit, "write a JUnit XML report");
  sweep
      ->add_option("--shrink-budget", files.shrink_budget,
                   "re-executions spent shrinking the first failure's schedule (0: do not shrink)")
      ->transform(whole_number(0, std::numeric_limits<std::size_t>::max()));
  sweep->add_option("--time-budget", time_budget, "stop handing out seeds after S seconds")
      ->transform(real_number(std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
                              "a number of seconds above 0"));

  ExploreArguments explore_arguments;
  auto* explore =
      app.add_subcommand("explore", "run every interleaving up to equivalence (dynamic partial-order reduction)");
  add_request_options(*explore, arguments);
  explore->add_option("--max-executions", explore_arguments.max_executions, "stop after N runs (0: no bound)")
      ->transform(whole_number(0, std::numeric_limits<std::uint64_t>::max()));
  auto* preemption_bound = explore
                               ->add_option("--preemption-bound", explore_arguments.preemption_bound,
                                            "explore only schedules with at most K preemptions")
                               ->transform(whole_number(0, std::numeric_limits<int>::max()));
  explore->add_flag("--keep-going", explore_arguments.keep_going, "go on after the first failure");
  explore
      ->add_option("--jobs", explore_arguments.jobs,
                   "worker threads sharing one tree (exhausted: the same verdicts as one; docs/semantics.md §7)")
      ->transform(whole_number(1, 256))
      ->excludes(preemption_bound);
  explore->add_option("--checkpoint", explore_arguments.checkpoint,
                      "save the exploration's state to F every few seconds and when it stops (one job)");
  explore->add_option("--resume", explore_arguments.resume,
                      "go on from the checkpoint F, saving to it (unless --checkpoint names another)");
  explore
      ->add_option("--checkpoint-every", explore_arguments.checkpoint_every,
                   "seconds between two saves of the checkpoint (5 by default; 0: after every run)")
      ->transform(real_number(0, std::numeric_limits<double>::max(), "a number of seconds, 0 or more"));
  explore->add_option("--jsonl", files.jsonl, "write a JSON line per failing verdict and a summary line");
  explore->add_option("--junit", files.junit, "write a JUnit XML report");
  add_trace_options(*explore, traces);

  std::vector<std::string> merge_files;
  auto* merge =
      app.add_subcommand("merge", "merge the --jsonl files of a sweep's shards into one (failures in seed order)");
  merge->add_option("FILES", merge_files, "JSON lines files written by weft sweep --jsonl")->required();

  BenchRequest bench_request;
  CLI::App* bench_command = nullptr;
  if (bench) {
    bench_command = app.add_subcommand("bench", "measure weft's costs on this machine; print one JSON object");
    bench_command->add_flag("--quick", bench_request.quick, "small workloads (a smoke test: the figures are noisy)");
    bench_command
        ->add_option("--scale-devices", bench_request.scale_devices,
                     "devices (x 4 cores) of the large ring all-gather, 256 by default (32 with --quick); "
                     "the small one has 1/16 of them")
        ->transform(whole_number(16, 4096));
    bench_command->add_option("--reference", bench_request.reference,
                              "a JAX source tree: run its interpret mode's machine model (SharedMemory, in "
                              "threads) on the Python ring all-gather, beside weft (python3 -m weft bench)");
  }

  if (const auto unknown = unknown_verb(app, argc, argv)) {
    std::cerr << "weft: " << *unknown << "\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    app.exit(error);
    return 2;
  }

  if (replay->parsed() && !seed && !schedule) {
    std::cerr << "weft replay: give --seed N or --schedule S\n";
    return 2;
  }

  // Before anything is loaded, so that a signal from now on is a request to stop (one that comes
  // while the libraries load stops the command before its first execution, with its files).
  const std::atomic<bool>* interrupted = sweep->parsed() || explore->parsed() ? &install_interrupt_handlers() : nullptr;

  Catalog catalog(scripts);  // outlives the handlers below: an exception may come from a library's code
  try {
    if (bench_command != nullptr && bench_command->parsed()) return bench(bench_request);
    if (merge->parsed()) return command_merge(merge_files);
    catalog.add_builtin(registry);
    for (const auto& library : kernel_libraries(arguments)) catalog.load(library);
    if (list->parsed()) return command_list(catalog);
    const Request request = resolve_request(arguments, catalog.scenarios());
    note_scenario(scenario_description(catalog, *request.scenario));
    // --trace-text on weft's own stdout (/dev/stdout, its file by name) is stdout: in order, after the report.
    if (traces.text && *traces.text != "-" && same_file_as(*traces.text, STDOUT_FILENO)) traces.text = "-";
    std::vector<NamedOutput> outputs = outputs_of(traces, files);
    // The checkpoint is written too: --resume F without --checkpoint saves to F.
    if (explore->parsed() && (explore_arguments.checkpoint || explore_arguments.resume))
      outputs.push_back(explore_arguments.checkpoint ? NamedOutput{"--checkpoint", *explore_arguments.checkpoint}
                                                     : NamedOutput{"--resume", *explore_arguments.resume});
    check_outputs(outputs, request.inputs);
    if (explore->parsed()) {
      explore_arguments.interrupted = interrupted;
      explore_arguments.jsonl = files.jsonl;
      explore_arguments.junit = files.junit;
      explore_arguments.ranks = ranks;
      return command_explore(request, program, explore_arguments, traces);
    }
    if (run->parsed()) return command_run(request, program, seed, traces);
    if (replay->parsed())
      return schedule ? command_replay_schedule(request, program, *schedule, traces)
                      : command_run(request, program, seed, traces);
    SweepOptions options;
    options.seeds = parse_seed_range(seeds);
    options.shard = resolve_shard(shard, shard_count, process_environment());
    if (!shard) touch_shard_status_file(process_environment());
    options.jobs = jobs;
    options.keep_going = keep_going;
    options.time_budget_seconds = time_budget;
    options.interrupted = interrupted;
    return command_sweep(request, program, options, files);
  } catch (const ConfigError& error) {
    std::cerr << "weft: " << error.what() << "\n";
    return 2;
  } catch (const scheduler::ScheduleError& error) {
    std::cerr << "weft: " << error.what() << "\n";
    return 2;
  } catch (const scheduler::ScheduleDiverged& error) {
    std::cerr << "weft: " << error.what() << "\n";
    return 2;
  } catch (const NotModelled& error) {
    std::cerr << "weft: " << error.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& error) {
    std::cerr << "weft: scenario setup: " << error.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "weft: out of host memory: this machine cannot hold what the command asked for; give a smaller "
                 "configuration (topology, params), or a host memory budget that refuses it by name "
                 "(--set memory.host_bytes=BYTES)\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "weft: internal error: " << error.what() << "\n";
    return 3;
  }
}

}  // namespace

int run_cli(int argc, char** argv, const ScenarioRegistry& registry, const BenchCommand& bench,
            const ScriptLoader& scripts, RankTransport* ranks) {
  occupy_closed_standard_fds();
  if (const auto problem = stack_limit_problem()) {  // before anything runs that could overflow it
    std::cerr << "weft: " << *problem << "\n";
    return 2;
  }
  return with_stdout_checked(run_command(argc, argv, registry, bench, scripts, ranks));
}

}  // namespace weft::sim
