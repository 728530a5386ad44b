#pragma once
// The copy the Pallas pipeline tests run through different launches: x (32 x 8, x[i] = i) in
// HBM, and out, which must come back as x plus one.

#include <string>

#include "sim/api/host.hpp"

namespace weft::sim::test {

inline void plus_one_setup(Host& host) {
  host.hbm<float>("x", {32, 8});
  host.hbm<float>("out", {32, 8});
  auto x = host.data<float>("x", 0);
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
}

// "" when out is x plus one; else the first element that is not.
inline std::string plus_one_check(const Host& host) {
  const auto out = host.data<float>("out", 0);
  for (Eigen::Index i = 0; i < out.size(); ++i)
    if (out[i] != static_cast<float>(i) + 1)
      return "out element " + std::to_string(i) + " is " + std::to_string(out[i]);
  return "";
}

}  // namespace weft::sim::test
