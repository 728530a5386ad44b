#include "model/words.hpp"

#include "model/semaphores.hpp"

namespace weft::model::words {

std::string device(int device) { return "device " + std::to_string(device); }

std::string core(int device, int core) { return words::device(device) + " core " + std::to_string(core); }

std::string core_of(int global_core, int cores_per_device) {
  return core(global_core / cores_per_device, global_core % cores_per_device);
}

std::string dma(int id) { return "DMA " + std::to_string(id); }

std::string dma_lane(int lane) { return "DMA lane " + std::to_string(lane); }

std::string semaphore(int id, std::string_view called) {
  std::string text = id == sync_copy_semaphore_id ? "sync_copy semaphore "
                     : id < first_semaphore_id    ? "barrier semaphore "
                                                  : "semaphore ";
  text += std::to_string(id);
  if (!called.empty()) text.append(" '").append(called).append("'");
  return text;
}

std::string cell(int device, int core) { return "cell of " + words::core(device, core); }

std::string cell_of(int global_core, int cores_per_device) {
  return "cell of " + core_of(global_core, cores_per_device);
}

std::string buffer(std::string_view space, int id, std::string_view called, std::string_view type_and_shape, int device,
                   int core) {
  std::string text = std::string(space) + " buffer " + std::to_string(id);
  if (!called.empty()) text.append(" '").append(called).append("'");
  text.append(" ").append(type_and_shape).append(" on ");
  return text + (core >= 0 ? words::core(device, core) : words::device(device));
}

}  // namespace weft::model::words
