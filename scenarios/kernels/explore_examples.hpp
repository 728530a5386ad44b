#pragma once
// The yardsticks' kernel bodies over any int32 array (explore_examples.cpp runs them on HBM; the
// explorer's tests also run them on vmem_shared).

#include "sim/api/core.hpp"

namespace weft::scenarios {

// Core 0 stores into x[0], every other core loads it.
void readers_body(sim::Core& core, const sim::Ref<std::int32_t>& x);
// Core 0 scans a[N], a[N-1], ... down to the first zero; core j sets a[j] = a[j-1] + 1.
void lastzero_body(sim::Core& core, const sim::Ref<std::int32_t>& a);

}  // namespace weft::scenarios
