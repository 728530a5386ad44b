#pragma once
// The kernel's view of one simulated core, modelled on a Pallas TPU kernel. Every verb that
// touches shared state is a visible operation: the core stops there and the scheduler decides
// when it happens. Verbs marked "blocks" may wait for other cores or DMAs.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/api/core_services.hpp"
#include "sim/api/dma.hpp"
#include "sim/api/handles.hpp"
#include "sim/api/location.hpp"
#include "sim/api/ref.hpp"
#include "sim/config/params.hpp"

namespace weft::sim {

class Core {
 public:
  // Core `id` of the kernel `services` runs (the engine: sim/engine/execution.hpp).
  Core(CoreServices& services, model::CoreId id, const Params& params);

  // --- identity (never blocks, not visible) ---
  model::CoreId id() const { return id_; }
  int device_id() const { return id_.device; }
  int core_id() const { return id_.core; }
  int num_devices() const;
  int num_cores() const;  // cores per device
  const std::vector<int>& mesh() const;
  std::vector<int> mesh_coords() const;                 // this device's coordinates
  int device_at(const std::vector<int>& coords) const;  // row-major id of mesh coordinates
  // The program's launches (docs/semantics.md §12): which one this core runs now (0-based) and
  // how many there are (config `program.launches`; 1 unless a scenario asks for more).
  int launch_index() const;
  int num_launches() const;
  // A scenario parameter (an undeclared name is a kernel_error naming this line): an integer
  // one, or any one (lists, strings, booleans: sim/config/params.hpp; its as_* readers throw
  // std::invalid_argument for another kind, which ends the run as a kernel_error).
  std::int64_t param(std::string_view name, Location loc = Location::current()) const;
  const ParamValue& param_value(std::string_view name, Location loc = Location::current()) const;

  // --- buffers ---
  // A host buffer of this device, by name (not visible: it exists before the kernel starts).
  template <class T>
  Ref<T> hbm(std::string_view name, Location loc = Location::current()) const {
    return Ref<T>(host_buffer(name, model::element_type_of<T>(), loc), launch_number());
  }
  // Scratch allocations (visible; ids are SPMD-symmetric, so allocate in the same order everywhere).
  // Reports call a buffer by the name given (`core.vmem<float>({8, 128}, "recv")`), else by the
  // line that allocated it.
  template <class T>
  Ref<T> vmem(const model::Shape& shape, Location loc = Location::current()) {
    return alloc<T>(model::Space::vmem, shape, {}, loc);
  }
  template <class T>
  Ref<T> vmem(const model::Shape& shape, std::string_view name, Location loc = Location::current()) {
    return alloc<T>(model::Space::vmem, shape, name, loc);
  }
  template <class T>
  Ref<T> smem(const model::Shape& shape, Location loc = Location::current()) {
    return alloc<T>(model::Space::smem, shape, {}, loc);
  }
  template <class T>
  Ref<T> smem(const model::Shape& shape, std::string_view name, Location loc = Location::current()) {
    return alloc<T>(model::Space::smem, shape, name, loc);
  }
  template <class T>
  Ref<T> vmem_shared(const model::Shape& shape, Location loc = Location::current()) {
    return alloc<T>(model::Space::vmem_shared, shape, {}, loc);
  }
  template <class T>
  Ref<T> vmem_shared(const model::Shape& shape, std::string_view name, Location loc = Location::current()) {
    return alloc<T>(model::Space::vmem_shared, shape, name, loc);
  }

  // Pallas' run_scoped: runs `body()`; the vmem and smem buffers allocated in it belong to the
  // scope and are freed when it returns (visible: the scope's end), their ids and capacity
  // reused by later allocations. A DMA still in flight into or out of one of them then is
  // dma_in_flight; one that landed without a wait races with the end (race detection); touching
  // one afterwards is a kernel_error naming this line. Scopes nest; vmem_shared cannot be scoped.
  template <class Body>
  void run_scoped(Body&& body, Location loc = Location::current()) {
    open_scope(loc);
    std::forward<Body>(body)();
    close_scope(loc);
  }

  // --- loads and stores (visible, never block) ---
  template <class T>
  Tile<T> load(const Ref<T>& ref, Location loc = Location::current());
  // The same load into a tile the kernel keeps (resized to the ref's shape if it differs), so
  // a loop that loads every iteration allocates nothing after the first.
  template <class T>
  void load_into(const Ref<T>& ref, Tile<T>& tile, Location loc = Location::current());
  // Takes any Eigen expression of the ref's shape (`x * 2 + 1`, `tile.colwise().sum()`).
  template <class T>
  void store(const Ref<T>& ref, const std::type_identity_t<Tile<T>>& tile, Location loc = Location::current());
  // Masked forms (Pallas' mask=): only the elements `mask` keeps (a Mask of the ref's tile
  // shape) are read or written; the others are neither bounds-checked nor race accesses. A
  // masked load gives `other` where the mask is false.
  template <class T>
  Tile<T> load(const Ref<T>& ref, const Mask& mask, std::type_identity_t<T> other, Location loc = Location::current());
  template <class T>
  void load_into(const Ref<T>& ref, Tile<T>& tile, const Mask& mask, std::type_identity_t<T> other,
                 Location loc = Location::current());
  template <class T>
  void store(const Ref<T>& ref, const std::type_identity_t<Tile<T>>& tile, const Mask& mask,
             Location loc = Location::current());
  // Writes `tile` into the ref and returns what was there, as one atomic operation; with a
  // mask only the kept elements are exchanged, and the others come back as `tile` holds them.
  template <class T>
  Tile<T> swap(const Ref<T>& ref, const std::type_identity_t<Tile<T>>& tile, Location loc = Location::current());
  template <class T>
  Tile<T> swap(const Ref<T>& ref, const std::type_identity_t<Tile<T>>& tile, const Mask& mask,
               Location loc = Location::current());

  // --- semaphores ---
  Semaphore semaphore(Location loc = Location::current());      // a regular semaphore (visible)
  Semaphore dma_semaphore(Location loc = Location::current());  // counts bytes (visible)
  // `count` of them with consecutive ids, in one visible operation; `sems[i]` is one.
  SemaphoreArray semaphores(int count, Location loc = Location::current());
  SemaphoreArray dma_semaphores(int count, Location loc = Location::current());
  // The same, named for reports (else they are called by the line that allocated them).
  Semaphore semaphore(std::string_view name, Location loc = Location::current());
  Semaphore dma_semaphore(std::string_view name, Location loc = Location::current());
  Semaphore barrier_semaphore(Location loc = Location::current());  // the launch's fixed-id barrier semaphore
  // Adds `amount` to a cell (visible, never blocks).
  void signal(Semaphore sem, std::int64_t amount = 1, Where where = {}, Location loc = Location::current());
  // Blocks until this core's cell holds at least `amount`, then subtracts it (visible).
  void wait(Semaphore sem, std::int64_t amount = 1, Location loc = Location::current());
  // This core's count (visible, never blocks).
  std::int64_t read(Semaphore sem, Location loc = Location::current());

  // --- the device barrier ---
  // Blocks until every core of this device has arrived here; what each did before arriving
  // happens before what any does after (two visible operations: the arrival, the departure).
  void device_barrier(Location loc = Location::current());

  // --- DMAs ---
  // Starts copying `source` into the buffer `target` names on `device` (default: this device),
  // into the core with this core's index (visible, never blocks).
  template <class T>
  Dma dma_start(const Ref<T>& source, const Ref<T>& target, Semaphore recv,
                std::optional<Semaphore> send = std::nullopt, std::optional<int> device = std::nullopt,
                Location loc = Location::current()) {
    return dma_start(source, target, recv, send, DmaOptions{.device = device}, loc);
  }
  // The same into any core of any device, overwriting or adding: `{.device = d, .core = c, .add = true}`.
  template <class T>
  Dma dma_start(const Ref<T>& source, const Ref<T>& target, Semaphore recv, std::optional<Semaphore> send,
                DmaOptions options, Location loc = Location::current()) {
    check_slice(source.slice(), source.launch(), "starts a DMA from", loc);
    check_slice(target.slice(), target.launch(), "starts a DMA to", loc);
    return start(source.slice(), target.slice(), recv, send, options, loc);
  }
  // A copy another core starts, described as this core sees it (Pallas lets a receiver make the
  // descriptor of its neighbour's remote copy, to wait on its own side): the bytes are the
  // source's, the semaphores this core's. Describing is not visible and starts nothing; waiting
  // on it is a wait for those bytes (`wait_recv()` on `recv`, `wait_send()` on `send`). Its
  // id() is -1.
  template <class T>
  Dma describe_dma(const Ref<T>& source, const Ref<T>& target, Semaphore recv,
                   std::optional<Semaphore> send = std::nullopt, DmaOptions options = {},
                   Location loc = Location::current()) {
    check_slice(source.slice(), source.launch(), "describes a DMA from", loc);
    check_slice(target.slice(), target.launch(), "describes a DMA to", loc);
    return describe(source.slice(), target.slice(), recv, send, options, loc);
  }
  // A local DMA started and waited in one call (Pallas' sync_copy): blocks until the target
  // holds the source (or, with `{.add = true}`, the sum). Its semaphore is the launch's sync
  // copy semaphore, which no kernel allocates.
  template <class T>
  void sync_copy(const Ref<T>& source, const Ref<T>& target, CopyOptions options = {},
                 Location loc = Location::current()) {
    check_slice(source.slice(), source.launch(), "copies from", loc);
    check_slice(target.slice(), target.launch(), "copies to", loc);
    copy(source.slice(), target.slice(), options, loc);
  }

  // --- for libraries that run kernels' boilerplate (the Pallas pipeline, sim/pallas/) ---
  // A scratch buffer of any element type (visible, as vmem<T>() and friends).
  model::Buffer* allocate(model::Space space, model::ElementType type, const model::Shape& shape,
                          Location loc = Location::current());
  // The same, named for reports (model/naming.hpp).
  model::Buffer* allocate(model::Space space, model::ElementType type, const model::Shape& shape, std::string_view name,
                          Location loc = Location::current());
  // A local DMA of any element type, named in reports by `origin` (visible, never blocks).
  Dma start_copy(const model::Slice& source, const model::Slice& target, Semaphore recv, const model::DmaOrigin& origin,
                 Location loc = Location::current());
  // A host buffer of this device by name, which must hold `type` (not visible).
  model::Buffer* host_buffer(std::string_view name, model::ElementType type, Location loc = Location::current()) const;
  // A typed ref of a buffer this launch made (checked: its element type must be T).
  template <class T>
  Ref<T> ref(model::Buffer* buffer, Location loc = Location::current()) const {
    if (buffer->info().type != model::element_type_of<T>())
      misuse("takes a ref", loc,
             model::describe(buffer->info()) + " does not hold " +
                 std::string(model::to_string(model::element_type_of<T>())));
    return Ref<T>(buffer, launch_number());
  }
  // Ends the execution with kernel_error "<core> <call> at FILE:LINE: <what>": a misuse of the
  // API, caught before any operation is scheduled.
  [[noreturn]] void misuse(std::string_view call, Location loc, const std::string& what) const;

  // For weft's own libraries (the Pallas pipeline): whether the machine follows interpret mode's
  // quirks (compat.profile = "jax"), and a note for the report of a wrong result about something
  // the hardware does legally that loses data (an output block revisited, not read back in).
  bool jax_compat() const;
  void note_for_wrong_result(std::string text) const;

  // A check of the kernel's own: false ends the execution with kernel_error naming `loc`. A
  // helper of the kernel's that checks on its caller's behalf takes a
  // `weft::sim::Location loc = weft::sim::Location::current()` parameter of its own and passes
  // it on, so the report names the caller's line.
  void check(bool ok, std::string_view message, Location loc = Location::current());

  // --- the same verbs on untyped slices, for bindings of other languages (python/) ---
  // Each checks what the typed verbs above check, but the element type (the binding's own
  // business) and the handle's launch (check_slice, which the binding calls first).
  void open_scope(Location loc);   // not visible: marks where the scope's allocations start
  void close_scope(Location loc);  // visible: ops/scope_end.hpp
  // The visible load and store of a slice's bytes (row-major, the slice's rectangle). The
  // templates above are kept small (errors out of line), so a kernel's call inlines them: one
  // frame fewer between the kernel and the switch, one mispredicted return fewer per step.
  void load_bytes(const model::Slice& slice, std::byte* out, Location loc);
  void store_bytes(const model::Slice& slice, const std::byte* in, Location loc);
  // The masked ones, and the swap; `parts` are the elements kept.
  void load_bytes(const model::Slice& slice, std::span<const model::Rect> parts, std::byte* out, Location loc);
  void store_bytes(const model::Slice& slice, std::span<const model::Rect> parts, const std::byte* in, Location loc);
  void swap_bytes(const model::Slice& slice, std::span<const model::Rect> parts, const std::byte* in, std::byte* out,
                  Location loc);
  // The rectangles of `slice` that `mask` keeps (model/mask.hpp), in a list the core reuses;
  // a mask not of the ref's tile shape is misuse of `call`.
  std::span<const model::Rect> kept(const model::Slice& slice, const Mask& mask, std::string_view call, Location loc);
  Dma start(const model::Slice& source, const model::Slice& target, Semaphore recv, std::optional<Semaphore> send,
            DmaOptions options, Location loc, const model::DmaOrigin& origin = {});
  void copy(const model::Slice& source, const model::Slice& target, CopyOptions options, Location loc);
  Dma describe(const model::Slice& source, const model::Slice& target, Semaphore recv, std::optional<Semaphore> send,
               DmaOptions options, Location loc);
  Semaphore new_semaphore(model::SemaphoreKind kind, std::string_view name, Location loc);
  SemaphoreArray new_semaphores(model::SemaphoreKind kind, int count, Location loc);
  // A ref of this launch that names a buffer, with no negative extent (else misuse of `call`).
  void check_slice(const model::Slice& slice, std::uint64_t launch, std::string_view call, Location loc) const;
  // The launch (execution) this core runs in; handles made in it carry it.
  std::uint64_t launch_number() const;

 private:
  friend class Dma;
  template <class T>
  Ref<T> alloc(model::Space space, const model::Shape& shape, std::string_view name, Location loc);
  // A tile not of the ref's tile shape is misuse of `call`.
  void check_tile(const model::Shape& view, std::int64_t rows, std::int64_t cols, std::string_view call,
                  Location loc) const {
    const auto [want_rows, want_cols] = tile_shape(view);
    if (rows != want_rows || cols != want_cols) tile_mismatch(call, rows, cols, view, loc);
  }
  [[noreturn]] void tile_mismatch(std::string_view call, std::int64_t rows, std::int64_t cols,
                                  const model::Shape& shape, Location loc) const;
  // A semaphore with a fixed id (not visible: it exists before the kernel asks).
  Semaphore fixed_semaphore(int id, model::SemaphoreKind kind, Location loc);
  // A handle made by this launch's API and not changed since.
  void check_handle(const Semaphore& sem, std::string_view call, Location loc) const;

  CoreServices& services_;
  model::CoreId id_;
  int global_;
  const Params& params_;
  std::vector<model::Rect> kept_;  // the last masked access's rectangles (kept for its capacity)
};

template <class T>
Ref<T> Core::alloc(model::Space space, const model::Shape& shape, std::string_view name, Location loc) {
  return Ref<T>(allocate(space, model::element_type_of<T>(), shape, name, loc), launch_number());
}

template <class T>
Tile<T> Core::load(const Ref<T>& ref, Location loc) {
  check_slice(ref.slice(), ref.launch(), "loads", loc);
  const auto [rows, cols] = tile_shape(ref.shape());
  Tile<T> tile(rows, cols);
  load_bytes(ref.slice(), reinterpret_cast<std::byte*>(tile.data()), loc);
  return tile;
}

template <class T>
void Core::load_into(const Ref<T>& ref, Tile<T>& tile, Location loc) {
  check_slice(ref.slice(), ref.launch(), "loads", loc);
  const auto [rows, cols] = tile_shape(ref.shape());
  tile.resize(rows, cols);  // no allocation when the shape is already right
  load_bytes(ref.slice(), reinterpret_cast<std::byte*>(tile.data()), loc);
}

template <class T>
void Core::store(const Ref<T>& ref, const std::type_identity_t<Tile<T>>& tile, Location loc) {
  check_slice(ref.slice(), ref.launch(), "stores", loc);
  check_tile(ref.shape(), tile.rows(), tile.cols(), "stores", loc);
  store_bytes(ref.slice(), reinterpret_cast<const std::byte*>(tile.data()), loc);
}

template <class T>
Tile<T> Core::load(const Ref<T>& ref, const Mask& mask, std::type_identity_t<T> other, Location loc) {
  Tile<T> tile;
  load_into(ref, tile, mask, other, loc);
  return tile;
}

template <class T>
void Core::load_into(const Ref<T>& ref, Tile<T>& tile, const Mask& mask, std::type_identity_t<T> other, Location loc) {
  check_slice(ref.slice(), ref.launch(), "loads", loc);
  const auto parts = kept(ref.slice(), mask, "loads", loc);
  tile.setConstant(mask.rows(), mask.cols(), other);  // no allocation when the shape is already right
  load_bytes(ref.slice(), parts, reinterpret_cast<std::byte*>(tile.data()), loc);
}

template <class T>
void Core::store(const Ref<T>& ref, const std::type_identity_t<Tile<T>>& tile, const Mask& mask, Location loc) {
  check_slice(ref.slice(), ref.launch(), "stores", loc);
  check_tile(ref.shape(), tile.rows(), tile.cols(), "stores", loc);
  store_bytes(ref.slice(), kept(ref.slice(), mask, "stores", loc), reinterpret_cast<const std::byte*>(tile.data()),
              loc);
}

template <class T>
Tile<T> Core::swap(const Ref<T>& ref, const std::type_identity_t<Tile<T>>& tile, Location loc) {
  check_slice(ref.slice(), ref.launch(), "swaps", loc);
  check_tile(ref.shape(), tile.rows(), tile.cols(), "swaps", loc);
  Tile<T> old = tile;
  swap_bytes(ref.slice(), {&ref.slice().rect, 1}, reinterpret_cast<const std::byte*>(tile.data()),
             reinterpret_cast<std::byte*>(old.data()), loc);
  return old;
}

template <class T>
Tile<T> Core::swap(const Ref<T>& ref, const std::type_identity_t<Tile<T>>& tile, const Mask& mask, Location loc) {
  check_slice(ref.slice(), ref.launch(), "swaps", loc);
  check_tile(ref.shape(), tile.rows(), tile.cols(), "swaps", loc);
  Tile<T> old = tile;
  swap_bytes(ref.slice(), kept(ref.slice(), mask, "swaps", loc), reinterpret_cast<const std::byte*>(tile.data()),
             reinterpret_cast<std::byte*>(old.data()), loc);
  return old;
}

}  // namespace weft::sim
