#include "sim/config/config_schema.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "scheduler/strategies/registry.hpp"

namespace weft::sim::detail {
namespace {

using model::CompatProfile;
using model::DmaExecution;
using model::OutOfBoundsReads;
using model::Uninitialized;

constexpr std::array<Choice<Uninitialized>, 2> uninitialized_choices{{
    {"nan", Uninitialized::nan},
    {"zero", Uninitialized::zero},
}};
constexpr std::array<Choice<OutOfBoundsReads>, 2> out_of_bounds_choices{{
    {"raise", OutOfBoundsReads::raise},
    {"uninitialized", OutOfBoundsReads::uninitialized},
}};
constexpr std::array<Choice<DmaExecution>, 3> dma_execution_choices{{
    {"eager", DmaExecution::eager},
    {"on_wait", DmaExecution::on_wait},
    {"async", DmaExecution::async},
}};
constexpr std::array<Choice<SemaphoreClocks>, 2> semaphore_clock_choices{{
    {"precise", SemaphoreClocks::precise},
    {"accumulate", SemaphoreClocks::accumulate},
}};
constexpr std::array<Choice<model::ClockKind>, 2> clock_kind_choices{{
    {"tree", model::ClockKind::tree},
    {"vector", model::ClockKind::vector},
}};
constexpr std::array<Choice<scheduler::FiberBackend>, 2> fiber_backend_choices{{
    {"context", scheduler::FiberBackend::context},
    {"boost_fiber", scheduler::FiberBackend::boost_fiber},
}};
constexpr std::array<Choice<CompatProfile>, 2> compat_choices{{
    {"none", CompatProfile::none},
    {"jax", CompatProfile::jax},
}};

constexpr std::int64_t stack_bytes_min = 64 * 1024;
constexpr std::int64_t stack_bytes_max = 64 * 1024 * 1024;
constexpr std::int64_t pct_depth_max = 64;

constexpr std::array<KeyRule, 7> memory_rules{{
    {"uninitialized", [](Config& c, const Field& f) { c.machine.uninitialized = f.choice(uninitialized_choices); }},
    {"out_of_bounds_reads",
     [](Config& c, const Field& f) { c.machine.out_of_bounds_reads = f.choice(out_of_bounds_choices); }},
    {"hbm_bytes", [](Config& c, const Field& f) { c.machine.hbm_bytes = f.integer(1); }},
    {"vmem_bytes", [](Config& c, const Field& f) { c.machine.vmem_bytes = f.integer(1); }},
    {"smem_bytes", [](Config& c, const Field& f) { c.machine.smem_bytes = f.integer(1); }},
    {"vmem_shared_bytes", [](Config& c, const Field& f) { c.machine.vmem_shared_bytes = f.integer(1); }},
    {"host_bytes", [](Config& c, const Field& f) { c.machine.host_bytes = f.integer(0); }},
}};

constexpr std::array<KeyRule, 2> dma_rules{{
    {"execution", [](Config& c, const Field& f) { c.machine.dma_execution = f.choice(dma_execution_choices); }},
    {"chunk_bytes", [](Config& c, const Field& f) { c.machine.dma_chunk_bytes = f.integer(0); }},
}};

constexpr std::array<KeyRule, 4> race_detection_rules{{
    {"enabled", [](Config& c, const Field& f) { c.race_detection.enabled = f.boolean(); }},
    {"keep_going", [](Config& c, const Field& f) { c.race_detection.keep_going = f.boolean(); }},
    {"semaphore_clocks",
     [](Config& c, const Field& f) { c.race_detection.semaphore_clocks = f.choice(semaphore_clock_choices); }},
    {"clocks", [](Config& c, const Field& f) { c.race_detection.clocks = f.choice(clock_kind_choices); }},
}};

constexpr double watchdog_seconds_max = 86'400;

constexpr std::array<KeyRule, 9> scheduler_rules{{
    {"strategy", [](Config& c, const Field& f) { c.scheduler.strategy = f.one_of(scheduler::strategy_names()); }},
    {"seed", [](Config& c, const Field& f) { c.scheduler.seed = static_cast<std::uint64_t>(f.integer(0)); }},
    {"pct_depth",
     [](Config& c, const Field& f) { c.scheduler.pct_depth = static_cast<int>(f.integer(1, pct_depth_max)); }},
    {"pct_steps", [](Config& c, const Field& f) { c.scheduler.pct_steps = f.integer(0); }},
    {"max_steps", [](Config& c, const Field& f) { c.scheduler.max_steps = f.integer(1); }},
    {"stack_bytes",
     [](Config& c, const Field& f) { c.scheduler.stack_bytes = f.integer(stack_bytes_min, stack_bytes_max); }},
    {"watchdog_seconds",
     [](Config& c, const Field& f) { c.scheduler.watchdog_seconds = f.number(0, watchdog_seconds_max); }},
    {"spin_reduction", [](Config& c, const Field& f) { c.scheduler.spin_reduction = f.boolean(); }},
    {"fiber_backend", [](Config& c, const Field& f) { c.scheduler.fiber_backend = f.choice(fiber_backend_choices); }},
}};

constexpr std::array<KeyRule, 1> compat_rules{{
    {"profile", [](Config& c, const Field& f) { c.machine.compat = f.choice(compat_choices); }},
}};

constexpr int launches_max = 1'000'000;

constexpr std::array<KeyRule, 1> program_rules{{
    {"launches", [](Config& c, const Field& f) { c.machine.launches = static_cast<int>(f.integer(1, launches_max)); }},
}};

struct SectionRule {
  std::string_view name;
  void (*apply)(Config& config, const TomlDocument& document, const toml::table& table);
};

constexpr std::array<SectionRule, 7> section_rules{{
    {"topology", apply_topology_section},
    {"memory",
     [](Config& c, const TomlDocument& d, const toml::table& t) { apply_rules(c, d, "memory", t, memory_rules); }},
    {"dma", [](Config& c, const TomlDocument& d, const toml::table& t) { apply_rules(c, d, "dma", t, dma_rules); }},
    {"race_detection", [](Config& c, const TomlDocument& d,
                          const toml::table& t) { apply_rules(c, d, "race_detection", t, race_detection_rules); }},
    {"scheduler", [](Config& c, const TomlDocument& d,
                     const toml::table& t) { apply_rules(c, d, "scheduler", t, scheduler_rules); }},
    {"compat",
     [](Config& c, const TomlDocument& d, const toml::table& t) { apply_rules(c, d, "compat", t, compat_rules); }},
    {"program",
     [](Config& c, const TomlDocument& d, const toml::table& t) { apply_rules(c, d, "program", t, program_rules); }},
}};

constexpr std::array<std::string_view, 7> section_names{"topology",  "memory", "dma",    "race_detection",
                                                        "scheduler", "compat", "program"};

bool contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

[[noreturn]] void fail_unknown_top_level(const TomlDocument& document, const Entry& entry,
                                         const OtherTopLevel& others) {
  const std::string name{entry.key->str()};
  if (contains(others.misplaced, name))
    document.fail(entry.key->source().begin, name,
                  "not allowed here (it belongs in " + std::string{others.misplaced_where} + ")");
  std::vector<std::string_view> sections(section_names.begin(), section_names.end());
  sections.insert(sections.end(), others.sections.begin(), others.sections.end());
  const bool is_section = entry.node->is_table();
  std::string message = is_section ? "unknown section (" : "unknown key (";
  if (!is_section && !others.keys.empty()) message += "known keys: " + join_list(others.keys) + "; ";
  message += "known sections: " + join_list(sections) + ")";
  document.fail(entry.key->source().begin, name, message);
}

}  // namespace

std::span<const std::string_view> config_section_names() { return section_names; }

void apply_rules(Config& config, const TomlDocument& document, std::string_view section, const toml::table& table,
                 std::span<const KeyRule> rules) {
  for (const Entry& entry : entries_in_source_order(table)) {
    const Field field{document, dotted(section, entry.key->str()), *entry.key, *entry.node};
    const auto rule = std::find_if(rules.begin(), rules.end(),
                                   [&](const KeyRule& candidate) { return candidate.name == entry.key->str(); });
    if (rule == rules.end()) {
      std::vector<std::string_view> known;
      for (const KeyRule& r : rules) known.push_back(r.name);
      field.fail_at_key("unknown key (known keys: " + join_list(known) + ")");
    }
    rule->apply(config, field);
  }
}

void apply_config_document(Config& config, const TomlDocument& document, const OtherTopLevel& others) {
  for (const Entry& entry : entries_in_source_order(document.root())) {
    const std::string_view name = entry.key->str();
    const auto rule =
        std::find_if(section_rules.begin(), section_rules.end(), [&](const SectionRule& r) { return r.name == name; });
    if (rule != section_rules.end()) {
      const Field section{document, std::string{name}, *entry.key, *entry.node};
      rule->apply(config, document, section.table());
    } else if (!contains(others.keys, name) && !contains(others.sections, name)) {
      fail_unknown_top_level(document, entry, others);
    }
  }
}

}  // namespace weft::sim::detail
