// [topology]: `devices = D` (a 1-D mesh) or `mesh = [..]`, `cores_per_device`, and the limit
// on the total number of cores.
#include <array>
#include <string>
#include <vector>

#include "sim/config/config_schema.hpp"

namespace weft::sim::detail {
namespace {

constexpr std::int64_t devices_max = 4096;
constexpr std::size_t mesh_rank_max = 4;
constexpr std::int64_t cores_per_device_max = 64;
constexpr std::int64_t total_cores_max = 16384;

std::vector<int> read_mesh(const Field& field) {
  const toml::array& extents = field.array();
  if (extents.empty() || extents.size() > mesh_rank_max)
    field.fail("expected 1 to " + std::to_string(mesh_rank_max) + " extents, found " + std::to_string(extents.size()));
  std::vector<int> mesh;
  std::int64_t devices = 1;
  for (const toml::node& extent : extents) {
    const std::int64_t size = field.integer_at(extent, 1, devices_max);
    devices *= size;  // at most 4096^4: no overflow
    mesh.push_back(static_cast<int>(size));
  }
  if (devices > devices_max)
    field.fail("the mesh has " + std::to_string(devices) + " devices (expected at most " + std::to_string(devices_max) +
               ")");
  return mesh;
}

constexpr std::array<KeyRule, 3> topology_rules{{
    {"devices", [](Config& c, const Field& f) { c.machine.mesh = {static_cast<int>(f.integer(1, devices_max))}; }},
    {"mesh", [](Config& c, const Field& f) { c.machine.mesh = read_mesh(f); }},
    {"cores_per_device",
     [](Config& c, const Field& f) {
       c.machine.cores_per_device = static_cast<int>(f.integer(1, cores_per_device_max));
     }},
}};

// One document may give the devices as a count or as a mesh, not both; the later is the error.
void check_devices_or_mesh(const TomlDocument& document, const toml::table& table) {
  const auto devices = table.find("devices");
  const auto mesh = table.find("mesh");
  if (devices == table.end() || mesh == table.end()) return;
  const auto later = comes_before(devices->first.source().begin, mesh->first.source().begin) ? mesh : devices;
  document.fail(later->first.source().begin, dotted("topology", later->first.str()),
                "give either devices or mesh, not both");
}

// Blames the topology value of this document that comes last: it made the total too large.
void check_total_cores(const Config& config, const TomlDocument& document, const toml::table& table) {
  const std::int64_t devices = config.machine.devices();
  const std::int64_t cores = devices * config.machine.cores_per_device;
  if (cores <= total_cores_max) return;
  const toml::node* latest = nullptr;
  std::string_view latest_name;
  for (const KeyRule& rule : topology_rules) {
    const toml::node* node = table.get(rule.name);
    if (node != nullptr && (latest == nullptr || comes_before(latest->source().begin, node->source().begin))) {
      latest = node;
      latest_name = rule.name;
    }
  }
  if (latest == nullptr) return;  // the config was over the limit before this document
  document.fail(latest->source().begin, dotted("topology", latest_name),
                std::to_string(devices) + " devices * " + std::to_string(config.machine.cores_per_device) +
                    " cores_per_device = " + std::to_string(cores) + " cores (expected at most " +
                    std::to_string(total_cores_max) + ")");
}

}  // namespace

void apply_topology_section(Config& config, const TomlDocument& document, const toml::table& table) {
  check_devices_or_mesh(document, table);
  apply_rules(config, document, "topology", table, topology_rules);
  check_total_cores(config, document, table);
}

}  // namespace weft::sim::detail
