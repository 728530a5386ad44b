#include "model/access_history.hpp"

namespace weft::model {

AccessHistory::AccessHistory(const Shape& shape) {
  const std::int64_t rows = shape.rank == 0 ? 1 : std::max<std::int64_t>(shape.dims[0], 1);
  while ((rows - 1) >> bucket_shift_ >= static_cast<std::int64_t>(max_buckets)) ++bucket_shift_;
  buckets_.resize(static_cast<std::size_t>(((rows - 1) >> bucket_shift_) + 1));
}

}  // namespace weft::model
