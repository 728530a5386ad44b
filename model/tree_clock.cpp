#include "model/tree_clock.hpp"

#include <cassert>
#include <utility>

namespace weft::model {
namespace {

using Node = TreeClockArena::Node;
using Storage = TreeClockArena::Storage;
constexpr std::uint32_t virtual_slot = TreeClockArena::virtual_slot;

void index_node(Storage& storage, std::uint32_t slot, std::int32_t at) {
  if (slot >= storage.index.size()) storage.index.resize(static_cast<std::size_t>(slot) + 1, -1);
  storage.index[slot] = at;
}

void detach(std::vector<Node>& nodes, std::int32_t at) {
  Node& node = nodes[static_cast<std::size_t>(at)];
  if (node.previous >= 0) nodes[static_cast<std::size_t>(node.previous)].next = node.next;
  else nodes[static_cast<std::size_t>(node.parent)].child = node.next;
  if (node.next >= 0) nodes[static_cast<std::size_t>(node.next)].previous = node.previous;
  node.parent = node.next = node.previous = -1;
}

// Makes `at` the first (latest attached) child of `parent`.
void push_child(std::vector<Node>& nodes, std::int32_t parent, std::int32_t at) {
  Node& node = nodes[static_cast<std::size_t>(at)];
  Node& above = nodes[static_cast<std::size_t>(parent)];
  node.parent = parent;
  node.previous = -1;
  node.next = above.child;
  if (node.next >= 0) nodes[static_cast<std::size_t>(node.next)].previous = at;
  above.child = at;
}

}  // namespace

int TreeClockArena::acquire() {
  return storages_.acquire([](Storage& fresh) {
    for (const Node& node : fresh.nodes)
      if (node.slot != virtual_slot) fresh.index[node.slot] = -1;
    fresh.nodes.clear();
  });
}

TreeClock::TreeClock(TreeClock&& other) noexcept : TreeClock(*other.arena_) { swap(other); }

TreeClock& TreeClock::operator=(const TreeClock& other) {
  TreeClock copy(other);  // first: `other` may be this clock
  swap(copy);
  return *this;
}

TreeClock& TreeClock::operator=(TreeClock&& other) noexcept {
  TreeClock taken(std::move(other));
  swap(taken);
  return *this;
}

void TreeClock::swap(TreeClock& other) noexcept {
  std::swap(arena_, other.arena_);
  std::swap(storage_, other.storage_);
  std::swap(root_clock_, other.root_clock_);
  std::swap(root_slot_, other.root_slot_);
  std::swap(nodes_, other.nodes_);
  std::swap(index_, other.index_);
  std::swap(index_size_, other.index_size_);
}

void TreeClock::clear() {
  if (storage_ >= 0) arena_->release(storage_);
  storage_ = -1;
  root_clock_ = 0;
  root_slot_ = virtual_slot;
  nodes_ = nullptr;
  index_ = nullptr;
  index_size_ = 0;
}

void TreeClock::look_at_storage() {
  const Storage& storage = arena_->at(storage_);
  nodes_ = storage.nodes.data();
  index_ = storage.index.data();
  index_size_ = storage.index.size();
}

void TreeClock::own_storage(std::uint32_t root_slot) {
  if (storage_ >= 0 && !arena_->shared(storage_)) return;
  const int fresh = arena_->acquire();
  Storage& mine = arena_->at(fresh);  // after acquire, which may move records
  if (storage_ >= 0) {
    const Storage& old = arena_->at(storage_);
    mine.nodes.assign(old.nodes.begin(), old.nodes.end());
    if (mine.index.size() < old.index.size()) mine.index.resize(old.index.size(), -1);
    for (std::size_t at = 0; at < mine.nodes.size(); ++at)
      if (mine.nodes[at].slot != virtual_slot) mine.index[mine.nodes[at].slot] = static_cast<std::int32_t>(at);
    arena_->release(storage_);
  } else {
    mine.nodes.push_back(Node{root_slot});
    if (root_slot != virtual_slot) index_node(mine, root_slot, 0);
    root_slot_ = root_slot;
  }
  storage_ = fresh;
  look_at_storage();
}

void TreeClock::set(std::size_t slot, std::uint32_t value) {
  if (storage_ < 0) own_storage(static_cast<std::uint32_t>(slot));
  assert(slot == root_slot_);  // the contract: only the root's own entry is set
  root_clock_ = value;
}

void TreeClock::collect_updates(const TreeClock& other) {
  std::vector<TreeClockArena::Visit>& walk = arena_->walk;
  std::vector<std::int32_t>& updated = arena_->updated;
  walk.clear();
  updated.clear();
  const bool virtual_root = other.root_slot_ == virtual_slot;
  walk.push_back({0, other.nodes_[0].child});
  while (!walk.empty()) {
    TreeClockArena::Visit& top = walk.back();
    const std::int32_t parent = top.node;
    // Below a virtual root nothing is pruned by attachment: nobody knows that root.
    const bool prunes = parent != 0 || !virtual_root;
    const std::uint32_t known = prunes ? get(other.nodes_[parent].slot) : 0;
    bool descended = false;
    while (top.next_child >= 0) {
      const std::int32_t at = top.next_child;
      const Node& node = other.nodes_[at];
      top.next_child = node.next;
      if (get(node.slot) < node.clock) {
        walk.push_back({at, node.child});  // `top` is not used again
        descended = true;
        break;
      }
      if (prunes && node.attached <= known) {
        top.next_child = -1;  // this child and every earlier attached one are known
        break;
      }
    }
    if (!descended) {
      updated.push_back(parent);
      walk.pop_back();
    }
  }
}

void TreeClock::join(const TreeClock& other) {
  assert(other.arena_ == arena_);
  if (other.storage_ < 0) return;
  const bool virtual_other = other.root_slot_ == virtual_slot;
  if (!virtual_other && other.root_clock_ <= get(other.root_slot_)) return;  // knows the other's root: all of it
  collect_updates(other);
  const std::vector<std::int32_t>& updated = arena_->updated;
  if (virtual_other && updated.size() == 1) return;  // only the virtual root: nothing new

  own_storage(virtual_slot);  // an empty clock that gathers others' gets a virtual root
  Storage& mine = arena_->at(storage_);
  std::vector<Node>& nodes = mine.nodes;
  const auto top_level = [&](std::int32_t at) {  // goes under this clock's root
    return at == 0 || (virtual_other && other.nodes_[at].parent == 0);
  };
  // Every updated node gets a place of its own, out of the tree.
  for (const std::int32_t at : updated) {
    if (at == 0 && virtual_other) continue;
    const std::uint32_t slot = other.nodes_[at].slot;
    std::int32_t mine_at = slot < mine.index.size() ? mine.index[slot] : -1;
    if (mine_at < 0) {
      mine_at = static_cast<std::int32_t>(nodes.size());
      nodes.push_back(Node{slot});
      index_node(mine, slot, mine_at);
    } else {
      assert(mine_at != 0);  // the root's own entry is never news
      detach(nodes, mine_at);
    }
  }
  // Parents before children, and each parent's children latest attached first.
  for (std::size_t i = updated.size(); i-- > 0;) {
    const std::int32_t at = updated[i];
    if (at == 0 && virtual_other) continue;
    const Node& theirs = other.nodes_[at];
    const std::int32_t mine_at = mine.index[theirs.slot];
    Node& node = nodes[static_cast<std::size_t>(mine_at)];
    node.clock = at == 0 ? other.root_clock_ : theirs.clock;
    if (top_level(at)) {
      node.attached = root_clock_;
      push_child(nodes, 0, mine_at);
    } else {
      node.attached = theirs.attached;
      push_child(nodes, mine.index[other.nodes_[theirs.parent].slot], mine_at);
    }
  }
  look_at_storage();
}

}  // namespace weft::model
