#include "scenarios/kernels/pallas/paged_pool.hpp"

#include <stdexcept>

#include "scenarios/kernels/host_check.hpp"

namespace weft::scenarios::paged_pool {

sim::Params params() {
  return {{"sequences", 4}, {"per_sequence", 2}, {"page", 8}, {"pages", 6}, {"block_table", sim::ParamValue::list({})}};
}

std::vector<std::int32_t> block_table(const sim::Host& host, Pages pages) {
  const std::int64_t sequences = host.param("sequences"), per_sequence = host.param("per_sequence");
  const std::int64_t pool = host.param("pages");
  const auto given = host.param_value("block_table").as_integer_lists();
  if (!given.empty() && static_cast<std::int64_t>(given.size()) != sequences)
    throw std::invalid_argument("params.block_table has " + std::to_string(given.size()) + " rows for " +
                                std::to_string(sequences) + " sequences");
  std::vector<std::int32_t> table;
  for (std::int64_t sequence = 0; sequence < sequences; ++sequence) {
    const auto row = static_cast<std::size_t>(sequence);
    if (!given.empty() && static_cast<std::int64_t>(given[row].size()) != per_sequence)
      throw std::invalid_argument("params.block_table row " + std::to_string(sequence) + " has " +
                                  std::to_string(given[row].size()) +
                                  " pages, not per_sequence = " + std::to_string(per_sequence));
    for (std::int64_t slot = 0; slot < per_sequence; ++slot) {
      const std::int64_t page =
          given.empty() ? (sequence * 3 + slot * 5) % pool : given[row][static_cast<std::size_t>(slot)];
      if (pages == Pages::in_pool && (page < 0 || page >= pool))
        throw std::invalid_argument("params.block_table row " + std::to_string(sequence) + " names page " +
                                    std::to_string(page) + " of a pool of " + std::to_string(pool));
      table.push_back(static_cast<std::int32_t>(page));
    }
  }
  return table;
}

void setup(sim::Host& host, Pages pages) {
  for (const char* count : {"sequences", "per_sequence", "page", "pages"}) positive_param(host, count);
  const std::int64_t sequences = host.param("sequences"), per_sequence = host.param("per_sequence");
  const std::int64_t page = host.param("page"), pool_pages = host.param("pages");
  const std::vector<std::int32_t> table = block_table(host, pages);
  host.hbm<float>("pool", {pool_pages, page});
  host.hbm<std::int32_t>("table", {sequences * per_sequence});
  host.hbm<float>("out", {sequences, per_sequence, page});
  for (int d = 0; d < host.num_devices(); ++d) {
    auto pool = host.data<float>("pool", d);
    for (Eigen::Index i = 0; i < pool.size(); ++i) pool[i] = input_value(d, i);
    auto slots = host.data<std::int32_t>("table", d);
    for (Eigen::Index i = 0; i < slots.size(); ++i) slots[i] = table[static_cast<std::size_t>(i)];
  }
}

std::string check(const sim::Host& host, Pages pages) {
  const std::int64_t page = host.param("page");
  const std::vector<std::int32_t> table = block_table(host, pages);
  for (int d = 0; d < host.num_devices(); ++d) {
    const auto pool = host.data<float>("pool", d), out = host.data<float>("out", d);
    Eigen::Array<float, Eigen::Dynamic, 1> want(out.size());
    for (Eigen::Index i = 0; i < want.size(); ++i)
      want[i] = 2 * pool[table[static_cast<std::size_t>(i / page)] * page + i % page];
    if (auto wrong = first_difference("out", d, out, want); !wrong.empty()) return wrong;
  }
  return "";
}

}  // namespace weft::scenarios::paged_pool
