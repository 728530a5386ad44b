#pragma once
// Helpers shared by the Machine tests: small machines, slices, buffers, semaphores and an
// AccessObserver that records every access.

#include <catch2/catch.hpp>

#include <span>
#include <vector>

#include "model/machine.hpp"

namespace weft::model::test {

inline MachineSpec spec_of(int devices, int cores, OutOfBoundsReads reads = OutOfBoundsReads::raise) {
  MachineSpec spec;
  spec.mesh = {devices};
  spec.cores_per_device = cores;
  spec.out_of_bounds_reads = reads;
  return spec;
}

inline Rect rect1(std::int64_t start, std::int64_t size) { return Rect{1, {start}, {size}}; }

// A slice whose view keeps every dimension of its rectangle.
inline Slice slice(Buffer* buffer, const Rect& rect) {
  Slice result{buffer, rect, {}};
  result.view.rank = rect.rank;
  for (int d = 0; d < rect.rank; ++d) result.view.dims[d] = rect.size[d];
  return result;
}
inline Slice whole(Buffer* buffer) { return slice(buffer, Rect::whole(buffer->info().shape)); }

// The memory verbs as sim/ops makes them of the machine's primitives: the access (checks, race
// detection), then the data moved.
inline bool load(Machine& machine, CoreId by, const Slice& slice, std::byte* out, SourceLine line, Failure& failure) {
  if (!machine.access(by, {slice, {&slice.rect, 1}, false, false, "loads"}, line, failure)) return false;
  slice.buffer->read(slice.rect, out);
  return true;
}
inline bool store(Machine& machine, CoreId by, const Slice& slice, const std::byte* in, SourceLine line,
                  Failure& failure) {
  if (!machine.access(by, {slice, {&slice.rect, 1}, true, false, "stores"}, line, failure)) return false;
  slice.buffer->write(slice.rect, in);
  return true;
}
inline bool load(Machine& machine, CoreId by, const Slice& slice, std::span<const Rect> parts, std::byte* out,
                 SourceLine line, Failure& failure) {
  if (!machine.access(by, {slice, parts, false, true, "loads"}, line, failure)) return false;
  for (const Rect& part : parts) slice.buffer->read_part(slice.rect, part, out);
  return true;
}
inline bool store(Machine& machine, CoreId by, const Slice& slice, std::span<const Rect> parts, const std::byte* in,
                  SourceLine line, Failure& failure) {
  if (!machine.access(by, {slice, parts, true, true, "stores"}, line, failure)) return false;
  for (const Rect& part : parts) slice.buffer->write_part(slice.rect, part, in);
  return true;
}
inline bool swap(Machine& machine, CoreId by, const Slice& slice, std::span<const Rect> parts, const std::byte* in,
                 std::byte* out, SourceLine line, Failure& failure) {
  if (!machine.access(by, {slice, parts, true, true, "swaps"}, line, failure)) return false;
  for (const Rect& part : parts) {
    slice.buffer->read_part(slice.rect, part, out);
    slice.buffer->write_part(slice.rect, part, in);
  }
  return true;
}

inline Buffer* alloc(Machine& machine, CoreId by, Space space, const Shape& shape) {
  Failure failure;
  Buffer* buffer = machine.memory().allocate(by, space, ElementType::f32, shape, failure);
  INFO(failure.message);
  REQUIRE(buffer != nullptr);
  return buffer;
}

inline int semaphore(Machine& machine, CoreId by) {
  Failure failure;
  const int index = machine.semaphores().allocate(by, 0, SemaphoreKind::dma, failure);
  REQUIRE(index >= 0);
  return index;
}

inline void fill(Buffer* buffer, float first) {
  for (std::int64_t i = 0; i < buffer->info().shape.volume(); ++i)
    buffer->data<float>()[i] = first + static_cast<float>(i);
}

inline std::vector<float> contents(const Buffer* buffer) {
  const float* data = buffer->data<float>();
  return {data, data + buffer->info().shape.volume()};
}

inline const SourceLine here{"kernels/ring.cpp", 42};

class Recorder final : public AccessObserver {
 public:
  bool on_access(const Access& access, Failure& failure) override {
    accesses.push_back(access);
    if (refuse) failure = {Verdict::data_race, "refused"};
    return !refuse;
  }
  std::vector<Access> accesses;
  bool refuse = false;
};

}  // namespace weft::model::test
