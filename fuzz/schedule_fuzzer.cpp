// libFuzzer target: the schedule-string parser (weft replay --schedule). Every input either
// decodes, and then encodes back to a string that decodes to the same schedule, or is rejected
// with a ScheduleError whose position lies within the input; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scheduler/schedule.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const weft::scheduler::Schedule schedule = weft::scheduler::decode(text);
    if (schedule.size() > weft::scheduler::max_schedule_steps) __builtin_trap();
    if (weft::scheduler::decode(weft::scheduler::encode(schedule)) != schedule) __builtin_trap();
  } catch (const weft::scheduler::ScheduleError& error) {
    if (error.position > text.size()) __builtin_trap();
  }
  return 0;
}
