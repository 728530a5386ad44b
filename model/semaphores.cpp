#include "model/semaphores.hpp"

#include "model/words.hpp"
namespace weft::model {

std::string_view to_string(SemaphoreKind kind) {
  switch (kind) {
    case SemaphoreKind::regular:
      return "regular";
    case SemaphoreKind::dma:
      return "dma";
    case SemaphoreKind::barrier:
      return "barrier";
  }
  return "?";
}

Semaphores::Semaphores(const Topology& topology, int launches)
    : topology_(topology), launches_(launches), next_id_(topology.cores(), first_semaphore_id) {}

int Semaphores::find_or_create(int launch, int id, SemaphoreKind kind) {
  auto [found, fresh] = index_of_.try_emplace({launch, id}, static_cast<int>(semaphores_.size()));
  if (fresh) semaphores_.push_back({id, launch, kind, std::vector<std::int64_t>(topology_.cores(), 0)});
  return found->second;
}

int Semaphores::find(int launch, int id) const {
  const auto found = index_of_.find({launch, id});
  return found == index_of_.end() ? -1 : found->second;
}

int Semaphores::allocate(CoreId by, int launch, SemaphoreKind kind, Failure& failure, const Naming& naming) {
  const int id = next_id_[topology_.global(by)]++;
  if (const int fixed = find(-1, id); fixed >= 0 && semaphores_[fixed].kind == SemaphoreKind::barrier) {
    failure = {Verdict::kernel_error, to_string(by) + " allocates semaphore " + std::to_string(id) +
                                          ", which is the id of the launch's barrier semaphore"};
    return -1;
  }
  const int index = find_or_create(launch, id, kind);
  Semaphore& found = semaphores_[index];
  if (found.kind == kind) {
    if (found.site.line == 0 && found.name.empty()) {  // the first allocation of the id names it
      found.name = naming.name;
      found.site = naming.site;
    }
    return index;
  }
  failure = {Verdict::kernel_error, "allocation order differs between cores: semaphore " + std::to_string(id) + " is " +
                                        std::string(to_string(semaphores_[index].kind)) + " elsewhere but " +
                                        std::string(to_string(kind)) + " on " + to_string(by)};
  return -1;
}

int Semaphores::fixed(int id, SemaphoreKind kind, Failure& failure) {
  const auto clash = [&](int index) {
    failure = {Verdict::kernel_error, "the " + std::string(to_string(kind)) + " semaphore id " + std::to_string(id) +
                                          " is already the id of a " + std::string(to_string(semaphores_[index].kind)) +
                                          " semaphore"};
    return -1;
  };
  if (find(-1, id) < 0)  // made now: no launch may have allocated the id as another kind
    for (const auto& [key, index] : index_of_)
      if (key.second == id && semaphores_[index].kind != kind) return clash(index);
  const int index = find_or_create(-1, id, kind);
  return semaphores_[index].kind == kind ? index : clash(index);
}

std::string Semaphores::describe(int index) const {
  std::string text = words::semaphore(id(index), called(index));
  if (launches_ > 1 && launch(index) >= 0) text += ", of launch " + std::to_string(launch(index) + 1);
  return text;
}

std::vector<SemaphoreCell> Semaphores::nonzero_cells() const {
  std::vector<SemaphoreCell> cells;
  for (const auto& [key, index] : index_of_) {
    const auto& counts = semaphores_[index].counts;
    for (int core = 0; core < static_cast<int>(counts.size()); ++core)
      if (counts[core] != 0) cells.push_back({index, key.second, key.first, core, counts[core]});
  }
  return cells;
}

std::vector<int> Semaphores::of_launch(int launch) const {
  std::vector<int> indices;
  for (auto it = index_of_.lower_bound({launch, 0}); it != index_of_.end() && it->first.first == launch; ++it)
    indices.push_back(it->second);
  return indices;
}

std::vector<SemaphoreCell> Semaphores::nonzero_cells(int launch, int global_core) const {
  std::vector<SemaphoreCell> cells;
  for (auto it = index_of_.lower_bound({launch, 0}); it != index_of_.end() && it->first.first == launch; ++it)
    if (const std::int64_t count = semaphores_[it->second].counts[global_core]; count != 0)
      cells.push_back({it->second, it->first.second, launch, global_core, count});
  return cells;
}

}  // namespace weft::model
