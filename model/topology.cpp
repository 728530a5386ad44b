#include "model/topology.hpp"
#include "model/words.hpp"

namespace weft::model {

std::string to_string(CoreId id) { return words::core(id.device, id.core); }

Topology::Topology(const MachineSpec& spec)
    : mesh_(spec.mesh), devices_(spec.devices()), cores_per_device_(spec.cores_per_device) {}

std::vector<int> Topology::coords(int device) const {
  std::vector<int> result(mesh_.size());
  for (int axis = static_cast<int>(mesh_.size()) - 1; axis >= 0; --axis) {
    result[axis] = device % mesh_[axis];
    device /= mesh_[axis];
  }
  return result;
}

int Topology::device_at(const std::vector<int>& coords) const {
  int device = 0;
  for (std::size_t axis = 0; axis < mesh_.size(); ++axis) device = device * mesh_[axis] + coords[axis];
  return device;
}

}  // namespace weft::model
