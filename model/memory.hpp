#pragma once
// All buffers of one execution (docs/semantics.md §2): host buffers created by the scenario's setup,
// and kernel allocations with SPMD-symmetric ids from a per-core counter starting at 100.
// Scoped allocations (run_scoped, docs/semantics.md §2): the vmem and smem buffers a core
// allocates while a scope of its own is open are freed when it closes; the counter goes back to
// where it was when the scope opened, so the next allocations reuse the ids (and with them the
// explorer's names of the memory) and the capacity. Freed buffers stay listed, marked `freed`,
// without storage.
// Capacities are accounted per space instance (per core for vmem/smem, per device otherwise),
// and all buffers together against the host memory budget (host_memory.hpp), before each is
// allocated.

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

#include "model/buffer.hpp"
#include "model/compat.hpp"
#include "model/failure.hpp"
#include "model/naming.hpp"
#include "model/topology.hpp"

namespace weft::model {

inline constexpr int first_kernel_buffer_id = 100;

class Memory {
 public:
  Memory(const MachineSpec& spec, const Topology& topology);

  // A named hbm buffer on every device, with the same id everywhere. Throws
  // std::invalid_argument on a duplicate name, a capacity overflow or one of the host memory
  // budget (a host setup error). With `contents`, device d's copy starts as the bytes at
  // contents[d] (one per device) instead of uninitialized, unless that is null.
  int host_allocate(std::string name, ElementType type, const Shape& shape,
                    std::span<const std::byte* const> contents = {});
  Buffer* find_named(int device, std::string_view name);
  const Buffer* find_named(int device, std::string_view name) const;

  // A kernel allocation by `by`: an out_of_memory or kernel_error (asymmetric allocation) failure,
  // or the buffer (shared spaces: the one an earlier core of the device created).
  // `naming`: what the kernel calls it (the first core to create a shared buffer names it).
  Buffer* allocate(CoreId by, Space space, ElementType type, const Shape& shape, Failure& failure,
                   const Naming& naming = {});
  // The instance of buffer `id` in `space` that `core` sees; nullptr if it does not exist.
  Buffer* find(Space space, int id, CoreId core);

  // Scopes (run_scoped) of core `by`: one opens at `line` (no line: a launch's, the outermost,
  // in a program of several launches); the buffers of the innermost one (empty if none is open);
  // the innermost closes, freeing its buffers.
  void open_scope(CoreId by, SourceLine line);
  bool in_scope(CoreId by) const { return !scopes_[topology_.global(by)].empty(); }
  std::span<Buffer* const> innermost_scope(CoreId by) const;
  void close_scope(CoreId by);

  const std::vector<std::unique_ptr<Buffer>>& buffers() const { return buffers_; }
  // The id `core`'s next kernel allocation will get.
  int next_id(CoreId core) const { return next_id_[topology_.global(core)]; }
  // Whether buffers of `space` are one per core (else one per device).
  bool per_core(Space space) const {
    return is_per_core(space) || (space == Space::vmem_shared && quirks_of(spec_.compat).shared_scratch_per_core);
  }

 private:
  using Key = std::tuple<Space, int, int, int>;  // space, id, device, core (-1 if shared)
  struct Signature {
    int id;
    Space space;
    ElementType type;
    Shape shape;
    CoreId first;
  };
  struct OpenScope {
    SourceLine line;
    int first_id;  // the core's next id when it opened
    std::vector<Buffer*> buffers;
  };
  Key key_of(Space space, int id, CoreId core) const;
  std::int64_t capacity(Space space) const;
  bool reserve(const Key& key, std::int64_t bytes, Failure& failure, CoreId by);
  Buffer& create(const Key& key, BufferInfo info, const std::byte* contents = nullptr);

  MachineSpec spec_;
  const Topology& topology_;
  std::vector<std::unique_ptr<Buffer>> buffers_;  // in creation order
  std::map<Key, Buffer*> by_key_;
  std::map<std::tuple<Space, int, int>, std::int64_t> bytes_used_;  // space, device, core
  std::int64_t host_budget_;
  std::int64_t host_used_ = 0;                  // by every buffer
  std::vector<int> next_id_;                    // per global core
  std::vector<int> allocations_made_;           // per global core, never reset
  std::map<int, Signature> signatures_;         // by allocation ordinal (the k-th of every core: SPMD-symmetric)
  std::vector<std::vector<OpenScope>> scopes_;  // per global core, innermost last
  int next_host_id_ = 1;
};

}  // namespace weft::model
