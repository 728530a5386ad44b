#pragma once
// How big an exploration is and how long the rest would take, in words, for its progress line
// and the summary of one cut short: "2,000 of an estimated 3.1 million classes (0.06 %), about
// 41 min at 1,263 runs/s with 1 job"; past 10^18 classes, "10 of an estimated more than 10^18
// classes (too many to finish), at ...". The estimate is the explorer's (class_estimate.hpp); the
// time left is the estimate's runs not yet run at the rate so far, for display only: wall time
// never decides anything.

#include <cstdint>
#include <string>

namespace weft::sim {

// "2,000", "1,263".
std::string grouped(std::uint64_t count);
// A count as a reader takes it in: "812", "41,200", "3.1 million", "2.3 billion"; "more than
// 10^18" past that (an estimate that overflowed to infinity included).
std::string approximate(double count);
// "12 s", "41 min", "3.2 h", "5.1 days".
std::string duration_text(double seconds);

// `complete` classes run, `estimate` estimated in all, runs (complete or abandoned) at `rate`
// per second with `jobs` threads: "2,000 of an estimated 3.1 million classes (0.06 %), about
// 41 min at 1,263 runs/s with 1 job"; past 10^18 classes, "10 of an estimated more than 10^18
// classes (too many to finish), at ...".
std::string space_estimate(std::uint64_t complete, double estimate, double rate, int jobs);

// The time left at `rate`, in seconds: the estimate's runs not yet run; 0 when none are left or
// the rate is not known.
double seconds_left(std::uint64_t complete, double estimate, double rate);

}  // namespace weft::sim
