#pragma once
// The host side of a scenario: before the kernel it allocates and fills the named hbm buffers
// of every device; after it, the scenario's check reads them back.

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <Eigen/Core>

#include "model/machine.hpp"
#include "sim/config/params.hpp"

namespace weft::sim {

class Host {
 public:
  Host(model::Machine& machine, const Params& params) : machine_(machine), params_(params) {}

  int num_devices() const { return machine_.topology().devices(); }
  int num_cores() const { return machine_.topology().cores_per_device(); }
  // The program has `launches` launches (docs/semantics.md §12), as the scenario's host code made
  // them (a host function that calls several pallas_calls, or a C++ program of different
  // kernels): every core runs the kernel that many times. Throws std::invalid_argument when the
  // configuration asks for another count than 1 or `launches`, or `launches` is below 1.
  void set_program_launches(int launches) {
    const int configured = machine_.spec().launches;
    if (launches < 1) throw std::invalid_argument("host: a program of " + std::to_string(launches) + " launches");
    if (configured != 1 && configured != launches)
      throw std::invalid_argument("host: the scenario's program has " + std::to_string(launches) +
                                  " launches, the configuration asks for " + std::to_string(configured) +
                                  " (program.launches)");
    machine_.set_launches(launches);
  }
  std::int64_t param(std::string_view name) const;
  const ParamValue& param_value(std::string_view name) const;

  // Allocates the hbm buffer `name` on every device (same id everywhere); its contents start
  // as the `uninitialized` policy says.
  template <class T>
  void hbm(std::string name, const model::Shape& shape) {
    machine_.memory().host_allocate(std::move(name), model::element_type_of<T>(), shape);
  }

  // The same for an element type chosen at run time (bindings of other languages, python/).
  void hbm(std::string name, model::ElementType type, const model::Shape& shape) {
    machine_.memory().host_allocate(std::move(name), type, shape);
  }
  // The bytes of `name` on `device`, row-major; throws std::invalid_argument when there is none.
  std::span<std::byte> bytes(std::string_view name, int device) {
    model::Buffer* buffer = machine_.memory().find_named(device, name);
    if (buffer == nullptr)
      throw std::invalid_argument("host: no buffer '" + std::string(name) + "' on device " + std::to_string(device));
    return {reinterpret_cast<std::byte*>(buffer->data<std::uint8_t>()), static_cast<std::size_t>(buffer->bytes())};
  }
  std::span<const std::byte> bytes(std::string_view name, int device) const {
    return const_cast<Host*>(this)->bytes(name, device);
  }

  // The contents of `name` on `device`, flat and row-major.
  template <class T>
  Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>> data(std::string_view name, int device) {
    model::Buffer& buffer = find<T>(name, device);
    return {buffer.data<T>(), buffer.info().shape.volume()};
  }
  template <class T>
  Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> data(std::string_view name, int device) const {
    const model::Buffer& buffer = const_cast<Host*>(this)->find<T>(name, device);
    return {buffer.data<T>(), buffer.info().shape.volume()};
  }

 private:
  template <class T>
  model::Buffer& find(std::string_view name, int device) {
    model::Buffer* buffer = machine_.memory().find_named(device, name);
    if (buffer == nullptr || buffer->info().type != model::element_type_of<T>())
      throw std::invalid_argument("host: no " + std::string(model::to_string(model::element_type_of<T>())) +
                                  " buffer '" + std::string(name) + "' on device " + std::to_string(device));
    return *buffer;
  }

  model::Machine& machine_;
  const Params& params_;
};

}  // namespace weft::sim
