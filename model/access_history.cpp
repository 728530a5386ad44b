#include "model/access_history.hpp"

namespace weft::model {

AccessHistory::AccessHistory(const Shape& shape) {
  const std::int64_t rows = shape.rank == 0 ? 1 : std::max<std::int64_t>(shape.dims[0], 1);
  rows_per_bucket_ = (rows + static_cast<std::int64_t>(max_buckets) - 1) / static_cast<std::int64_t>(max_buckets);
  buckets_.resize(static_cast<std::size_t>((rows + rows_per_bucket_ - 1) / rows_per_bucket_));
}

}  // namespace weft::model
