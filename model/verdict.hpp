#pragma once
// The verdicts of docs/semantics.md §9: what one execution of a kernel amounts to.

#include <optional>
#include <string_view>

namespace weft::model {

enum class Verdict {
  ok,
  data_race,
  deadlock,
  semaphore_leak,
  dma_in_flight,
  out_of_bounds,
  out_of_memory,
  wrong_result,
  kernel_error,
  step_limit,
  crossed_launch,
};

std::string_view to_string(Verdict verdict);
std::optional<Verdict> parse_verdict(std::string_view text);
// Every verdict name, comma-separated, for error messages.
std::string_view verdict_names();

}  // namespace weft::model
