#pragma once
// Devices, cores and their identities (docs/semantics.md §1): a row-major mesh of devices, each with
// the same number of cores; a core's global id is `device * cores_per_device + core`.

#include <string>
#include <vector>

#include "model/machine_spec.hpp"

namespace weft::model {

struct CoreId {
  int device = 0;
  int core = 0;
  friend bool operator==(CoreId, CoreId) = default;
};

std::string to_string(CoreId id);  // "device 1 core 0" (model/words.hpp)

class Topology {
 public:
  explicit Topology(const MachineSpec& spec);

  int devices() const { return devices_; }
  int cores_per_device() const { return cores_per_device_; }
  int cores() const { return devices_ * cores_per_device_; }
  const std::vector<int>& mesh() const { return mesh_; }

  int global(CoreId id) const { return id.device * cores_per_device_ + id.core; }
  CoreId core_of(int global_id) const { return {global_id / cores_per_device_, global_id % cores_per_device_}; }
  bool contains(CoreId id) const {
    return id.device >= 0 && id.device < devices_ && id.core >= 0 && id.core < cores_per_device_;
  }
  // Mesh coordinates of a device (row-major), and back.
  std::vector<int> coords(int device) const;
  int device_at(const std::vector<int>& coords) const;

 private:
  std::vector<int> mesh_;
  int devices_;
  int cores_per_device_;
};

}  // namespace weft::model
