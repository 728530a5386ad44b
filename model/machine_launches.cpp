// The Machine's part in programs of several launches (model/launches.hpp, docs/semantics.md §12):
// the end of a launch, and the checks that find an effect crossing a launch boundary.

#include <string>

#include "model/machine.hpp"
#include "model/words.hpp"

namespace weft::model {
namespace {

std::string launch_name(int launch) { return "launch " + std::to_string(launch + 1); }

// What orders the two sides, in the author's terms.
std::string advice(int sender_device, int sender_launch, int receiver_device, int receiver_launch) {
  if (receiver_launch < sender_launch)
    return "nothing made device " + std::to_string(sender_device) + " wait until device " +
           std::to_string(receiver_device) + " had entered " + launch_name(sender_launch) +
           ": a handshake at the kernel's start (each device signals its neighbours' barrier semaphore and waits for "
           "theirs, before its first signal or DMA to them) orders it";
  return "device " + std::to_string(receiver_device) + " left " + launch_name(sender_launch) +
         " before this arrived: a device waits for what its neighbours send it in a launch before it ends that launch";
}

}  // namespace

std::string Machine::launch_of(int global_core, int from) const {
  const int launch = launches_.of(global_core);
  return to_string(topology_.core_of(global_core)) +
         (launch < from ? ", which is still in " : ", which is already in ") + launch_name(launch);
}

bool Machine::same_launch(CoreId by, int from, int semaphore, int target_global, SourceLine line,
                          Failure& failure) const {
  const int to = launches_.of(target_global);
  if (to == from || carries_across(semaphore)) return true;
  const int id = semaphores_.id(semaphore);
  const int slot = semaphores_.find(to, id);
  const std::string held = slot < 0 ? launch_name(to) + " has not allocated semaphore " + std::to_string(id)
                                    : "its cell there is " + semaphores_.describe(slot) + "'s, allocated at " +
                                          to_string(semaphores_.site(slot));
  const CoreId target = topology_.core_of(target_global);
  failure = {Verdict::crossed_launch,
             "crossed launches: " + to_string(by) + " in " + launch_name(from) + " signals " +
                 semaphores_.describe(semaphore) + " at " + to_string(line) + " on " + launch_of(target_global, from) +
                 " (" + held + "): " + advice(by.device, from, target.device, to),
             {{{Accessor::Kind::core, topology_.global(by)}, step_, line, "signal", {}, {}}}};
  return false;
}

bool Machine::same_launch(const Dma& dma, const DmaOrigin* origin_of, const Buffer* array, int target_global,
                          std::string_view what, Failure& failure) const {
  const int to = launches_.of(target_global);
  if (to == dma.launch) return true;
  const CoreId target = topology_.core_of(target_global);
  const std::string origin = origin_of != nullptr ? describe_origin(origin_of, array) + ", " : std::string();
  const std::string text =
      what.empty() ? to_string(dma.starter) + " in " + launch_name(dma.launch) + " starts a DMA (" + origin + "at " +
                         to_string(dma.line) + ") to " + launch_of(target_global, dma.launch) +
                         ": it would land in that launch's scratch and signal that launch's semaphores"
                   : words::dma(dma.id) + " (" + origin + "started by " + to_string(dma.starter) + " in " +
                         launch_name(dma.launch) + " at " + to_string(dma.line) + ") " + std::string(what) + " on " +
                         launch_of(target_global, dma.launch);
  failure = {Verdict::crossed_launch,
             "crossed launches: " + text + ": " + advice(dma.starter.device, dma.launch, target.device, to),
             {{{Accessor::Kind::core, topology_.global(dma.starter)}, step_, dma.line, "DMA start", {}, {}}}};
  return false;
}

bool Machine::end_launch(CoreId by, SourceLine line, Failure& failure) {
  const int global = topology_.global(by);
  const int launch = launches_.of(global);
  if (memory_.in_scope(by) && !close_scope(by, line, failure, "ends " + launch_name(launch))) return false;
  std::string leaked;
  for (const SemaphoreCell& cell : semaphores_.nonzero_cells(launch, global))
    leaked += "\n  " + semaphores_.describe(cell.index) + ": count " + std::to_string(cell.count);
  if (!leaked.empty()) {
    failure = {Verdict::semaphore_leak, to_string(by) + " ends " + launch_name(launch) + " at " + to_string(line) +
                                            ", but cells of that launch's semaphores on it are not zero:" + leaked};
    return false;
  }
  semaphores_.restart_ids(by);
  launches_.advance(global);
  arrive_at_barrier(by);
  return true;
}

}  // namespace weft::model
