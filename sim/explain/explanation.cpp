#include "sim/explain/explanation.hpp"

#include <algorithm>

namespace weft::sim {

void Explanation::append(Explanation other) {
  if (title.empty()) title = std::move(other.title);
  why.insert(why.end(), other.why.begin(), other.why.end());
  fixes.insert(fixes.end(), other.fixes.begin(), other.fixes.end());
  chain.insert(chain.end(), other.chain.begin(), other.chain.end());
  std::vector<std::size_t> merged;
  std::set_union(focus.begin(), focus.end(), other.focus.begin(), other.focus.end(), std::back_inserter(merged));
  focus = std::move(merged);
}

std::string format_explanation(const Explanation& explanation) {
  if (explanation.empty()) return "";
  std::string text = explanation.title + ":\n";
  for (const std::string& line : explanation.why) text += "  " + line + "\n";
  if (explanation.fixes.empty()) return text;
  text += explanation.fixes.size() == 1 ? "to fix it:\n" : "to fix it, one of:\n";
  for (const FixCandidate& fix : explanation.fixes) text += "  " + fix.text + "\n";
  return text;
}

}  // namespace weft::sim
