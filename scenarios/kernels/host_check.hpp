#pragma once
// Helpers for scenarios' host side: deterministic input values and an exact comparison that
// names the first element that differs.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "sim/api/core.hpp"
#include "sim/api/host.hpp"
#include "sim/config/config_error.hpp"

namespace weft::scenarios {

// A small integer-valued float, exact under the sums the kernels compute.
inline float input_value(int device, std::int64_t element) {
  return static_cast<float>(device * 10 + static_cast<int>(element % 7));
}

// Host buffers `input` and `output` of `shape` on every device, `input` filled with input_value:
// the setup of most collectives.
inline void input_and_output(sim::Host& host, const model::Shape& input_shape, const model::Shape& output_shape,
                             const char* input = "x", const char* output = "out") {
  host.hbm<float>(input, input_shape);
  host.hbm<float>(output, output_shape);
  for (int d = 0; d < host.num_devices(); ++d) {
    auto x = host.data<float>(input, d);
    // input_value(d, i) without a division per element: the residue counts up and wraps.
    for (Eigen::Index i = 0, residue = 0; i < x.size(); ++i, residue = residue == 6 ? 0 : residue + 1)
      x[i] = static_cast<float>(d * 10 + static_cast<int>(residue));
  }
}

// A parameter that must be positive (a size, a count), checked by the setup so that a bad value
// is a configuration error naming its key (exit 2), not a division by zero in the kernel.
inline std::int64_t positive_param(const sim::Host& host, const char* name) {
  const std::int64_t value = host.param(name);
  if (value <= 0)
    throw sim::ConfigError("params", 0, 0, std::string("params.") + name,
                           "must be positive, not " + std::to_string(value));
  return value;
}
// A positive parameter that divides another (a block size and its array's extent).
inline std::int64_t dividing_param(const sim::Host& host, const char* name, const char* divided) {
  const std::int64_t value = positive_param(host, name), whole = host.param(divided);
  if (whole % value != 0)
    throw sim::ConfigError(
        "params", 0, 0, std::string("params.") + name,
        std::to_string(value) + " does not divide params." + divided + " = " + std::to_string(whole));
  return value;
}

// The rows this core owns when a device's cores split a tile's rows between them.
inline sim::Range row_block(sim::Core& core, std::int64_t rows) {
  const int cores = core.num_cores();
  core.check(rows % cores == 0,
             "rows (" + std::to_string(rows) + ") must divide evenly among " + std::to_string(cores) + " cores");
  const std::int64_t size = rows / cores;
  return sim::ds(core.core_id() * size, size);
}

// "" if `got` equals `want` element by element; else where the first difference is. Whole
// blocks of 256 elements are compared without an early exit, a loop of a constant count that
// GCC vectorizes even at -O2 (element by element, the check took a sixth of a small
// collective's execution); only a block that differs, and the last partial one, are searched
// element by element.
template <class Got, class Want>
std::string first_difference(std::string_view buffer, int device, const Got& got, const Want& want) {
  constexpr Eigen::Index block = 256;
  const Eigen::Index size = got.size();
  for (Eigen::Index start = 0; start < size; start += block) {
    if (start + block <= size) {
      int differs = 0;
      for (Eigen::Index i = 0; i < block; ++i) differs |= static_cast<int>(got[start + i] != want[start + i]);
      if (differs == 0) continue;
    }
    for (Eigen::Index i = start; i < std::min(size, start + block); ++i) {
      const float a = got[i], b = want[i];
      if (!(a == b))
        return std::string(buffer) + " on device " + std::to_string(device) + ", element " + std::to_string(i) +
               ": got " + (std::isnan(a) ? std::string("nan") : std::to_string(a)) + ", expected " + std::to_string(b);
    }
  }
  return {};
}

}  // namespace weft::scenarios
