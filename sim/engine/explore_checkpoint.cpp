#include "sim/engine/explore_checkpoint.hpp"

#include <bit>
#include <limits>

namespace weft::sim {
namespace {

using byte_codec::ByteReader;
using byte_codec::ByteWriter;
using byte_codec::DecodeError;

constexpr std::string_view magic = "weft explore checkpoint\n";
constexpr std::uint64_t format = 1;
constexpr std::size_t hash_bytes = 8;

std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char byte : bytes) {
    hash ^= static_cast<unsigned char>(byte);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

void write_identity(ByteWriter& out, const CheckpointIdentity& identity) {
  out.text(identity.weft_version);
  out.text(identity.scenario);
  out.text(identity.config_digest);
  out.number(identity.max_executions);
  out.flag(identity.preemption_bound.has_value());
  if (identity.preemption_bound) out.signed_number(*identity.preemption_bound);
  out.flag(identity.reduction);
  out.flag(identity.keep_going);
}

CheckpointIdentity read_identity(ByteReader& in) {
  CheckpointIdentity identity;
  identity.weft_version = in.text();
  identity.scenario = in.text();
  identity.config_digest = in.text();
  identity.max_executions = in.number();
  if (in.flag()) {
    const std::int64_t bound = in.signed_number();
    if (bound < 0 || bound > std::numeric_limits<int>::max()) in.fail("a preemption bound out of range");
    identity.preemption_bound = static_cast<int>(bound);
  }
  identity.reduction = in.flag();
  identity.keep_going = in.flag();
  return identity;
}

// A reader past the magic line and the format number.
ByteReader open(std::string_view bytes) {
  if (bytes.substr(0, magic.size()) != magic) throw DecodeError("checkpoint: not a weft explore checkpoint");
  ByteReader in(bytes, magic.size(), "checkpoint");
  if (in.number() != format) in.fail("a format this weft does not read");
  return in;
}

void write_state(ByteWriter& out, const scheduler::ExplorerState& state) {
  out.number(state.nodes.size());
  for (const scheduler::ExplorerState::Node& node : state.nodes) {
    out.actors(node.enabled);
    out.tree(node.tree);
    out.sleep(node.sleep, true);
    out.number(node.done_branches);
    out.number(node.done_runs);
    out.number(node.runs_before);
  }
  out.number(state.complete);
  out.number(state.abandoned);
  out.number(std::bit_cast<std::uint64_t>(state.estimated_classes));
  out.flag(state.exhausted);
  out.flag(state.bound_hit);
}

scheduler::ExplorerState read_state(ByteReader& in) {
  scheduler::ExplorerState state;
  state.nodes.resize(in.count());
  for (scheduler::ExplorerState::Node& node : state.nodes) {
    node.enabled = in.actors();
    node.tree = in.tree();
    node.sleep = in.sleep();
    node.done_branches = in.number();
    node.done_runs = in.number();
    node.runs_before = in.number();
  }
  state.complete = in.number();
  state.abandoned = in.number();
  state.estimated_classes = std::bit_cast<double>(in.number());
  state.exhausted = in.flag();
  state.bound_hit = in.flag();
  return state;
}

}  // namespace

std::string encode_checkpoint(const ExploreCheckpoint& checkpoint) {
  ByteWriter out;
  out.number(format);
  write_identity(out, checkpoint.identity);
  const ExploreSaved& saved = checkpoint.saved;
  write_state(out, saved.explorer);
  out.number(saved.verdicts.size());
  for (const SavedVerdict& verdict : saved.verdicts) {
    out.text(model::to_string(verdict.verdict));
    out.number(verdict.runs);
    out.number(verdict.schedule.size());
    for (const scheduler::Actor actor : verdict.schedule) {
      out.number(static_cast<std::uint8_t>(actor.kind));
      out.number(actor.index);
    }
  }
  out.number(saved.steps);
  out.number(saved.peak_memory_bytes);
  out.number(std::bit_cast<std::uint64_t>(saved.seconds));
  out.flag(saved.stopped_early);
  std::string bytes = std::string(magic) + out.take();
  std::uint64_t hash = fnv1a(bytes);
  for (std::size_t k = 0; k < hash_bytes; ++k, hash >>= 8) bytes.push_back(static_cast<char>(hash & 0xff));
  return bytes;
}

CheckpointIdentity read_identity(std::string_view bytes) {
  ByteReader in = open(bytes);
  return read_identity(in);
}

ExploreCheckpoint decode_checkpoint(std::string_view bytes) {
  if (bytes.substr(0, magic.size()) != magic) throw DecodeError("checkpoint: not a weft explore checkpoint");
  if (bytes.size() < magic.size() + hash_bytes) throw DecodeError("checkpoint: truncated");
  const std::string_view body = bytes.substr(0, bytes.size() - hash_bytes);
  std::uint64_t stored = 0;
  for (std::size_t k = hash_bytes; k-- > 0;)
    stored = (stored << 8) | static_cast<unsigned char>(bytes[body.size() + k]);
  ByteReader in = open(body);
  if (stored != fnv1a(body)) in.fail("its hash does not match its contents (truncated or altered)");
  ExploreCheckpoint checkpoint;
  checkpoint.identity = read_identity(in);
  ExploreSaved& saved = checkpoint.saved;
  saved.explorer = read_state(in);
  saved.verdicts.resize(in.count());
  for (SavedVerdict& verdict : saved.verdicts) {
    const auto parsed = model::parse_verdict(in.text());
    if (!parsed) in.fail("an unknown verdict");
    verdict.verdict = *parsed;
    verdict.runs = in.number();
    verdict.schedule.resize(in.count());
    for (scheduler::Actor& actor : verdict.schedule) {
      actor.kind =
          static_cast<scheduler::Actor::Kind>(in.at_most(static_cast<std::uint8_t>(scheduler::Actor::Kind::dma_write)));
      actor.index = static_cast<std::uint32_t>(in.at_most(std::numeric_limits<std::uint32_t>::max()));
    }
  }
  saved.steps = in.number();
  saved.peak_memory_bytes = static_cast<std::size_t>(in.number());
  saved.seconds = std::bit_cast<double>(in.number());
  saved.stopped_early = in.flag();
  in.end();
  return checkpoint;
}

std::optional<std::string> identity_difference(const CheckpointIdentity& here, const CheckpointIdentity& saved) {
  std::string text;
  const auto differ = [&](const std::string& what, const std::string& now, const std::string& then) {
    if (now == then) return;
    if (!text.empty()) text += "; ";
    text += what + ": " + now + " here, " + then + " in the checkpoint";
  };
  const auto bound = [](const std::optional<int>& value) {
    return value ? std::to_string(*value) : std::string("none");
  };
  const auto yes_no = [](bool value) { return std::string(value ? "yes" : "no"); };
  differ("the weft version", here.weft_version, saved.weft_version);
  differ("the scenario", here.scenario, saved.scenario);
  differ("the configuration digest (configuration and parameters)", here.config_digest, saved.config_digest);
  differ("--max-executions", std::to_string(here.max_executions), std::to_string(saved.max_executions));
  differ("--preemption-bound", bound(here.preemption_bound), bound(saved.preemption_bound));
  differ("the reduction", yes_no(here.reduction), yes_no(saved.reduction));
  differ("--keep-going", yes_no(here.keep_going), yes_no(saved.keep_going));
  if (text.empty()) return std::nullopt;
  return text;
}

}  // namespace weft::sim
