#include "model/memory.hpp"

#include <stdexcept>

#include "model/host_memory.hpp"
#include "model/words.hpp"

namespace weft::model {

std::string_view file_name(SourceLine where) {
  std::string_view file = where.file;
  if (auto slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  return file;
}

std::string to_string(SourceLine where) { return std::string(file_name(where)) + ":" + std::to_string(where.line); }

Memory::Memory(const MachineSpec& spec, const Topology& topology)
    : spec_(spec),
      topology_(topology),
      host_budget_(host_budget_bytes(spec)),
      next_id_(topology.cores(), first_kernel_buffer_id),
      allocations_made_(topology.cores(), 0),
      scopes_(topology.cores()) {}

Memory::Key Memory::key_of(Space space, int id, CoreId core) const {
  return {space, id, core.device, per_core(space) ? core.core : -1};
}

std::int64_t Memory::capacity(Space space) const {
  switch (space) {
    case Space::hbm:
      return spec_.hbm_bytes;
    case Space::vmem:
      return spec_.vmem_bytes;
    case Space::smem:
      return spec_.smem_bytes;
    case Space::vmem_shared:
      return spec_.vmem_shared_bytes;
  }
  return 0;
}

bool Memory::reserve(const Key& key, std::int64_t bytes, Failure& failure, CoreId by) {
  const auto& [space, id, device, core] = key;
  std::int64_t& used = bytes_used_[{space, device, core}];
  if (used + bytes <= capacity(space) && host_used_ + bytes <= host_budget_) {
    used += bytes;
    host_used_ += bytes;
    return true;
  }
  if (used + bytes <= capacity(space)) {
    failure = {Verdict::out_of_memory, to_string(by) + " allocates " + std::to_string(bytes) + " bytes of " +
                                           std::string(to_string(space)) + " for buffer " + std::to_string(id) +
                                           ", but the buffers of this execution already take " +
                                           std::to_string(host_used_) + " bytes of the host memory budget of " +
                                           std::to_string(host_budget_) + " (memory.host_bytes)"};
    return false;
  }
  failure = {Verdict::out_of_memory, to_string(by) + " allocates " + std::to_string(bytes) + " bytes of " +
                                         std::string(to_string(space)) + " for buffer " + std::to_string(id) +
                                         ", but " + std::to_string(used) + " of " + std::to_string(capacity(space)) +
                                         " bytes are in use on " +
                                         (core >= 0 ? words::core(device, core) : words::device(device))};
  return false;
}

Buffer& Memory::create(const Key& key, BufferInfo info, const std::byte* contents) {
  buffers_.push_back(std::make_unique<Buffer>(std::move(info), spec_.uninitialized, contents));
  buffers_.back()->serial = static_cast<int>(buffers_.size()) - 1;
  by_key_[key] = buffers_.back().get();
  return *buffers_.back();
}

int Memory::host_allocate(std::string name, ElementType type, const Shape& shape,
                          std::span<const std::byte* const> contents) {
  if (find_named(0, name)) throw std::invalid_argument("host buffer '" + name + "' is allocated twice");
  if (next_host_id_ == first_kernel_buffer_id)
    throw std::invalid_argument("host buffer '" + name + "': at most " + std::to_string(first_kernel_buffer_id - 1) +
                                " host buffers (ids from " + std::to_string(first_kernel_buffer_id) +
                                " are the kernel's)");
  if (const std::string problem = shape_problem(shape); !problem.empty())
    throw std::invalid_argument("host buffer '" + name + "' of shape " + to_string(shape) + ": " + problem);
  const std::int64_t bytes = shape.volume() * element_bytes(type);
  const std::int64_t everywhere = bytes * topology_.devices();  // at most 2^42 * 4096: no overflow
  if (host_used_ + everywhere > host_budget_)                   // before the first device's copy is allocated
    throw std::invalid_argument("host buffer '" + name + "' of shape " + to_string(shape) + " takes " +
                                std::to_string(bytes) + " bytes on each of " + std::to_string(topology_.devices()) +
                                " devices, " + std::to_string(everywhere) + " in all, but the host memory budget is " +
                                std::to_string(host_budget_) + " bytes (memory.host_bytes), " +
                                std::to_string(host_used_) + " of them already taken");
  const int id = next_host_id_++;
  for (int device = 0; device < topology_.devices(); ++device) {
    const Key key = key_of(Space::hbm, id, {device, 0});
    Failure failure;
    if (!reserve(key, bytes, failure, {device, 0}))
      throw std::invalid_argument("host buffer '" + name + "': " + failure.message);
    create(key, {id, Space::hbm, device, -1, type, shape, name},
           contents.empty() ? nullptr : contents[static_cast<std::size_t>(device)]);
  }
  return id;
}

namespace {

bool is_host(const BufferInfo& info) { return info.space == Space::hbm && info.id < first_kernel_buffer_id; }

}  // namespace

Buffer* Memory::find_named(int device, std::string_view name) {
  for (auto& buffer : buffers_)
    if (buffer->info().device == device && is_host(buffer->info()) && buffer->info().name == name) return buffer.get();
  return nullptr;
}

const Buffer* Memory::find_named(int device, std::string_view name) const {
  return const_cast<Memory*>(this)->find_named(device, name);
}

Buffer* Memory::allocate(CoreId by, Space space, ElementType type, const Shape& shape, Failure& failure,
                         const Naming& naming) {
  if (const std::string problem = shape_problem(shape); !problem.empty()) {
    failure = {Verdict::kernel_error, to_string(by) + " allocates " + std::string(to_string(space)) + " of shape " +
                                          to_string(shape) + ": " + problem};
    return nullptr;
  }
  const int global = topology_.global(by);
  std::vector<OpenScope>& scopes = scopes_[global];
  if (!scopes.empty() && !per_core(space)) {
    const bool launch = scopes.back().line.line == 0;  // a launch's scope (open_scope)
    failure = {
        Verdict::kernel_error,
        to_string(by) + " allocates " + std::string(to_string(space)) +
            (launch ? " in a program of several launches: a shared buffer's launch is not modelled yet (one launch "
                      "per execution for kernels that allocate it)"
                    : " inside the scope of run_scoped at " + to_string(scopes.back().line) +
                          ": scoped scratch is vmem or smem (a shared buffer lives for the whole kernel)")};
    return nullptr;
  }
  const int id = next_id_[global]++;
  auto [signature, fresh] = signatures_.try_emplace(allocations_made_[global]++, Signature{id, space, type, shape, by});
  if (!fresh) {
    const Signature& first = signature->second;
    if (first.space != space || first.type != type || first.shape != shape) {
      failure = {Verdict::kernel_error, "allocation order differs between cores: buffer " + std::to_string(first.id) +
                                            " is " + std::string(to_string(first.space)) + " " +
                                            std::string(to_string(first.type)) + to_string(first.shape) + " on " +
                                            to_string(first.first) + " but " + std::string(to_string(space)) + " " +
                                            std::string(to_string(type)) + to_string(shape) + " on " + to_string(by)};
      return nullptr;
    }
  }
  const Key key = key_of(space, id, by);
  if (auto found = by_key_.find(key); found != by_key_.end()) {
    ++found->second->ref_count;
    return found->second;
  }
  if (!reserve(key, shape.volume() * element_bytes(type), failure, by)) return nullptr;
  Buffer& made = create(key, {id, space, by.device, std::get<3>(key), type, shape, std::string(naming.name),
                              naming.site, scopes.empty() ? SourceLine{} : scopes.back().line});
  if (!scopes.empty()) scopes.back().buffers.push_back(&made);
  return &made;
}

void Memory::open_scope(CoreId by, SourceLine line) {
  const int global = topology_.global(by);
  scopes_[global].push_back({line, next_id_[global], {}});
}

std::span<Buffer* const> Memory::innermost_scope(CoreId by) const {
  const auto& scopes = scopes_[topology_.global(by)];
  if (scopes.empty()) return {};
  return scopes.back().buffers;
}

void Memory::close_scope(CoreId by) {
  const int global = topology_.global(by);
  OpenScope& scope = scopes_[global].back();
  for (Buffer* buffer : scope.buffers) {
    const BufferInfo& info = buffer->info();
    by_key_.erase(key_of(info.space, info.id, by));
    bytes_used_[{info.space, info.device, info.core}] -= buffer->bytes();
    host_used_ -= buffer->bytes();
    buffer->freed = true;
    buffer->release_storage();
  }
  next_id_[global] = scope.first_id;
  scopes_[global].pop_back();
}

Buffer* Memory::find(Space space, int id, CoreId core) {
  auto found = by_key_.find(key_of(space, id, core));
  return found == by_key_.end() ? nullptr : found->second;
}

}  // namespace weft::model
