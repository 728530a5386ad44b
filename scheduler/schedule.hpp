#pragma once
// A schedule is the list of actors picked at each step of one execution. Its string form is
// compact and copy-pasteable: actors separated by commas, with ":N" for N repeats in a row,
// for example "c0:3,c1,r0,w0,c1:2". Cores are c<global id>; DMA phases r<id> (read) and
// w<id> (write).

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "scheduler/actor.hpp"

namespace weft::scheduler {

using Schedule = std::vector<Actor>;

std::string encode(const Schedule& schedule);

// A schedule string that does not parse; names the offending token and its position.
struct ScheduleError : std::runtime_error {
  ScheduleError(const std::string& message, std::size_t position_) : std::runtime_error(message), position(position_) {}
  std::size_t position;
};

// At most max_schedule_steps steps in all (a string of a few bytes could otherwise ask for
// gigabytes: "c0:100000000,c1:100000000,...").
inline constexpr std::size_t max_schedule_steps = std::size_t{1} << 22;
Schedule decode(std::string_view text);

}  // namespace weft::scheduler
