#pragma once
// Tree clocks (Mathur, Pavlogiannis, Tunç and Viswanathan, "A Tree Clock Data Structure for
// Causal Orderings in Concurrent Executions", ASPLOS 2022): the vector clocks of
// model/vector_clock.hpp with the same reads, whose join costs about the number of entries it
// changes instead of the number of slots.
//
// Shape. A clock holds the slots it knows (entries that read as 0 are absent) as a tree. The
// root is the clock's owner, the actor whose clock it is, or a *virtual* root (no slot) for a
// clock that gathers other actors' clocks (a cell's accumulated clock, a barrier's). A node v
// under u records `aclk`, u's entry when the clock learnt v's present entry through u, and the
// children of a node are ordered by aclk, latest first. Invariant (happens-before makes it
// hold): whoever knows u at aclk or later knows v at v's entry, and knows all of v's subtree.
// So a join walks the other clock's tree from its root, descending only into nodes whose entry
// is news and stopping among a node's children at the first whose aclk the clock already knows
// u at: what it visits is what changes, plus one node per visited node's child list. The
// updated nodes are moved under the same parents as in the other clock, its root going under
// this clock's root at this clock's root entry.
//
// Contract (what the race detector does; the pruning is exact only then). Entries change by
// join and by the root's own entry: set() and tick() name the root slot, or the clock is
// empty and the slot becomes its root (continue_from() re-roots a lane's clock). An actor's
// entry grows only when it releases (its releases tick it afterwards), so any clock that knows
// an actor's entry knows everything the actor knew at that entry. A clock joined into is an
// owner's clock or one with a virtual root, never a copy of another actor's clock that keeps
// its root (a release's copy is only read).
//
// Sharing. Copies share storage by reference count, as dense clocks do, and the root's entry
// lives in the handle: a release copies the releaser's clock and the releaser then ticks its
// root without copying anything. The first structural change of shared storage copies it
// (the nodes it holds, not the slots). Storage comes from a TreeClockArena that recycles it
// with its capacity and keeps free storage's slot index cleared, so a warm execution
// allocates nothing. Clocks that join or share must come from the same arena, which must
// outlive them. Iterative throughout: trees may be thousands deep and the race detector runs
// on fiber stacks.

#include <cstdint>
#include <vector>

#include "model/shared_storage.hpp"
#include "model/vector_clock.hpp"

namespace weft::model {

class TreeClockArena {
 public:
  static constexpr std::uint32_t virtual_slot = 0xffffffffu;
  struct Node {
    std::uint32_t slot = virtual_slot;
    std::uint32_t clock = 0;     // the entry (the root's is the handle's)
    std::uint32_t attached = 0;  // aclk: the parent's entry when this entry was learnt
    std::int32_t parent = -1, child = -1, next = -1, previous = -1;  // node positions
  };
  struct Storage {
    std::vector<Node> nodes;          // nodes[0] is the root
    std::vector<std::int32_t> index;  // per slot: its node's position, or -1
  };

  // Storage held once, with no nodes and a cleared index (capacity kept from an earlier use).
  int acquire();
  void retain(int storage) { storages_.retain(storage); }
  void release(int storage) { storages_.release(storage); }
  bool shared(int storage) const { return storages_.shared(storage); }
  // Valid until the next acquire (which may move the storage records, not their vectors).
  Storage& at(int storage) { return storages_.contents(storage); }
  const Storage& at(int storage) const { return storages_.contents(storage); }

  // A join's scratch (reused, so joins allocate nothing once warm).
  struct Visit {
    std::int32_t node, next_child;
  };
  std::vector<Visit> walk;
  std::vector<std::int32_t> updated;

 private:
  SharedStorage<Storage> storages_;
};

class TreeClock {
 public:
  using Arena = TreeClockArena;

  explicit TreeClock(TreeClockArena& arena) : arena_(&arena) {}
  TreeClock(const TreeClock& other)
      : arena_(other.arena_),
        storage_(other.storage_),
        root_clock_(other.root_clock_),
        root_slot_(other.root_slot_),
        nodes_(other.nodes_),
        index_(other.index_),
        index_size_(other.index_size_) {
    if (storage_ >= 0) arena_->retain(storage_);
  }
  TreeClock(TreeClock&& other) noexcept;
  TreeClock& operator=(const TreeClock& other);
  TreeClock& operator=(TreeClock&& other) noexcept;
  ~TreeClock() { clear(); }

  std::uint32_t get(std::size_t slot) const {
    if (slot == root_slot_) return root_clock_;
    if (slot >= index_size_) return 0;
    const std::int32_t at = index_[slot];
    return at < 0 ? 0 : nodes_[at].clock;
  }
  // `slot` is the root's, or the clock is empty (the slot becomes its root).
  void set(std::size_t slot, std::uint32_t value);
  void tick(std::size_t slot) { set(slot, get(slot) + 1); }
  void join(const TreeClock& other);
  // Becomes `starter` with `slot` at `value`, given it knows nothing beyond `starter` but
  // `slot` (its root, or it is empty): a DMA lane going on from the core starting its DMA.
  void continue_from(const TreeClock& starter, std::size_t slot, std::uint32_t value) {
    set(slot, value);
    join(starter);
  }
  void clear();

  Epoch epoch(std::size_t slot) const { return {static_cast<std::uint32_t>(slot), get(slot)}; }
  bool knows(Epoch epoch) const { return epoch.clock <= get(epoch.slot); }
  // One past the highest slot held, at least (entries beyond read as 0).
  std::size_t size() const { return index_size_; }

 private:
  using Node = TreeClockArena::Node;
  void swap(TreeClock& other) noexcept;
  // Gives the clock storage of its own (a copy of what it shares), with a root: `root_slot`
  // when it has none yet.
  void own_storage(std::uint32_t root_slot);
  void look_at_storage();
  // The other clock's nodes whose entries are news, children before parents (arena's `updated`).
  void collect_updates(const TreeClock& other);

  TreeClockArena* arena_;
  int storage_ = -1;  // -1: empty, every entry 0
  std::uint32_t root_clock_ = 0;
  std::uint32_t root_slot_ = TreeClockArena::virtual_slot;  // no slot reads as the virtual root's
  const Node* nodes_ = nullptr;                             // the storage's (get() reads them without the arena)
  const std::int32_t* index_ = nullptr;
  std::size_t index_size_ = 0;
};

}  // namespace weft::model
