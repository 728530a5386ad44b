#include "scheduler/schedule.hpp"

#include <charconv>

namespace weft::scheduler {

std::string to_string(Actor actor) {
  const char prefix = actor.kind == Actor::Kind::core ? 'c' : actor.kind == Actor::Kind::dma_read ? 'r' : 'w';
  return prefix + std::to_string(actor.index);
}

std::string encode(const Schedule& schedule) {
  std::string text;
  for (std::size_t i = 0; i < schedule.size();) {
    std::size_t run = 1;
    while (i + run < schedule.size() && schedule[i + run] == schedule[i]) ++run;
    if (!text.empty()) text += ',';
    text += to_string(schedule[i]);
    if (run > 1) text += ':' + std::to_string(run);
    i += run;
  }
  return text;
}

namespace {

std::uint64_t parse_number(std::string_view token, std::size_t position, std::string_view what) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || error != std::errc{} || end != token.data() + token.size() || value > 0xffffffffu)
    throw ScheduleError("schedule: bad " + std::string(what) + " '" + std::string(token) + "' at character " +
                            std::to_string(position + 1),
                        position);
  return value;
}

}  // namespace

Schedule decode(std::string_view text) {
  Schedule schedule;
  std::size_t position = 0;
  while (position < text.size()) {
    const std::size_t comma = std::min(text.find(',', position), text.size());
    const std::string_view token = text.substr(position, comma - position);
    if (token.empty())
      throw ScheduleError("schedule: empty step at character " + std::to_string(position + 1), position);
    Actor actor;
    switch (token[0]) {
      case 'c':
        actor.kind = Actor::Kind::core;
        break;
      case 'r':
        actor.kind = Actor::Kind::dma_read;
        break;
      case 'w':
        actor.kind = Actor::Kind::dma_write;
        break;
      default:
        throw ScheduleError("schedule: step '" + std::string(token) + "' at character " + std::to_string(position + 1) +
                                " does not start with c, r or w",
                            position);
    }
    const std::size_t colon = std::min(token.find(':'), token.size());
    actor.index = static_cast<std::uint32_t>(parse_number(token.substr(1, colon - 1), position + 1, "actor index"));
    std::uint64_t repeats = 1;
    if (colon < token.size()) {
      repeats = parse_number(token.substr(colon + 1), position + colon + 1, "repeat count");
      if (repeats == 0 || repeats > 100'000'000)
        throw ScheduleError("schedule: repeat count out of range at character " + std::to_string(position + colon + 2),
                            position + colon + 1);
    }
    if (repeats > max_schedule_steps - schedule.size())
      throw ScheduleError("schedule: more than " + std::to_string(max_schedule_steps) + " steps at character " +
                              std::to_string(position + 1) + " (replay a longer execution by its seed)",
                          position);
    schedule.insert(schedule.end(), repeats, actor);
    position = comma + 1;
    if (comma + 1 == text.size())
      throw ScheduleError("schedule: trailing comma at character " + std::to_string(comma + 1), comma);
  }
  return schedule;
}

}  // namespace weft::scheduler
