#pragma once
// The messages of an exploration shared by processes (explore_over_ranks.hpp), as bytes
// (byte_codec.hpp): the owner of the tree hands a helper a claim, the helper sends back what its
// run saw. Every rank runs the same executable on the same request, so the encoding carries no
// version.
//
// Contract: decode(encode(x)) == x for each message, except what a message deliberately leaves
// out (a claim's `path`, which names the owner's states, and the states it keeps of the helper's
// last claim; a run's sleep sets before `sleeps_from`,
// which the owner sent in the claim; the run's end touches, which the owner's analysis puts back;
// the races of the run's order, of which the owner needs only the reversals kept).
// Decoding bytes that are not a whole message of the expected kind throws MessageError: never a
// partial message.

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/verdict.hpp"
#include "scheduler/schedule.hpp"
#include "scheduler/strategies/shared_wakeup_tree.hpp"
#include "sim/engine/byte_codec.hpp"

namespace weft::sim::explore_messages {

using MessageError = byte_codec::DecodeError;

enum class Kind : std::uint8_t {
  ready = 1,  // helper to owner: its first request for a claim
  claim,      // owner to helper: a branch to run
  stop,       // owner to helper: no more claims, end
  run,        // helper to owner: a claimed run's results (and the next request)
  error,      // helper to owner: it failed (the text of its exception), and ends
};

// The first byte of a message; throws MessageError when it names no kind.
Kind kind_of(std::string_view message);

std::string encode_ready();
std::string encode_stop();

// A claim without its path (the owner keeps it: its states live in the owner's tree), and
// without its first `kept` states: the helper keeps those of its last claim (the same states of
// the tree, so the same actors and sleep sets), and only the rest crosses.
std::string encode_claim(const scheduler::SharedWakeupTree::Claim& claim, std::size_t kept = 0);
// `last_forced` and `last_sleeps`: the helper's last claim's actors and sleep sets (the latter
// taken from); a claim keeping more states than they hold is refused (MessageError).
scheduler::SharedWakeupTree::Claim decode_claim(std::string_view message,
                                                std::span<const scheduler::StableActor> last_forced = {},
                                                std::vector<scheduler::Sleep>* last_sleeps = nullptr);

// How a run ended, as the tree owner's tally needs it.
struct Outcome {
  bool complete = false;                        // false: abandoned (every enabled actor asleep)
  bool stopped = false;                         // ended by the helper's stop flag: nothing else of it counts
  model::Verdict verdict = model::Verdict::ok;  // a complete run's
  scheduler::Schedule schedule;                 // a complete run's: it replays the verdict
  std::uint64_t steps = 0;                      // taken by the run, ended or not
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

struct RunMessage {
  // Events with their footprints as they ran (the touches of the run's end, which a live race
  // analysis puts on them, are left out), length, enabled actors at each state, and the sleep
  // sets from `sleeps_from` on (before it, empty: the claim's own).
  scheduler::SharedWakeupTree::Run run;
  std::size_t sleeps_from = 0;
  std::vector<std::pair<std::size_t, std::size_t>> races;  // each kept reversal's e_i and e_j, in order
  scheduler::HappensBefore::Clocks clocks;                 // the run's order, well formed for its events
  Outcome outcome;
};
// `reversals` and `clocks`: the run's race analysis (each sequence not yet consumed: its last step
// is e_j), and its order over the run's events (a run without events: rows {0}, the rest empty).
std::string encode_run(const scheduler::SharedWakeupTree::Run& run, std::size_t sleeps_from,
                       std::span<const scheduler::Reversal> reversals, const scheduler::HappensBefore::Clocks& clocks,
                       const Outcome& outcome);
RunMessage decode_run(std::string_view message);

std::string encode_error(std::string_view text);
std::string decode_error(std::string_view message);

}  // namespace weft::sim::explore_messages
