#include "model/verdict.hpp"

#include <array>
#include <utility>

namespace weft::model {
namespace {

constexpr std::array<std::pair<Verdict, std::string_view>, 11> names{{
    {Verdict::ok, "ok"},
    {Verdict::data_race, "data_race"},
    {Verdict::deadlock, "deadlock"},
    {Verdict::semaphore_leak, "semaphore_leak"},
    {Verdict::dma_in_flight, "dma_in_flight"},
    {Verdict::out_of_bounds, "out_of_bounds"},
    {Verdict::out_of_memory, "out_of_memory"},
    {Verdict::wrong_result, "wrong_result"},
    {Verdict::kernel_error, "kernel_error"},
    {Verdict::step_limit, "step_limit"},
    {Verdict::crossed_launch, "crossed_launch"},
}};

}  // namespace

std::string_view to_string(Verdict verdict) {
  for (const auto& [value, name] : names)
    if (value == verdict) return name;
  return "?";
}

std::optional<Verdict> parse_verdict(std::string_view text) {
  for (const auto& [value, name] : names)
    if (name == text) return value;
  return std::nullopt;
}

std::string_view verdict_names() {
  return "ok, data_race, deadlock, semaphore_leak, dma_in_flight, out_of_bounds, out_of_memory, "
         "wrong_result, kernel_error, step_limit, crossed_launch";
}

}  // namespace weft::model
