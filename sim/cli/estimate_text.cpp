#include "sim/cli/estimate_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace weft::sim {
namespace {

constexpr double countless = 1e18;  // past it (or an estimate that overflowed), no count is shown

std::string one_decimal(double value, const char* unit) {
  char text[64];
  std::snprintf(text, sizeof text, value < 9.95 ? "%.1f %s" : "%.0f %s", value, unit);
  return text;
}

}  // namespace

std::string grouped(std::uint64_t count) {
  std::string digits = std::to_string(count);
  for (std::size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
  return digits;
}

std::string approximate(double count) {
  if (!std::isfinite(count) || count >= countless) return "more than 10^18";
  if (count >= 1e12) return one_decimal(count / 1e12, "trillion");
  if (count >= 1e9) return one_decimal(count / 1e9, "billion");
  if (count >= 1e6) return one_decimal(count / 1e6, "million");
  return grouped(static_cast<std::uint64_t>(std::llround(count)));
}

std::string duration_text(double seconds) {
  if (seconds < 90) return one_decimal(seconds, "s");
  if (seconds < 90 * 60) return one_decimal(seconds / 60, "min");
  if (seconds < 48 * 3600) return one_decimal(seconds / 3600, "h");
  if (seconds < 730 * 86400) return one_decimal(seconds / 86400, "days");
  return one_decimal(seconds / (365.25 * 86400), "years");
}

double seconds_left(std::uint64_t complete, double estimate, double rate) {
  const double left = estimate - static_cast<double>(complete);
  return rate > 0 && left > 0 ? left / rate : 0;
}

std::string space_estimate(std::uint64_t complete, double estimate, double rate, int jobs) {
  const std::string at_rate = " at " + grouped(static_cast<std::uint64_t>(std::llround(rate))) + " runs/s with " +
                              std::to_string(jobs) + (jobs == 1 ? " job" : " jobs");
  if (!std::isfinite(estimate) || estimate >= countless)  // no share or time worth printing
    return grouped(complete) + " of an estimated more than 10^18 classes (too many to finish)," + at_rate;
  char share[32];
  std::snprintf(share, sizeof share, "%.2g", 100 * static_cast<double>(complete) / std::max(estimate, 1.0));
  return grouped(complete) + " of an estimated " + approximate(estimate) + " classes (" + share + " %), about " +
         duration_text(seconds_left(complete, estimate, rate)) + at_rate;
}

}  // namespace weft::sim
