#include "sim/engine/spin_reduction.hpp"

#include <algorithm>

namespace weft::sim {

void SpinReduction::change_polling(std::size_t global, bool spins, bool finished) {
  Flags& core = flags_[global];
  core.polling = spins;
  const int id = static_cast<int>(global);
  if (spins) {
    polling_.push_back(id);
    return;
  }
  polling_.erase(std::find(polling_.begin(), polling_.end(), id));
  core.released = !finished;  // released by this step's change
  released_now_.push_back(id);
}

}  // namespace weft::sim
