#include "sim/api/core.hpp"

#include "sim/engine/execution.hpp"

namespace weft::sim {
namespace {

model::SourceLine line_of(const Location& loc) { return {loc.file_name(), static_cast<int>(loc.line())}; }

// Each visible operation runs weft's own code on the core's fiber: no watchdog may cut it short.
using Runtime = scheduler::Fiber::RuntimeSection;

constexpr int barrier_semaphore_id = 0;  // the launch's collective id

}  // namespace

Core::Core(Execution& execution, model::CoreId id, const Params& params)
    : execution_(execution), id_(id), global_(execution.machine().topology().global(id)), params_(params) {}

int Core::num_devices() const { return execution_.machine().topology().devices(); }
int Core::num_cores() const { return execution_.machine().topology().cores_per_device(); }
const std::vector<int>& Core::mesh() const { return execution_.machine().topology().mesh(); }
std::vector<int> Core::mesh_coords() const { return execution_.machine().topology().coords(id_.device); }
int Core::device_at(const std::vector<int>& coords) const { return execution_.machine().topology().device_at(coords); }

std::int64_t Core::param(std::string_view name) const {
  const auto found = params_.find(name);
  if (found == params_.end()) throw std::invalid_argument("the kernel reads an undeclared parameter '" + std::string(name) + "'");
  return found->second;
}

model::Buffer* Core::host_buffer(std::string_view name) const {
  model::Buffer* buffer = execution_.machine().memory().find_named(id_.device, name);
  if (buffer == nullptr) throw std::invalid_argument("no host buffer '" + std::string(name) + "' on device " + std::to_string(id_.device));
  return buffer;
}

model::Buffer* Core::allocate(model::Space space, model::ElementType type, const model::Shape& shape, Location loc) {
  const Runtime runtime;
  if (const std::string problem = model::shape_problem(shape); !problem.empty())
    misuse("allocates " + std::string(model::to_string(space)) + " of shape " + model::to_string(shape), loc, problem);
  PendingOp op = PendingOp::of(PendingOp::Kind::allocate, line_of(loc));
  op.buffer = true;
  op.space = space;
  execution_.yield(global_, op);
  model::Failure failure;
  model::Buffer* buffer = execution_.machine().memory().allocate(id_, space, type, shape, failure);
  if (buffer == nullptr) execution_.fail(global_, located(std::move(failure), loc));
  if (execution_.tracing()) emit_access(TraceEvent::Kind::allocate, buffer, model::Rect::whole(shape), loc);
  return buffer;
}

void Core::load_bytes(const model::Slice& slice, std::byte* out, Location loc) {
  const Runtime runtime;
  PendingOp op = PendingOp::of(PendingOp::Kind::load, line_of(loc));
  op.slice = &slice;
  execution_.yield(global_, op);
  model::Failure failure;
  if (!execution_.machine().load(id_, slice, out, line_of(loc), failure)) execution_.fail(global_, std::move(failure));
  if (execution_.tracing()) emit_access(TraceEvent::Kind::load, slice.buffer, slice.rect, loc);
}

void Core::store_bytes(const model::Slice& slice, const std::byte* in, Location loc) {
  const Runtime runtime;
  PendingOp op = PendingOp::of(PendingOp::Kind::store, line_of(loc));
  op.slice = &slice;
  execution_.yield(global_, op);
  model::Failure failure;
  if (!execution_.machine().store(id_, slice, in, line_of(loc), failure)) execution_.fail(global_, std::move(failure));
  if (execution_.tracing()) emit_access(TraceEvent::Kind::store, slice.buffer, slice.rect, loc);
}

void Core::tile_mismatch(std::int64_t rows, std::int64_t cols, const model::Shape& shape) {
  throw std::invalid_argument("store of a " + std::to_string(rows) + "x" + std::to_string(cols) +
                              " tile into a ref of shape " + model::to_string(shape));
}

Semaphore Core::new_semaphore(model::SemaphoreKind kind, Location loc) {
  const Runtime runtime;
  execution_.yield(global_, PendingOp::of(PendingOp::Kind::allocate, line_of(loc)));
  model::Failure failure;
  auto& semaphores = execution_.machine().semaphores();
  const int index = semaphores.allocate(id_, kind, failure);
  if (index < 0) execution_.fail(global_, located(std::move(failure), loc));
  const Semaphore sem{index, semaphores.id(index), kind, execution_.launch_number()};
  if (execution_.tracing()) emit_semaphore(TraceEvent::Kind::allocate, sem, global_, 0, loc);
  return sem;
}

Semaphore Core::semaphore(Location loc) { return new_semaphore(model::SemaphoreKind::regular, loc); }
Semaphore Core::dma_semaphore(Location loc) { return new_semaphore(model::SemaphoreKind::dma, loc); }

Semaphore Core::barrier_semaphore(Location loc) {
  const Runtime runtime;
  model::Failure failure;
  const int index = execution_.machine().semaphores().barrier(barrier_semaphore_id, failure);
  if (index < 0) execution_.fail(global_, located(std::move(failure), loc));
  return {index, barrier_semaphore_id, model::SemaphoreKind::barrier, execution_.launch_number()};
}

void Core::signal(Semaphore sem, std::int64_t amount, Where where, Location loc) {
  const Runtime runtime;
  check_handle(sem, "signals", loc);
  const bool jax = execution_.machine().spec().compat == model::CompatProfile::jax;
  const model::CoreId target{where.device.value_or(id_.device), where.core.value_or(jax ? 0 : id_.core)};
  PendingOp op = PendingOp::of(PendingOp::Kind::signal, line_of(loc));
  op.semaphore = sem.index;
  op.value = amount;
  op.target_core = execution_.machine().topology().contains(target) ? execution_.machine().topology().global(target) : -1;
  execution_.yield(global_, op);
  model::Failure failure;
  if (!execution_.machine().signal(id_, sem.index, target, amount, failure))
    execution_.fail(global_, located(std::move(failure), loc));
  if (execution_.tracing())
    emit_semaphore(TraceEvent::Kind::signal, sem, execution_.machine().topology().global(target), amount, loc);
}

void Core::wait(Semaphore sem, std::int64_t amount, Location loc) {
  const Runtime runtime;
  check_handle(sem, "waits", loc);
  if (amount <= 0)
    execution_.fail(global_, {model::Verdict::kernel_error, model::to_string(id_) + " waits on semaphore " +
                                                                std::to_string(sem.id) + " for " + std::to_string(amount) +
                                                                " at " + model::to_string(line_of(loc)) +
                                                                " (a wait must be for a positive amount)"});
  PendingOp op = PendingOp::of(PendingOp::Kind::wait, line_of(loc));
  op.semaphore = sem.index;
  op.value = amount;
  execution_.yield(global_, op);
  execution_.machine().consume(sem.index, global_, amount);
  if (execution_.tracing()) emit_semaphore(TraceEvent::Kind::wait, sem, global_, amount, loc);
}

std::int64_t Core::read(Semaphore sem, Location loc) {
  const Runtime runtime;
  check_handle(sem, "reads", loc);
  PendingOp op = PendingOp::of(PendingOp::Kind::read, line_of(loc));
  op.semaphore = sem.index;
  execution_.yield(global_, op);
  if (execution_.tracing()) emit_semaphore(TraceEvent::Kind::read, sem, global_, 0, loc);
  return execution_.machine().semaphores().count(sem.index, global_);
}

Dma Core::start(const model::Slice& source, const model::Slice& target, Semaphore recv, std::optional<Semaphore> send,
                std::optional<int> device, Location loc) {
  const Runtime runtime;
  check_handle(recv, "starts a DMA with the receive semaphore", loc);
  if (send) check_handle(*send, "starts a DMA with the send semaphore", loc);
  PendingOp op = PendingOp::of(PendingOp::Kind::dma_start, line_of(loc));
  op.slice = &source;
  op.target = &target;
  op.device = device.value_or(id_.device);
  op.semaphore = recv.index;
  op.value = send ? send->index : -1;
  execution_.yield(global_, op);
  auto& machine = execution_.machine();
  model::Failure failure;
  const int id = machine.start_dma(id_, source, target, device.value_or(id_.device), recv.index, send ? send->index : -1,
                                   line_of(loc), failure);
  if (id < 0) execution_.fail(global_, std::move(failure));
  if (execution_.tracing()) {
    TraceEvent event = execution_.dma_phase_event(id, model::DmaPhase::write);
    event.kind = TraceEvent::Kind::dma_start;
    event.actor = scheduler::core_actor(static_cast<std::uint32_t>(global_));
    event.line = line_of(loc);
    event.semaphore_id = -1;
    execution_.emit(event);
  }
  if (machine.spec().dma_execution == model::DmaExecution::eager) {
    for (const auto phase : {model::DmaPhase::read, model::DmaPhase::write}) {
      if (!machine.run_dma_phase(id, failure)) execution_.fail(global_, std::move(failure));
      if (execution_.tracing()) execution_.emit(execution_.dma_phase_event(id, phase));
    }
  } else {
    execution_.dma_started(id);
  }
  const model::Dma& dma = machine.dmas()[id];
  return Dma(*this, id, recv, send, dma.bytes, dma.remote());
}

void Core::emit_access(TraceEvent::Kind kind, const model::Buffer* buffer, const model::Rect& rect, Location loc) {
  TraceEvent event;
  event.kind = kind;
  event.actor = scheduler::core_actor(static_cast<std::uint32_t>(global_));
  event.line = line_of(loc);
  event.buffer = buffer;
  event.rect = rect;
  execution_.emit(event);
}

void Core::emit_semaphore(TraceEvent::Kind kind, Semaphore sem, int target_core, std::int64_t amount, Location loc) {
  TraceEvent event;
  event.kind = kind;
  event.actor = scheduler::core_actor(static_cast<std::uint32_t>(global_));
  event.line = line_of(loc);
  event.semaphore_id = sem.id;
  event.target_core = target_core;
  event.amount = amount;
  event.count = execution_.machine().semaphores().count(sem.index, target_core);
  execution_.emit(event);
}

void Core::check(bool ok, std::string_view message, Location loc) {
  const Runtime runtime;
  if (ok) return;
  execution_.fail(global_, {model::Verdict::kernel_error, model::to_string(id_) + " failed its check at " +
                                                              model::to_string(line_of(loc)) + ": " + std::string(message)});
}

void Core::misuse(std::string_view call, Location loc, const std::string& what) {
  execution_.fail(global_, {model::Verdict::kernel_error, model::to_string(id_) + " " + std::string(call) + " at " +
                                                              model::to_string(line_of(loc)) + ": " + what});
}

void Core::check_handle(const Semaphore& sem, std::string_view call, Location loc) {
  const auto& semaphores = execution_.machine().semaphores();
  // Named only on the way to an error: a check that passes allocates nothing.
  const auto named = [&] { return std::string(model::to_string(sem.kind)) + " semaphore " + std::to_string(sem.id); };
  if (sem.launch != execution_.launch_number())
    misuse(call, loc, named() + " comes from " + (sem.launch == 0 ? "no launch (a handle made by hand)" : "another launch") +
                          "; use the handles this launch's core.semaphore(), core.dma_semaphore() and "
                          "core.barrier_semaphore() return");
  const bool known = sem.index >= 0 && sem.index < semaphores.size() && semaphores.id(sem.index) == sem.id &&
                     semaphores.kind(sem.index) == sem.kind;
  if (known) return;
  if (sem.kind == model::SemaphoreKind::barrier && sem.id != barrier_semaphore_id)
    misuse(call, loc, named() + " is the barrier semaphore of another launch (this launch's is barrier semaphore " +
                          std::to_string(barrier_semaphore_id) + ", from core.barrier_semaphore())");
  misuse(call, loc, named() + " is not a semaphore of this launch (a handle changed by hand?)");
}

std::uint64_t Core::launch_number() const { return execution_.launch_number(); }

void Core::check_slice(const model::Slice& slice, std::uint64_t launch, std::string_view call, Location loc) {
  if (slice.buffer == nullptr) misuse(call, loc, "an empty ref (a default-constructed Ref names no buffer)");
  if (launch != execution_.launch_number())  // checked before the buffer is touched: it may be gone
    misuse(call, loc, "a ref from another launch (kept from an earlier execution); its buffer is gone");
  for (int d = 0; d < slice.rect.rank; ++d)
    if (slice.rect.size[d] < 0)
      misuse(call, loc, "a ref of " + model::describe(slice.buffer->info()) + " with the negative extent " +
                            std::to_string(slice.rect.size[d]) + " in dimension " + std::to_string(d));
}

model::Failure Core::located(model::Failure failure, Location loc) {
  failure.message += " (at " + model::to_string(line_of(loc)) + ")";
  return failure;
}

void Dma::wait_send(std::source_location loc) {
  if (send_) core_->wait(*send_, bytes_, loc);
}

void Dma::wait_recv(std::source_location loc) { core_->wait(recv_, bytes_, loc); }

void Dma::wait(std::source_location loc) {
  if (remote_) wait_send(loc);
  wait_recv(loc);
}

}  // namespace weft::sim
