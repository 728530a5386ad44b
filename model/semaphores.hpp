#pragma once
// Semaphores (docs/semantics.md §3): ids allocated SPMD-symmetrically from a per-core counter starting
// at 2000, plus semaphores with fixed ids that exist before the kernel asks: the launch's
// barrier semaphore, and the DMA semaphore of sync copies. Each (semaphore, global core) pair is
// one counter cell; waits only ever look at the waiter's own cell.
//
// In a program of several launches (§12) each launch allocates its own semaphores from the same
// ids (the counter starts again at 2000 when a core ends a launch): a semaphore is one launch's
// (launch, id), so launches may give one id different kinds. The fixed ones belong to no launch
// and carry across (launch -1).

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/failure.hpp"
#include "model/naming.hpp"
#include "model/topology.hpp"

namespace weft::model {

enum class SemaphoreKind { regular, dma, barrier };
std::string_view to_string(SemaphoreKind kind);

inline constexpr int first_semaphore_id = 2000;
// The DMA semaphore every sync copy signals and waits on (each core on its own cell: a sync
// copy is local and waited at once, so the cell holds one copy's bytes at most).
inline constexpr int sync_copy_semaphore_id = first_semaphore_id - 1;

struct SemaphoreCell {
  int index = 0;        // the semaphore's index
  int id = 0;           // the semaphore's id
  int launch = 0;       // the launch it belongs to (-1: a fixed one)
  int global_core = 0;  // whose cell
  std::int64_t count = 0;
};

class Semaphores {
 public:
  // `launches`: how many the program has (only named in descriptions when more than one).
  explicit Semaphores(const Topology& topology, int launches = 1);
  // The program has `launches` launches after all (Machine::set_launches: before the first
  // allocation).
  void set_launches(int launches) { launches_ = launches; }

  // Allocates the next id of `by`'s counter in launch `launch` (0-based); returns its index, or
  // -1 with a failure when another core allocated that id with a different kind in that launch
  // (asymmetric allocation). `naming`: what the kernel calls it (the first core to allocate the
  // id names it).
  int allocate(CoreId by, int launch, SemaphoreKind kind, Failure& failure, const Naming& naming = {});
  // `by` ended a launch: its counter starts again at the first id.
  void restart_ids(CoreId by) { next_id_[topology_.global(by)] = first_semaphore_id; }
  // The semaphore of `kind` with a fixed id, made on first use; -1 with a failure if the id is
  // taken by a semaphore of another kind.
  int fixed(int id, SemaphoreKind kind, Failure& failure);

  int size() const { return static_cast<int>(semaphores_.size()); }
  int id(int index) const { return semaphores_[index].id; }
  int launch(int index) const { return semaphores_[index].launch; }
  SemaphoreKind kind(int index) const { return semaphores_[index].kind; }
  // What the kernel calls it (model/naming.hpp); "" for the barrier semaphore.
  SourceLine site(int index) const { return semaphores_[index].site; }
  std::string called(int index) const { return model::called(semaphores_[index].name, semaphores_[index].site); }
  // "semaphore 2003 'capacity'", "barrier semaphore 0" (model/words.hpp; ", of launch 2" in a
  // program of several launches)
  std::string describe(int index) const;
  // The semaphore of `launch` with `id`; -1 if that launch allocated none.
  int find(int launch, int id) const;
  std::int64_t count(int index, int global_core) const { return semaphores_[index].counts[global_core]; }
  void add(int index, int global_core, std::int64_t amount) { semaphores_[index].counts[global_core] += amount; }

  // Every non-zero cell, ordered by launch (the fixed ones first), semaphore id, then core.
  std::vector<SemaphoreCell> nonzero_cells() const;
  // The semaphores of `launch`, ordered by id.
  std::vector<int> of_launch(int launch) const;
  // The non-zero cells of `global_core` among the semaphores of `launch`, ordered by id.
  std::vector<SemaphoreCell> nonzero_cells(int launch, int global_core) const;

 private:
  struct Semaphore {
    int id;
    int launch;
    SemaphoreKind kind;
    std::vector<std::int64_t> counts;  // per global core
    std::string name;                  // given by the kernel, or empty
    SourceLine site;
  };
  int find_or_create(int launch, int id, SemaphoreKind kind);

  const Topology& topology_;
  int launches_;
  std::vector<Semaphore> semaphores_;            // in creation order
  std::map<std::pair<int, int>, int> index_of_;  // (launch, id) -> index
  std::vector<int> next_id_;                     // per global core
};

}  // namespace weft::model
