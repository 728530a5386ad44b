#include "model/machine.hpp"

#include <algorithm>
#include <vector>

#include "model/dma_chunks.hpp"
#include "model/words.hpp"

namespace weft::model {

std::string Machine::describe_actor(Accessor who) const {
  if (who.kind == Accessor::Kind::core) return to_string(topology_.core_of(who.index));
  const Dma& dma = dmas_[who.index];
  const std::string origin = dma.origin >= 0 ? dmas_.describe_origin(who.index) + ", " : std::string();
  return words::dma(dma.id) + " (" + origin + "started by " + to_string(dma.starter) + ")";
}

Machine::Machine(const MachineSpec& spec)
    : spec_(spec),
      topology_(spec),
      memory_(spec_, topology_),
      semaphores_(topology_, spec_.launches),
      launches_(spec_.launches, topology_.cores()),
      barrier_(topology_),
      dmas_started_(static_cast<std::size_t>(topology_.cores()), 0) {}

void Machine::set_launches(int count) {
  spec_.launches = count;
  semaphores_.set_launches(count);
  launches_ = Launches(count, topology_.cores());
}

Failure Machine::out_of_bounds(CoreId by, SourceLine line, const Slice& slice, std::string_view what) const {
  const BufferInfo& info = slice.buffer->info();
  return {Verdict::out_of_bounds, to_string(by) + " at " + to_string(line) + " " + std::string(what) + " " +
                                      to_string(slice.rect) + " of " + describe(info) + ", whose shape is " +
                                      to_string(info.shape)};
}

bool Machine::access_parts(CoreId by, const SliceAccess& access, const SourceLine& line, Failure& failure) {
  const bool check = access.is_write || spec_.out_of_bounds_reads == OutOfBoundsReads::raise;
  return (!check || parts_inside(by, access.slice, access.parts, access.verb, line, failure)) &&
         record_parts(by, access.slice, access.parts, access.is_write, line, failure);
}

bool Machine::write_rect(CoreId by, const Slice& slice, std::string_view verb, const SourceLine& line,
                         Failure& failure) {
  if (!slice.rect.inside(slice.buffer->info().shape)) {
    failure = out_of_bounds(by, line, slice, verb);
    return false;
  }
  return record({{Accessor::Kind::core, topology_.global(by)}, slice.buffer, slice.rect, true, line}, failure);
}

bool Machine::read_rect(CoreId by, const Slice& slice, std::string_view verb, const SourceLine& line,
                        Failure& failure) {
  const bool inside = slice.rect.inside(slice.buffer->info().shape);
  if (!inside && spec_.out_of_bounds_reads == OutOfBoundsReads::raise) {
    failure = out_of_bounds(by, line, slice, verb);
    return false;
  }
  const Rect touched = inside ? slice.rect : slice.rect.clipped_to(slice.buffer->info().shape);
  return record({{Accessor::Kind::core, topology_.global(by)}, slice.buffer, touched, false, line}, failure);
}

bool Machine::parts_inside(CoreId by, const Slice& slice, std::span<const Rect> parts, std::string_view verb,
                           SourceLine line, Failure& failure) const {
  for (const Rect& part : parts) {
    if (part.inside(slice.buffer->info().shape)) continue;
    const std::string what = std::string(verb) + (part == slice.rect ? "" : " unmasked elements");
    failure = out_of_bounds(by, line, {slice.buffer, part, slice.view}, what);
    return false;
  }
  return true;
}

bool Machine::record_parts(CoreId by, const Slice& slice, std::span<const Rect> parts, bool is_write, SourceLine line,
                           Failure& failure) {
  const Accessor who{Accessor::Kind::core, topology_.global(by)};
  for (const Rect& part : parts) {
    const Rect touched = part.clipped_to(slice.buffer->info().shape);
    if (touched.volume() > 0 && !record({who, slice.buffer, touched, is_write, line}, failure)) return false;
  }
  return true;
}

bool Machine::add(CoreId by, int semaphore, CoreId target, std::int64_t amount, Failure& failure, SourceLine line) {
  if (!topology_.contains(target)) {
    failure = {Verdict::kernel_error, to_string(by) + " signals semaphore " +
                                          std::to_string(semaphores_.id(semaphore)) + " on " + to_string(target) +
                                          ", which does not exist"};
    return false;
  }
  if (amount <= 0) {
    failure = {Verdict::kernel_error, to_string(by) + " signals semaphore " +
                                          std::to_string(semaphores_.id(semaphore)) + " by " + std::to_string(amount) +
                                          " (an increment must be positive)"};
    return false;
  }
  const int to = topology_.global(target);
  if (launches_.several() && !same_launch(by, launches_.of(topology_.global(by)), semaphore, to, line, failure))
    return false;
  release({Accessor::Kind::core, topology_.global(by)}, semaphore, to, amount);
  return true;
}

int Machine::start_dma(CoreId by, const DmaRequest& request, SourceLine line, Failure& failure) {
  const Slice& source = request.source;
  const Slice& target = request.target;
  const CoreId destination = request.destination;
  // Named only on the way to an error: a DMA that starts allocates nothing for it.
  const auto call = [&] { return to_string(by) + " starts a DMA at " + to_string(line) + ": "; };
  if (destination.device < 0 || destination.device >= topology_.devices()) {
    failure = {Verdict::kernel_error, call() + "device " + std::to_string(destination.device) + " does not exist"};
    return -1;
  }
  if (!topology_.contains(destination)) {
    failure = {Verdict::kernel_error, call() + "core " + std::to_string(destination.core) + " of device " +
                                          std::to_string(destination.device) + " does not exist"};
    return -1;
  }
  if (request.add && !is_numeric(source.buffer->info().type)) {
    failure = {Verdict::kernel_error, call() + "a DMA that adds needs numbers, not " +
                                          std::string(to_string(source.buffer->info().type)) + " elements"};
    return -1;
  }
  if (!(source.view == target.view)) {
    failure = {Verdict::kernel_error, call() + "the source shape " + to_string(source.view) +
                                          " differs from the destination shape " + to_string(target.view)};
    return -1;
  }
  if (source.rect.volume() == 0) {
    failure = {Verdict::kernel_error, call() + "the copy is empty (zero elements)"};
    return -1;
  }
  // A library's DMA (the Pallas pipeline's) is named as the author knows it: operand, grid point,
  // block, BlockSpec.
  const auto starts = [&](const char* reading, const Slice& array) {
    if (request.origin.what == nullptr) return "starts a DMA " + std::string(reading);
    return "starts the " + describe(request.origin, array.buffer->info().name) + ", a DMA " + reading;
  };
  if (!source.rect.inside(source.buffer->info().shape)) {
    failure = out_of_bounds(by, line, source, starts("reading", source));
    return -1;
  }
  const DmaOrigin* origin = request.origin.what != nullptr ? &request.origin : nullptr;
  Dma dma;
  dma.launch = launches_.of(topology_.global(by));
  dma.starter = by;
  dma.destination = destination;
  dma.line = line;
  // (The start's message names the origin without its array.)
  if (launches_.several() && !same_launch(dma, origin, nullptr, topology_.global(destination), "", failure)) return -1;
  const BufferInfo& local = target.buffer->info();
  Buffer* remote = memory_.find(local.space, local.id, destination);
  if (remote == nullptr || remote->info().type != local.type || !(remote->info().shape == local.shape)) {
    const std::string named = call() + "its destination, buffer " + std::to_string(local.id) + " " +
                              std::string(to_string(local.space)) + " " + std::string(to_string(local.type)) +
                              to_string(local.shape) + ", ";
    if (remote == nullptr && memory_.next_id(destination) <= local.id) {
      // The destination core has not reached that allocation yet: an ordering is missing.
      failure = {Verdict::kernel_error,
                 named + "does not exist yet on " + to_string(destination) +
                     ": that core has not reached its allocation " + "of buffer " + std::to_string(local.id) +
                     " (its next buffer is " + std::to_string(memory_.next_id(destination)) +
                     "), and nothing orders this DMA after it (a barrier " +
                     "or handshake with the destination before the first DMA into its scratch?)"};
    } else {
      failure = {Verdict::kernel_error,
                 named + (remote ? "is " + describe(remote->info()) : std::string("does not exist")) + " on " +
                     to_string(destination) + " (allocation order differs between devices?)"};
    }
    return -1;
  }
  const Slice resolved{remote, target.rect, target.view};
  if (!target.rect.inside(remote->info().shape)) {
    failure = out_of_bounds(by, line, resolved, starts("writing", resolved));
    return -1;
  }
  dma.sequence = dmas_started_[topology_.global(by)]++;
  dma.recv_semaphore = request.recv_semaphore;
  dma.send_semaphore = request.send_semaphore;
  dma.bytes = bytes_of(source);
  dma.add = request.add;
  const int id = dmas_.start(dma, source, resolved, origin);
  if (races_) races_->dma_started(topology_.global(by), id);
  started_dmas_.push_back(id);
  return id;
}

std::pair<int, int> Machine::next_phase_signal(int id) const {
  const Dma& dma = dmas_[id];
  if (dma.next == DmaPhase::read) return {dma.send_semaphore, topology_.global(dma.starter)};
  return {dma.recv_semaphore, topology_.global(dma.destination)};
}

bool Machine::run_dma_phase(int id, Failure& failure) {
  Dma& dma = dmas_[id];
  DmaFlight& flight = dmas_.flight(id);
  const Accessor who{Accessor::Kind::dma, id};
  if (launches_.several()) {
    const bool reading = dma.next == DmaPhase::read;
    const int at = topology_.global(reading ? dma.starter : dma.destination);
    const DmaOrigin* origin = dmas_.origin(id);
    const Buffer* array = origin == nullptr ? nullptr : origin->output ? flight.target.buffer : flight.source.buffer;
    if (!same_launch(dma, origin, array, at, reading ? "completes its read (signalling its starter)" : "lands",
                     failure))
      return false;
  }
  if (dma.next == DmaPhase::read) {
    if (!record({who, flight.source.buffer, flight.source.rect, false, dma.line}, failure)) return false;
    flight.snapshot.resize(static_cast<std::size_t>(dma.bytes));  // within the slot's capacity once it has grown
    flight.source.buffer->read(flight.source.rect, flight.snapshot.data());
    if (dma.send_semaphore >= 0) release(who, dma.send_semaphore, topology_.global(dma.starter), dma.bytes);
    dma.next = DmaPhase::write;
    return true;
  }
  // The next chunk of the write phase (the whole of it unless dma.chunk_bytes is set).
  const DmaChunk chunk = next_chunk(dma, flight, spec_.dma_chunk_bytes);
  if (!record({who, flight.target.buffer, chunk.rect, true, dma.line}, failure)) return false;
  const std::byte* bytes = flight.snapshot.data() + chunk.offset;
  if (dma.add) flight.target.buffer->accumulate(chunk.rect, bytes);
  else flight.target.buffer->write(chunk.rect, bytes);
  flight.landed += chunk.bytes;
  const bool last = flight.landed == dma.bytes;
  if (last) dmas_.finish(id);
  release(who, dma.recv_semaphore, topology_.global(dma.destination), chunk.bytes, last);
  return true;
}

bool Machine::close_scope(CoreId by, SourceLine line, Failure& failure, std::string_view ending) {
  const std::span<Buffer* const> scoped = memory_.innermost_scope(by);
  const auto in_scope = [&](const Buffer* buffer) {
    return std::find(scoped.begin(), scoped.end(), buffer) != scoped.end();
  };
  // A DMA still to touch one of them: its source until its read phase ran (the snapshot is
  // taken then), its target until its write phase has landed. Found among the DMAs in flight,
  // named in the order they started.
  std::vector<int> touching;  // allocated only when a scope ends with such a DMA: a failure
  dmas_.for_each_in_flight([&](int id) {
    const DmaFlight& flight = dmas_.flight(id);
    if ((dmas_[id].next == DmaPhase::read && in_scope(flight.source.buffer)) || in_scope(flight.target.buffer))
      touching.push_back(id);
  });
  if (!touching.empty()) {
    std::sort(touching.begin(), touching.end());
    std::string in_flight;
    for (const int id : touching) in_flight += "\n  " + dmas_.describe(id);
    failure = {Verdict::dma_in_flight,
               to_string(by) + " " +
                   (ending.empty() ? std::string("ends the scope of run_scoped") : std::string(ending)) + " at " +
                   to_string(line) + ", but DMAs into or out of its buffers are still in flight (wait for them " +
                   (ending.empty() ? "inside the scope):" : "before the end):") + in_flight};
    return false;
  }
  for (Buffer* buffer : scoped)
    if (!record({{Accessor::Kind::core, topology_.global(by)}, buffer, Rect::whole(buffer->info().shape), true, line},
                failure))
      return false;
  memory_.close_scope(by);
  return true;
}

bool Machine::touched_after_scope(const Access& access, Failure& failure) const {
  const bool dma = access.who.kind == Accessor::Kind::dma;
  failure = {Verdict::kernel_error,
             describe_actor(access.who) + (access.is_write ? " writes " : " reads ") + describe(access.buffer->info()) +
                 to_string(access.rect) + " at " + to_string(dma ? dmas_[access.who.index].line : access.line) +
                 (access.buffer->info().scope.line == 0
                      ? std::string(" after the launch it was allocated in ended: its memory is freed")
                      : " after the scope it was allocated in (run_scoped at " +
                            to_string(access.buffer->info().scope) + ") ended: its memory is freed")};
  return false;
}

std::optional<Failure> Machine::exit_check() const {
  std::string in_flight;
  for (const Dma& dma : dmas_.all())
    if (dma.next != DmaPhase::done) in_flight += "\n  " + dmas_.describe(dma.id);
  if (!in_flight.empty())
    return Failure{Verdict::dma_in_flight, "every core has finished, but DMAs are still in flight:" + in_flight};
  std::string leaked;
  for (const SemaphoreCell& cell : semaphores_.nonzero_cells())
    leaked += "\n  " + semaphores_.describe(cell.index) + ", " +
              words::cell_of(cell.global_core, topology_.cores_per_device()) + ": count " + std::to_string(cell.count);
  if (!leaked.empty())
    return Failure{Verdict::semaphore_leak, "every core has finished, but semaphore cells are not zero:" + leaked};
  return std::nullopt;
}

}  // namespace weft::model
