#include "scheduler/strategies/shared_wakeup_tree.hpp"

#include <algorithm>
#include <stdexcept>

#include "scheduler/strategies/held_bytes.hpp"

namespace weft::scheduler {

struct SharedWakeupTree::Child {
  enum class State { waiting, running, done };
  Branch branch;               // its transition (the one a run took, once run) and its wakeup tree
  std::unique_ptr<Node> node;  // the state after it, once a run put it in (none: a run ended here, or pruned)
  State state = State::waiting;
};

struct SharedWakeupTree::Node {
  Node* parent = nullptr;
  std::size_t index = 0;  // in the parent's children
  std::vector<StableActor> enabled;
  Sleep sleep;  // on arrival
  std::vector<Child> children;
  std::size_t waiting = 0, running = 0;  // children of this subtree in each state, its own included
  std::size_t bytes = 0;                 // what it holds itself, as last counted (own_bytes)

  Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  // Frees the states below one at a time: a run's chain of states is as deep as the run is long,
  // too deep for the recursion of nested destructors.
  ~Node() {
    std::vector<std::unique_ptr<Node>> below;
    for (Child& child : children)
      if (child.node) below.push_back(std::move(child.node));
    while (!below.empty()) {
      const std::unique_ptr<Node> node = std::move(below.back());
      below.pop_back();
      for (Child& child : node->children)
        if (child.node) below.push_back(std::move(child.node));
    }
  }

  // The child to claim next here: the first waiting one, unless an earlier one is on its first
  // run (its footprint as it ran, which its later siblings sleep on, is not known yet). None:
  // the number of children.
  std::size_t claimable() const {
    for (std::size_t b = 0; b < children.size(); ++b) {
      if (children[b].state == Child::State::running) return children.size();
      if (children[b].state == Child::State::waiting) return b;
    }
    return children.size();
  }
};

namespace {

// A transition's footprint as it ran, without the touch of the run's end that the race analysis
// puts on a run's last transition while it lives (race_analysis.hpp).
std::size_t branch_bytes(const Branch& branch) {
  std::size_t bytes = 0;
  visit_branches(branch,
                 [&](const Branch& each) { bytes += held_bytes(each.footprint.touches) + held_bytes(each.children); });
  return bytes;
}

Footprint as_ran(const Footprint& footprint) {
  Footprint copy = footprint;
  std::erase_if(copy.touches, [](const Touch& touch) { return touch.object == run_end_object; });
  return copy;
}

}  // namespace

SharedWakeupTree::SharedWakeupTree() = default;
SharedWakeupTree::~SharedWakeupTree() = default;

void SharedWakeupTree::count(Node* at, long waiting, long running) {
  for (Node* node = at; node != nullptr; node = node->parent) {
    node->waiting = static_cast<std::size_t>(static_cast<long>(node->waiting) + waiting);
    node->running = static_cast<std::size_t>(static_cast<long>(node->running) + running);
  }
}

bool SharedWakeupTree::done() const {
  return first_finished_ && (root_ == nullptr || (root_->waiting == 0 && root_->running == 0));
}

std::size_t SharedWakeupTree::waiting() const { return root_ ? root_->waiting : 0; }

std::optional<SharedWakeupTree::Claim> SharedWakeupTree::claim(const Path* near, std::vector<Sleep>* near_sleeps) {
  if (!first_claimed_) {
    first_claimed_ = true;
    Claim first;
    first.first = true;
    return first;
  }
  if (root_ == nullptr) return std::nullopt;  // the first run is still running
  if (near != nullptr)
    for (std::size_t t = near->size(); t-- > 0;) {
      Node* node = (*near)[t].first;
      const std::size_t b = node->claimable();
      if (b < node->children.size()) return claim_at(node, b, near, near_sleeps);
    }
  if (Node* node = shallowest_claimable(root_.get())) return claim_at(node, node->claimable(), near, near_sleeps);
  return std::nullopt;
}

SharedWakeupTree::Node* SharedWakeupTree::shallowest_claimable(Node* node) {
  // Depth first, leftmost first, a state's own children before its subtrees': only subtrees
  // with a waiting child are entered, and a waiting child is unclaimable only behind a sibling
  // on its first run, so few are entered in vain.
  // An explicit stack: the tree is as deep as its longest run.
  std::vector<Node*> next{node};
  while (!next.empty()) {
    Node* at = next.back();
    next.pop_back();
    if (at == nullptr || at->waiting == 0) continue;
    if (at->claimable() < at->children.size()) return at;
    for (std::size_t b = at->children.size(); b-- > 0;) next.push_back(at->children[b].node.get());
  }
  return nullptr;
}

SharedWakeupTree::Claim SharedWakeupTree::claim_at(Node* node, std::size_t b, const Path* near,
                                                   std::vector<Sleep>* near_sleeps) {
  Child& claimed = node->children[b];
  claimed.state = Child::State::running;
  Claim claim;
  for (Node* at = node; at != nullptr; at = at->parent) {  // the path up, counting the claim
    claim.path.emplace_back(at, at == node ? b : claim.path.back().first->index);
    --at->waiting;
    ++at->running;
  }
  std::reverse(claim.path.begin(), claim.path.end());
  for (std::size_t t = 0; t < claim.path.size(); ++t) {
    const auto [state, child] = claim.path[t];
    claim.forced.push_back(state->children[child].branch.actor);
    // The caller's last run went through the same state and child: the same sleep set.
    if (near != nullptr && near_sleeps != nullptr && t < near->size() && t < near_sleeps->size() &&
        (*near)[t] == claim.path[t]) {
      claim.sleeps.push_back(std::move((*near_sleeps)[t]));
      continue;
    }
    // The state's sleep set as the one-thread explorer has it on that child's turn: what slept
    // on arrival, and every earlier child.
    Sleep sleep = state->sleep;
    for (std::size_t earlier = 0; earlier < child; ++earlier) {
      const Branch& sibling = state->children[earlier].branch;
      if (!asleep(sleep, sibling.actor)) sleep.emplace_back(sibling.actor, sibling.footprint);
    }
    claim.sleeps.push_back(std::move(sleep));
  }
  for (const std::vector<Branch>* level = &claimed.branch.children; !level->empty(); level = &level->front().children)
    claim.below.push_back(level->front().actor);
  return claim;
}

SharedWakeupTree::Prepared::Prepared() = default;
SharedWakeupTree::Prepared::~Prepared() = default;
SharedWakeupTree::Prepared::Prepared(Prepared&&) noexcept = default;
SharedWakeupTree::Prepared& SharedWakeupTree::Prepared::operator=(Prepared&&) noexcept = default;

SharedWakeupTree::Prepared SharedWakeupTree::prepare(const Claim& claim, Run& run) {
  // The run's new states, from the one after the claimed branch (from the start, for the first
  // run), each with the child the run took; the waiting branches join them in attach.
  const std::size_t start = claim.first ? 0 : claim.path.size();
  if (run.length < start) throw std::logic_error("explore: a claimed run stopped before its claimed branch");
  Prepared prepared;
  if (!claim.first) prepared.claimed_footprint = as_ran(run.events[start - 1].footprint);
  Node* parent = nullptr;
  for (std::size_t t = start; t < run.length; ++t) {
    auto node = std::make_unique<Node>();
    node->parent = parent;
    node->enabled = std::move(run.enabled[t]);
    node->sleep = std::move(run.sleeps[t]);
    node->children.push_back(
        {{run.events[t].actor, as_ran(run.events[t].footprint), {}}, nullptr, Child::State::running});
    node->bytes = own_bytes(*node);
    Node* raw = node.get();
    (parent == nullptr ? prepared.first : parent->children.front().node) = std::move(node);
    prepared.states.push_back(raw);
    parent = raw;
  }
  return prepared;
}

SharedWakeupTree::Path SharedWakeupTree::attach(const Claim& claim, Prepared prepared, std::size_t& below) {
  Path path = claim.path;
  std::vector<Branch> tree;  // the wakeup tree at the next new state
  Node* parent = claim.first ? nullptr : path.back().first;
  const std::size_t index = claim.first ? 0 : path.back().second;
  if (!claim.first) {
    // The claimed branch's transition as it ran: later siblings sleep on that footprint, which
    // can differ from the one the branch was inserted with (another run's, from another state).
    Branch& claimed = parent->children[index].branch;
    claimed.footprint = std::move(prepared.claimed_footprint);
    for (const Branch& moved : claimed.children) {  // counted again in the new states
      const std::size_t bytes = std::min(branch_bytes(moved), parent->bytes);
      parent->bytes -= bytes;
      bytes_ -= bytes;
    }
    tree = std::move(claimed.children);
  }
  if (prepared.first) {
    prepared.first->parent = parent;
    prepared.first->index = index;
    (parent == nullptr ? root_ : parent->children[index].node) = std::move(prepared.first);
  }
  // The claimed branch's wakeup tree, level by level: its first branch is what the run took, the
  // others wait after it. Each state counts as running until the run's reversals are in, so no
  // prune frees the run's path meanwhile.
  for (Node* state : prepared.states) {
    path.emplace_back(state, 0);
    if (tree.empty()) {
      bytes_ += state->bytes;
      continue;
    }
    if (!(tree.front().actor == state->children.front().branch.actor))
      throw std::logic_error("explore: a run left the branch it was following");
    for (std::size_t b = 1; b < tree.size(); ++b) {
      state->bytes += sizeof(Child) + branch_bytes(tree[b]);
      state->children.push_back({std::move(tree[b]), nullptr, Child::State::waiting});
    }
    bytes_ += state->bytes;
    std::vector<Branch> next = std::move(tree.front().children);
    tree = std::move(next);
  }
  // The new states' own counts; the states above learn of them in finish, in one pass.
  below = 0;
  for (std::size_t k = prepared.states.size(); k-- > 0;) {
    below += prepared.states[k]->children.size() - 1;
    prepared.states[k]->waiting = below;
    prepared.states[k]->running = 1;
  }
  if (claim.first) first_finished_ = true;
  return path;
}

SharedWakeupTree::Path SharedWakeupTree::finish(const Claim& claim, Prepared prepared, const Run& run,
                                                std::vector<Reversal>& reversals) {
  std::size_t below = 0;
  const Path path = attach(claim, std::move(prepared), below);
  std::vector<std::size_t> added(path.size(), 0);  // branches added at each state of the path
  for (Reversal& reversal : reversals) {
    // What an insertion adds is what is left of its sequence (a chain of branches), counted
    // without walking the state's other branches again.
    if (insert_along(path, run, reversal, added) != Inserted::added) continue;
    std::size_t bytes = 0;
    for (const Sequence::Step& step : reversal.sequence.steps())
      bytes += sizeof(Branch) + step.footprint->touches.size() * sizeof(Touch);
    touched_->bytes += bytes;
    bytes_ += bytes;
  }
  // One pass up the path: each state counts what was added at it and below, the states above
  // the claimed branch also what waits in the new states, and the run is no longer running.
  const std::size_t claimed_at = claim.first ? path.size() : claim.path.size() - 1;
  std::size_t carried = 0;
  for (std::size_t t = path.size(); t-- > 0;) {
    carried += added[t] + (t == claimed_at ? below : 0);
    const auto [state, child] = path[t];
    state->waiting += carried;
    state->running -= 1;
    state->children[child].state = Child::State::done;
  }
  return path;
}

Inserted SharedWakeupTree::insert_along(const Path& path, const Run& run, Reversal& reversal,
                                        std::vector<std::size_t>& added) {
  Sequence& v = reversal.sequence;
  for (std::size_t t = reversal.at; t < path.size(); ++t) {
    Node* state = path[t].first;
    const std::size_t on = path[t].second;
    // The run's own transition here (its footprint as it ran, the end's touch included).
    if (const auto position = v.weak_initial(state->children[on].branch.actor, run.events[t].footprint)) {
      v.consume(*position);
      if (v.empty()) return Inserted::covered;
      continue;
    }
    // The children before the run's are asleep at it; those after it, in order.
    return insert_into(state, v, on + 1, &added[t]);
  }
  return Inserted::covered;  // the run itself covers it
}

Inserted SharedWakeupTree::insert_into(Node* state, Sequence& v, std::size_t from, std::size_t* added_on_path) {
  // Down the matching children a state at a time: the tree is as deep as its longest run.
  for (;;) {
    touched_ = state;
    Child* matched = nullptr;
    for (std::size_t b = from; b < state->children.size() && matched == nullptr; ++b) {
      Child& child = state->children[b];
      const auto position = v.weak_initial(child.branch.actor, child.branch.footprint);
      if (!position) continue;
      v.consume(*position);
      if (v.empty()) return Inserted::covered;
      matched = &child;
    }
    if (matched == nullptr) break;
    if (matched->node == nullptr)  // waiting, or its run still going: its wakeup tree; or a run's end
      return matched->state == Child::State::done ? Inserted::covered : insert_below(matched->branch, v);
    state = matched->node.get();
    from = 0;
    added_on_path = nullptr;  // below the inserting run's path
  }
  state->children.push_back({v.chain(), nullptr, Child::State::waiting});
  if (added_on_path != nullptr) ++*added_on_path;  // counted up the path in one pass (finish)
  else count(state, +1, 0);
  return Inserted::added;
}

void SharedWakeupTree::prune() {
  const auto live = [](const Child& child) {
    return child.state != Child::State::done ||
           (child.node != nullptr && (child.node->waiting > 0 || child.node->running > 0));
  };
  Node* state = root_.get();
  while (state != nullptr) {
    std::size_t b = 0;
    for (; b < state->children.size() && !live(state->children[b]); ++b) {
      std::unique_ptr<Node>& freed = state->children[b].node;
      if (freed == nullptr) continue;
      forget(*freed);
      freed.reset();
    }
    if (b == state->children.size()) return;
    state = state->children[b].node.get();
  }
}

std::size_t SharedWakeupTree::memory_bytes() const { return bytes_; }

std::size_t SharedWakeupTree::own_bytes(const Node& node) {
  std::size_t bytes = sizeof(Node) + held_bytes(node.enabled) + held_bytes(node.sleep);
  for (const auto& entry : node.sleep) bytes += held_bytes(entry.second.touches);
  bytes += held_bytes(node.children);
  for (const Child& child : node.children) bytes += branch_bytes(child.branch);
  return bytes;
}

void SharedWakeupTree::forget(const Node& node) {
  std::vector<const Node*> next{&node};
  while (!next.empty()) {
    const Node* at = next.back();
    next.pop_back();
    bytes_ -= at->bytes;
    for (const Child& child : at->children)
      if (child.node) next.push_back(child.node.get());
  }
}

}  // namespace weft::scheduler
