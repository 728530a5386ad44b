#include "scheduler/strategies/wakeup_tree.hpp"

namespace weft::scheduler {

Branch::Branch(const Branch& other) : actor(other.actor), footprint(other.footprint) {
  // Level by level: each copied branch's children are copied shallow, then filled in turn.
  std::vector<std::pair<Branch*, const Branch*>> next{{this, &other}};
  while (!next.empty()) {
    const auto [to, from] = next.back();
    next.pop_back();
    to->children.reserve(from->children.size());
    for (const Branch& child : from->children) {
      to->children.emplace_back(child.actor, child.footprint);
      next.emplace_back(&to->children.back(), &child);
    }
  }
}

Branch& Branch::operator=(const Branch& other) {
  if (this != &other) *this = Branch(other);
  return *this;
}

Branch& Branch::operator=(Branch&& other) noexcept {
  if (this == &other) return *this;
  Branch dropped(std::move(*this));  // freed below, without recursion
  actor = other.actor;
  footprint = std::move(other.footprint);
  children = std::move(other.children);
  return *this;
}

Branch::~Branch() {
  // Children whose branches are all leaves go by the vector's own destructor; deeper ones are
  // taken apart a level at a time, so that no destructor finds grandchildren.
  bool deep = false;
  for (const Branch& child : children) deep = deep || !child.children.empty();
  if (!deep) return;
  std::vector<std::vector<Branch>> levels;
  levels.push_back(std::move(children));
  while (!levels.empty()) {
    std::vector<Branch> level = std::move(levels.back());
    levels.pop_back();
    for (Branch& branch : level)
      if (!branch.children.empty()) levels.push_back(std::move(branch.children));
  }
}

bool operator==(const Branch& a, const Branch& b) {
  std::vector<std::pair<const Branch*, const Branch*>> next{{&a, &b}};
  while (!next.empty()) {
    const auto [x, y] = next.back();
    next.pop_back();
    if (!(x->actor == y->actor) || !(x->footprint == y->footprint) || x->children.size() != y->children.size())
      return false;
    for (std::size_t c = 0; c < x->children.size(); ++c) next.emplace_back(&x->children[c], &y->children[c]);
  }
  return true;
}

std::optional<std::size_t> Sequence::weak_initial(StableActor actor, const Footprint& footprint) const {
  const std::span<const Step> left = steps();
  for (std::size_t a = 0; a < left.size(); ++a) {
    if (!same_process(left[a].actor, actor)) continue;
    if (!(left[a].actor == actor)) return std::nullopt;
    for (std::size_t b = 0; b < a; ++b)
      if (order_->before(left[b].index, left[a].index)) return std::nullopt;
    return a;
  }
  for (const Step& step : left)
    if (related(actor, footprint, step.actor, *step.footprint)) return std::nullopt;
  return left.size();
}

void Sequence::consume(std::size_t position) {
  if (position == 0 && !empty()) {
    ++first_;
  } else if (first_ + position < steps_.size()) {
    steps_.erase(steps_.begin() + static_cast<std::ptrdiff_t>(first_ + position));
  }
}

Branch Sequence::chain() const {
  const std::span<const Step> left = steps();
  Branch root{left.front().actor, *left.front().footprint, {}};
  Branch* tail = &root;
  for (std::size_t a = 1; a < left.size(); ++a) {
    tail->children.push_back({left[a].actor, *left[a].footprint, {}});
    tail = &tail->children.back();
  }
  return root;
}

Inserted insert_below(Branch& branch, Sequence& v) {
  Branch* at = &branch;
  while (!at->children.empty()) {
    Branch* next = nullptr;
    for (Branch& child : at->children) {
      const auto inner = v.weak_initial(child.actor, child.footprint);
      if (!inner) continue;
      v.consume(*inner);
      next = &child;
      break;
    }
    if (v.empty()) return Inserted::covered;
    if (next == nullptr) {
      at->children.push_back(v.chain());
      return Inserted::added;
    }
    at = next;
  }
  return Inserted::covered;  // a leaf: exploring it will cover the rest
}

Inserted insert(std::span<const TreeLevel> levels, Sequence& v,
                const std::function<bool(std::size_t level, StableActor first)>& may_branch) {
  for (std::size_t level = 0; level < levels.size(); ++level) {
    std::vector<Branch>& tree = *levels[level].tree;
    bool followed = false;
    for (std::size_t b = 0; b < tree.size() && !followed; ++b) {
      const auto position = v.weak_initial(tree[b].actor, b == 0 ? *levels[level].taken : tree[b].footprint);
      if (!position) continue;
      v.consume(*position);
      if (v.empty()) return Inserted::covered;
      if (b == 0) {
        followed = true;  // the current run's branch: go on at the next state
        continue;
      }
      return insert_below(tree[b], v);
    }
    if (!followed) {
      if (!may_branch(level, v.steps().front().actor)) return Inserted::refused;
      tree.push_back(v.chain());
      return Inserted::added;
    }
  }
  return Inserted::covered;  // the current run itself covers the sequence
}

}  // namespace weft::scheduler
