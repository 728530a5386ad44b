#include "scheduler/strategies/wakeup_tree.hpp"

namespace weft::scheduler {

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
