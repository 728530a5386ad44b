#include "model/semaphores.hpp"

namespace weft::model {

std::string_view to_string(SemaphoreKind kind) {
  switch (kind) {
    case SemaphoreKind::regular: return "regular";
    case SemaphoreKind::dma: return "dma";
    case SemaphoreKind::barrier: return "barrier";
  }
  return "?";
}

Semaphores::Semaphores(const Topology& topology)
    : topology_(topology), next_id_(topology.cores(), first_semaphore_id) {}

int Semaphores::find_or_create(int id, SemaphoreKind kind) {
  auto [found, fresh] = index_of_.try_emplace(id, static_cast<int>(semaphores_.size()));
  if (fresh) semaphores_.push_back({id, kind, std::vector<std::int64_t>(topology_.cores(), 0)});
  return found->second;
}

int Semaphores::allocate(CoreId by, SemaphoreKind kind, Failure& failure, const Naming& naming) {
  const int id = next_id_[topology_.global(by)]++;
  const int index = find_or_create(id, kind);
  Semaphore& found = semaphores_[index];
  if (found.kind == kind) {
    if (found.site.line == 0 && found.name.empty()) {  // the first allocation of the id names it
      found.name = naming.name;
      found.site = naming.site;
    }
    return index;
  }
  const bool barrier_clash = semaphores_[index].kind == SemaphoreKind::barrier;
  failure = {Verdict::kernel_error,
             barrier_clash
                 ? to_string(by) + " allocates semaphore " + std::to_string(id) +
                       ", which is the id of the launch's barrier semaphore"
                 : "allocation order differs between cores: semaphore " + std::to_string(id) + " is " +
                       std::string(to_string(semaphores_[index].kind)) + " elsewhere but " +
                       std::string(to_string(kind)) + " on " + to_string(by)};
  return -1;
}

int Semaphores::fixed(int id, SemaphoreKind kind, Failure& failure) {
  const int index = find_or_create(id, kind);
  if (semaphores_[index].kind == kind) return index;
  failure = {Verdict::kernel_error, "the " + std::string(to_string(kind)) + " semaphore id " + std::to_string(id) +
                                        " is already the id of a " +
                                        std::string(to_string(semaphores_[index].kind)) + " semaphore"};
  return -1;
}

std::string Semaphores::describe(int index) const {
  std::string text = std::string(to_string(kind(index))) + " semaphore " + std::to_string(id(index));
  if (const std::string name = called(index); !name.empty()) text += " '" + name + "'";
  return text;
}

std::vector<SemaphoreCell> Semaphores::nonzero_cells() const {
  std::vector<SemaphoreCell> cells;
  for (const auto& [id, index] : index_of_) {
    const auto& counts = semaphores_[index].counts;
    for (int core = 0; core < static_cast<int>(counts.size()); ++core)
      if (counts[core] != 0) cells.push_back({index, id, core, counts[core]});
  }
  return cells;
}

}  // namespace weft::model
