#include "sim/engine/explore_messages.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "sim/engine/byte_codec.hpp"

namespace weft::sim::explore_messages {
namespace {

using scheduler::Actor;
using scheduler::Event;
using scheduler::Sleep;
using scheduler::StableActor;

// A message's writer: its kind first.
class Writer : public byte_codec::ByteWriter {
 public:
  explicit Writer(Kind kind) { number(static_cast<std::uint8_t>(kind)); }
};

// A message's reader, once its kind is the one expected.
class Reader : public byte_codec::ByteReader {
 public:
  Reader(std::string_view bytes, Kind kind) : ByteReader(bytes, 1, "explore message") {
    if (kind_of(bytes) != kind) throw MessageError("explore message: expected another kind of message");
  }
};

}  // namespace

Kind kind_of(std::string_view message) {
  if (message.empty()) throw MessageError("explore message: empty");
  const auto kind = static_cast<std::uint8_t>(message.front());
  if (kind < static_cast<std::uint8_t>(Kind::ready) || kind > static_cast<std::uint8_t>(Kind::error))
    throw MessageError("explore message: unknown kind " + std::to_string(kind));
  return static_cast<Kind>(kind);
}

std::string encode_ready() { return Writer(Kind::ready).take(); }
std::string encode_stop() { return Writer(Kind::stop).take(); }

std::string encode_claim(const scheduler::SharedWakeupTree::Claim& claim, std::size_t kept) {
  if (kept > claim.forced.size() || kept > claim.sleeps.size())
    throw std::logic_error("explore message: a claim keeping more states than it has");
  Writer out(Kind::claim);
  out.flag(claim.first);
  out.number(kept);
  out.number(claim.forced.size() - kept);
  for (std::size_t t = kept; t < claim.forced.size(); ++t) out.actor(claim.forced[t]);
  out.number(claim.sleeps.size() - kept);
  for (std::size_t t = kept; t < claim.sleeps.size(); ++t) out.sleep(claim.sleeps[t]);
  out.actors(claim.below);
  return out.take();
}

scheduler::SharedWakeupTree::Claim decode_claim(std::string_view message, std::span<const StableActor> last_forced,
                                                std::vector<Sleep>* last_sleeps) {
  Reader in(message, Kind::claim);
  scheduler::SharedWakeupTree::Claim claim;
  claim.first = in.flag();
  const std::uint64_t kept = in.number();
  if (kept > last_forced.size() || (kept > 0 && (last_sleeps == nullptr || kept > last_sleeps->size())))
    throw MessageError("explore message: a claim keeping more of the last claim than it had");
  claim.forced.assign(last_forced.begin(), last_forced.begin() + static_cast<std::ptrdiff_t>(kept));
  const std::size_t forced = in.count();
  for (std::size_t t = 0; t < forced; ++t) claim.forced.push_back(in.actor());
  for (std::size_t t = 0; t < kept; ++t) claim.sleeps.push_back(std::move((*last_sleeps)[t]));
  const std::size_t sleeps = in.count();
  for (std::size_t t = 0; t < sleeps; ++t) claim.sleeps.push_back(in.sleep());
  claim.below = in.actors();
  in.end();
  return claim;
}

std::string encode_run(const scheduler::SharedWakeupTree::Run& run, std::size_t sleeps_from,
                       std::span<const scheduler::Reversal> reversals, const scheduler::HappensBefore::Clocks& clocks,
                       const Outcome& outcome) {
  Writer out(Kind::run);
  out.number(run.length);
  out.number(run.events.size());
  for (const Event& event : run.events) {
    out.actor(event.actor);
    out.footprint(event.footprint);
  }
  out.number(run.enabled.size());
  for (const std::vector<StableActor>& enabled : run.enabled) out.actors(enabled);
  const std::size_t from = std::min(sleeps_from, run.sleeps.size());
  out.number(from);
  out.number(run.sleeps.size() - from);
  for (std::size_t t = from; t < run.sleeps.size(); ++t) out.sleep(run.sleeps[t]);
  out.number(reversals.size());
  for (const scheduler::Reversal& reversal : reversals) {
    out.number(reversal.at);
    out.number(reversal.sequence.steps().back().index);
  }
  const auto numbers = [&](const auto& values) {
    out.number(values.size());
    for (const auto value : values) out.number(value);
  };
  numbers(clocks.chain);
  numbers(clocks.position);
  numbers(clocks.clock);
  numbers(clocks.rows);
  out.flag(outcome.complete);
  out.flag(outcome.stopped);
  out.text(model::to_string(outcome.verdict));
  out.number(outcome.schedule.size());
  for (const Actor actor : outcome.schedule) {
    out.number(static_cast<std::uint8_t>(actor.kind));
    out.number(actor.index);
  }
  out.number(outcome.steps);
  return out.take();
}

RunMessage decode_run(std::string_view message) {
  Reader in(message, Kind::run);
  RunMessage decoded;
  scheduler::SharedWakeupTree::Run& run = decoded.run;
  const std::uint64_t length = in.number();
  run.events.resize(in.count());
  if (length > run.events.size()) throw MessageError("explore message: a run longer than its events");
  run.length = static_cast<std::size_t>(length);
  for (Event& event : run.events) {
    event.actor = in.actor();
    event.footprint = in.footprint();
  }
  run.enabled.resize(in.count());
  for (std::vector<StableActor>& enabled : run.enabled) enabled = in.actors();
  decoded.sleeps_from = in.at_most(run.length);
  run.sleeps.resize(decoded.sleeps_from);
  const std::size_t sleeps = in.count();
  for (std::size_t t = 0; t < sleeps; ++t) run.sleeps.push_back(in.sleep());
  decoded.races.resize(in.count());
  for (auto& [i, j] : decoded.races) {
    i = static_cast<std::size_t>(in.at_most(run.events.size()));
    j = static_cast<std::size_t>(in.at_most(run.events.size()));
    if (i >= j || i >= run.length || j >= run.events.size())
      throw MessageError("explore message: a race that is not one of the run's");
  }
  scheduler::HappensBefore::Clocks& clocks = decoded.clocks;
  const auto numbers = [&](auto& values, std::uint64_t most) {
    values.resize(in.count());
    for (auto& value : values) value = static_cast<std::remove_reference_t<decltype(value)>>(in.at_most(most));
  };
  const std::uint64_t most32 = std::numeric_limits<std::uint32_t>::max();
  numbers(clocks.chain, most32);
  numbers(clocks.position, most32);
  numbers(clocks.clock, most32);
  numbers(clocks.rows, clocks.clock.size());
  const std::size_t events = run.events.size();
  if (clocks.chain.size() != events || clocks.position.size() != events || clocks.rows.size() != events + 1 ||
      clocks.rows.front() != 0 || clocks.rows.back() != clocks.clock.size() ||
      !std::is_sorted(clocks.rows.begin(), clocks.rows.end()))
    throw MessageError("explore message: a run's order that does not fit its events");
  Outcome& outcome = decoded.outcome;
  outcome.complete = in.flag();
  outcome.stopped = in.flag();
  const auto verdict = model::parse_verdict(in.text());
  if (!verdict) throw MessageError("explore message: an unknown verdict");
  outcome.verdict = *verdict;
  outcome.schedule.resize(in.count());
  for (Actor& actor : outcome.schedule) {
    actor.kind = static_cast<Actor::Kind>(in.at_most(static_cast<std::uint8_t>(Actor::Kind::dma_write)));
    actor.index = static_cast<std::uint32_t>(in.at_most(std::numeric_limits<std::uint32_t>::max()));
  }
  outcome.steps = in.number();
  in.end();
  return decoded;
}

std::string encode_error(std::string_view text) {
  Writer out(Kind::error);
  out.text(text);
  return out.take();
}

std::string decode_error(std::string_view message) {
  Reader in(message, Kind::error);
  std::string text = in.text();
  in.end();
  return text;
}

}  // namespace weft::sim::explore_messages
