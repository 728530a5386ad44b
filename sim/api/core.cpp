// The kernel API's verbs (sim/api/core.hpp): the checks of the API's own misuse, then each
// visible operation one entry of the operation table (sim/ops/table.hpp), performed by the
// engine that runs the kernel (sim/api/core_services.hpp).

#include "sim/api/core.hpp"

#include "model/compat.hpp"
#include "model/mask.hpp"
#include "scheduler/fiber/fiber.hpp"
#include "sim/ops/table.hpp"

namespace weft::sim {
namespace {

model::SourceLine line_of(const Location& loc) { return {loc.file_name(), static_cast<int>(loc.line())}; }

constexpr int barrier_semaphore_id = 0;  // the launch's collective id

// `entry` performed by core `global` of `services`, with its results.
template <class Entry>
Entry performed(CoreServices& services, int global, Entry entry, const Location& loc) {
  services.perform_entry(global, ops::kind_of<Entry>, &entry, line_of(loc));
  return entry;
}

}  // namespace

Core::Core(CoreServices& services, model::CoreId id, const Params& params)
    : services_(services), id_(id), global_(services.machine().topology().global(id)), params_(params) {}

int Core::num_devices() const { return services_.machine().topology().devices(); }
int Core::num_cores() const { return services_.machine().topology().cores_per_device(); }
bool Core::jax_compat() const { return model::quirks_of(services_.machine().spec().compat).refuses_revisited_output; }
void Core::note_for_wrong_result(std::string text) const { services_.machine().note(std::move(text)); }
int Core::launch_index() const { return services_.machine().launches().of(global_); }
int Core::num_launches() const { return services_.machine().launches().count(); }
const std::vector<int>& Core::mesh() const { return services_.machine().topology().mesh(); }
std::vector<int> Core::mesh_coords() const { return services_.machine().topology().coords(id_.device); }
int Core::device_at(const std::vector<int>& coords) const { return services_.machine().topology().device_at(coords); }

const ParamValue& Core::param_value(std::string_view name, Location loc) const {
  const auto found = params_.find(name);
  if (found == params_.end())
    misuse("reads a parameter", loc, "the scenario declares no parameter '" + std::string(name) + "'");
  return found->second;
}

std::int64_t Core::param(std::string_view name, Location loc) const {
  const ParamValue& value = param_value(name, loc);
  if (value.kind() != ParamValue::Kind::integer && value.kind() != ParamValue::Kind::boolean)
    misuse("reads parameter '" + std::string(name) + "' as an integer", loc,
           "it is a " + std::string(to_string(value.kind())) + ": " + to_toml(value));
  return value.as_integer();
}

model::Buffer* Core::host_buffer(std::string_view name, model::ElementType type, Location loc) const {
  model::Buffer* buffer = services_.machine().memory().find_named(id_.device, name);
  if (buffer == nullptr)
    misuse("takes a host buffer", loc,
           "no host buffer '" + std::string(name) + "' on device " + std::to_string(id_.device));
  if (buffer->info().type != type)
    misuse("takes a host buffer", loc,
           "host buffer '" + std::string(name) + "' holds " + std::string(model::to_string(buffer->info().type)) +
               ", not " + std::string(model::to_string(type)));
  return buffer;
}

model::Buffer* Core::allocate(model::Space space, model::ElementType type, const model::Shape& shape, Location loc) {
  return allocate(space, type, shape, {}, loc);
}

model::Buffer* Core::allocate(model::Space space, model::ElementType type, const model::Shape& shape,
                              std::string_view name, Location loc) {
  if (const std::string problem = model::shape_problem(shape); !problem.empty())
    misuse("allocates " + std::string(model::to_string(space)) + " of shape " + model::to_string(shape), loc, problem);
  return performed(services_, global_, ops::AllocateBuffer{space, type, shape, name}, loc).made;
}

void Core::open_scope(Location loc) { services_.machine().memory().open_scope(id_, line_of(loc)); }

void Core::close_scope(Location loc) { performed(services_, global_, ops::ScopeEnd{}, loc); }

void Core::load_bytes(const model::Slice& slice, std::byte* out, Location loc) {
  performed(services_, global_, ops::Load{slice, out}, loc);
}

void Core::store_bytes(const model::Slice& slice, const std::byte* in, Location loc) {
  performed(services_, global_, ops::Store{slice, in}, loc);
}

void Core::load_bytes(const model::Slice& slice, std::span<const model::Rect> parts, std::byte* out, Location loc) {
  performed(services_, global_, ops::MaskedLoad{slice, parts, out}, loc);
}

void Core::store_bytes(const model::Slice& slice, std::span<const model::Rect> parts, const std::byte* in,
                       Location loc) {
  performed(services_, global_, ops::MaskedStore{slice, parts, in}, loc);
}

void Core::swap_bytes(const model::Slice& slice, std::span<const model::Rect> parts, const std::byte* in,
                      std::byte* out, Location loc) {
  performed(services_, global_, ops::Swap{slice, parts, in, out}, loc);
}

std::span<const model::Rect> Core::kept(const model::Slice& slice, const Mask& mask, std::string_view call,
                                        Location loc) {
  const auto [rows, cols] = tile_shape(slice.view);
  if (mask.rows() != rows || mask.cols() != cols)
    misuse(call, loc,
           "a " + std::to_string(mask.rows()) + "x" + std::to_string(mask.cols()) + " mask for a ref of shape " +
               model::to_string(slice.view) + " (its tiles are " + std::to_string(rows) + "x" + std::to_string(cols) +
               ")");
  model::mask_parts(slice.rect, mask.data(), kept_);
  return kept_;
}

void Core::tile_mismatch(std::string_view call, std::int64_t rows, std::int64_t cols, const model::Shape& shape,
                         Location loc) const {
  misuse(call, loc,
         "a " + std::to_string(rows) + "x" + std::to_string(cols) + " tile into a ref of shape " +
             model::to_string(shape));
}

Semaphore Core::new_semaphore(model::SemaphoreKind kind, std::string_view name, Location loc) {
  int index = -1;
  performed(services_, global_, ops::AllocateSemaphore{kind, name, {&index, 1}}, loc);
  return {index, services_.machine().semaphores().id(index), kind, services_.launch_number()};
}

SemaphoreArray Core::new_semaphores(model::SemaphoreKind kind, int count, Location loc) {
  if (count <= 0)
    misuse("allocates an array of " + std::to_string(count) + " " + std::string(model::to_string(kind)) + " semaphores",
           loc, "the count must be positive");
  std::vector<int> indices(static_cast<std::size_t>(count));
  performed(services_, global_, ops::AllocateSemaphore{kind, {}, indices}, loc);
  std::vector<Semaphore> semaphores;
  semaphores.reserve(indices.size());
  for (const int index : indices)
    semaphores.push_back({index, services_.machine().semaphores().id(index), kind, services_.launch_number()});
  return SemaphoreArray(std::move(semaphores));
}

Semaphore Core::semaphore(Location loc) { return new_semaphore(model::SemaphoreKind::regular, {}, loc); }
Semaphore Core::dma_semaphore(Location loc) { return new_semaphore(model::SemaphoreKind::dma, {}, loc); }
Semaphore Core::semaphore(std::string_view name, Location loc) {
  return new_semaphore(model::SemaphoreKind::regular, name, loc);
}
Semaphore Core::dma_semaphore(std::string_view name, Location loc) {
  return new_semaphore(model::SemaphoreKind::dma, name, loc);
}
SemaphoreArray Core::semaphores(int count, Location loc) {
  return new_semaphores(model::SemaphoreKind::regular, count, loc);
}
SemaphoreArray Core::dma_semaphores(int count, Location loc) {
  return new_semaphores(model::SemaphoreKind::dma, count, loc);
}

Semaphore Core::barrier_semaphore(Location loc) {
  return fixed_semaphore(barrier_semaphore_id, model::SemaphoreKind::barrier, loc);
}

Semaphore Core::fixed_semaphore(int id, model::SemaphoreKind kind, Location loc) {
  const scheduler::Fiber::RuntimeSection runtime;
  model::Failure failure;
  const int index = services_.machine().semaphores().fixed(id, kind, failure);
  if (index < 0) services_.fail(global_, model::located(std::move(failure), line_of(loc)));
  return {index, id, kind, services_.launch_number()};
}

void Core::signal(Semaphore sem, std::int64_t amount, Where where, Location loc) {
  check_handle(sem, "signals", loc);
  const auto& topology = services_.machine().topology();
  const bool to_core_0 = model::quirks_of(services_.machine().spec().compat).signal_defaults_to_core_0;
  const model::CoreId target{where.device.value_or(id_.device), where.core.value_or(to_core_0 ? 0 : id_.core)};
  const int target_global = topology.contains(target) ? topology.global(target) : -1;
  performed(services_, global_, ops::Signal{sem.index, target, target_global, amount}, loc);
}

void Core::wait(Semaphore sem, std::int64_t amount, Location loc) {
  check_handle(sem, "waits", loc);
  if (amount <= 0) {
    const scheduler::Fiber::RuntimeSection runtime;
    services_.fail(global_,
                   {model::Verdict::kernel_error, model::to_string(id_) + " waits on " +
                                                      services_.machine().semaphores().describe(sem.index) + " for " +
                                                      std::to_string(amount) + " at " + model::to_string(line_of(loc)) +
                                                      " (a wait must be for a positive amount)"});
  }
  performed(services_, global_, ops::Wait{sem.index, amount}, loc);
}

std::int64_t Core::read(Semaphore sem, Location loc) {
  check_handle(sem, "reads", loc);
  return performed(services_, global_, ops::Read{sem.index}, loc).count;
}

void Core::device_barrier(Location loc) {
  performed(services_, global_, ops::BarrierArrive{}, loc);
  performed(services_, global_, ops::BarrierLeave{}, loc);
}

Dma Core::start_copy(const model::Slice& source, const model::Slice& target, Semaphore recv,
                     const model::DmaOrigin& origin, Location loc) {
  check_slice(source, launch_number(), "starts a DMA from", loc);
  check_slice(target, launch_number(), "starts a DMA to", loc);
  return start(source, target, recv, std::nullopt, {}, loc, origin);
}

Dma Core::start(const model::Slice& source, const model::Slice& target, Semaphore recv, std::optional<Semaphore> send,
                DmaOptions options, Location loc, const model::DmaOrigin& origin) {
  check_handle(recv, "starts a DMA with the receive semaphore", loc);
  if (send) check_handle(*send, "starts a DMA with the send semaphore", loc);
  const model::CoreId destination{options.device.value_or(id_.device), options.core.value_or(id_.core)};
  const model::DmaRequest request{source,      target, destination, recv.index, send ? send->index : -1,
                                  options.add, origin};
  const int id = performed(services_, global_, ops::DmaStart{request}, loc).dma;
  const model::Dma& dma = services_.machine().dmas()[id];
  return Dma(*this, id, recv, send, dma.bytes, dma.remote());
}

Dma Core::describe(const model::Slice& source, const model::Slice& target, Semaphore recv,
                   std::optional<Semaphore> send, DmaOptions options, Location loc) {
  check_handle(recv, "describes a DMA with the receive semaphore", loc);
  if (send) check_handle(*send, "describes a DMA with the send semaphore", loc);
  if (source.rect.volume() != target.rect.volume())
    misuse("describes a DMA", loc,
           "its source has " + std::to_string(source.rect.volume()) + " elements and its target " +
               std::to_string(target.rect.volume()) + ": no copy moves that");
  const model::CoreId destination{options.device.value_or(id_.device), options.core.value_or(id_.core)};
  return Dma(*this, -1, recv, send, model::bytes_of(source), !(destination == id_));
}

void Core::copy(const model::Slice& source, const model::Slice& target, CopyOptions options, Location loc) {
  const Semaphore done = fixed_semaphore(model::sync_copy_semaphore_id, model::SemaphoreKind::dma, loc);
  start(source, target, done, std::nullopt, {.add = options.add}, loc).wait(loc);
}

void Core::check(bool ok, std::string_view message, Location loc) {
  if (ok) return;
  const scheduler::Fiber::RuntimeSection runtime;
  services_.fail(global_,
                 {model::Verdict::kernel_error, model::to_string(id_) + " failed its check at " +
                                                    model::to_string(line_of(loc)) + ": " + std::string(message)});
}

void Core::misuse(std::string_view call, Location loc, const std::string& what) const {
  const scheduler::Fiber::RuntimeSection runtime;  // weft's own code from here: no watchdog cuts it
  services_.fail(global_, {model::Verdict::kernel_error, model::to_string(id_) + " " + std::string(call) + " at " +
                                                             model::to_string(line_of(loc)) + ": " + what});
  __builtin_unreachable();  // fail never returns, but [[noreturn]] does not reach through a virtual call
}

void Core::check_handle(const Semaphore& sem, std::string_view call, Location loc) const {
  const auto& semaphores = services_.machine().semaphores();
  // Named only on the way to an error: a check that passes allocates nothing.
  const auto named = [&] { return std::string(model::to_string(sem.kind)) + " semaphore " + std::to_string(sem.id); };
  if (sem.launch != services_.launch_number())
    misuse(call, loc,
           named() + " comes from " + (sem.launch == 0 ? "no launch (a handle made by hand)" : "another launch") +
               "; use the handles this launch's core.semaphore(), core.dma_semaphore() and "
               "core.barrier_semaphore() return");
  if (sem.array_size > 0)
    misuse(call, loc,
           "index " + std::to_string(sem.array_index) + " of an array of " + std::to_string(sem.array_size) + " " +
               std::string(model::to_string(sem.kind)) + " semaphores (ids " + std::to_string(sem.id) + ".." +
               std::to_string(sem.id + sem.array_size - 1) + ")");
  const bool known = sem.index >= 0 && sem.index < semaphores.size() && semaphores.id(sem.index) == sem.id &&
                     semaphores.kind(sem.index) == sem.kind;
  if (known) {
    if (const int of = semaphores.launch(sem.index); of >= 0 && of != services_.machine().launches().of(global_))
      misuse(call, loc,
             named() + " belongs to launch " + std::to_string(of + 1) + " of the program; this core is in launch " +
                 std::to_string(services_.machine().launches().of(global_) + 1) +
                 " (each launch allocates its own semaphores)");
    return;
  }
  if (sem.kind == model::SemaphoreKind::barrier && sem.id != barrier_semaphore_id)
    misuse(call, loc,
           named() + " is the barrier semaphore of another launch (this launch's is barrier semaphore " +
               std::to_string(barrier_semaphore_id) + ", from core.barrier_semaphore())");
  misuse(call, loc, named() + " is not a semaphore of this launch (a handle changed by hand?)");
}

std::uint64_t Core::launch_number() const { return services_.launch_number(); }

void Core::check_slice(const model::Slice& slice, std::uint64_t launch, std::string_view call, Location loc) const {
  if (slice.buffer == nullptr) misuse(call, loc, "an empty ref (a default-constructed Ref names no buffer)");
  if (launch != services_.launch_number())  // checked before the buffer is touched: it may be gone
    misuse(call, loc, "a ref from another launch (kept from an earlier execution); its buffer is gone");
  for (int d = 0; d < slice.rect.rank; ++d)
    if (slice.rect.size[d] < 0)
      misuse(call, loc,
             "a ref of " + model::describe(slice.buffer->info()) + " with the negative extent " +
                 std::to_string(slice.rect.size[d]) + " in dimension " + std::to_string(d));
}

void Dma::wait_send(Location loc) {
  if (send_) core_->wait(*send_, bytes_, loc);
}

void Dma::wait_recv(Location loc) { core_->wait(recv_, bytes_, loc); }

void Dma::wait(Location loc) {
  if (remote_) wait_send(loc);
  wait_recv(loc);
}

}  // namespace weft::sim
