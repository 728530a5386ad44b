#pragma once
// A typed buffer with real contents in one memory space of one device (and, for per-core spaces,
// one core). Elements are row-major, of one element type (model/element_type.hpp); loads and
// stores copy rectangles.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "model/element_type.hpp"
#include "model/failure.hpp"
#include "model/machine_spec.hpp"
#include "model/rect.hpp"

namespace weft::model {

enum class Space { hbm, vmem, smem, vmem_shared };

std::string_view to_string(Space space);

// Per-core spaces have one instance per core; the others one per device.
inline bool is_per_core(Space space) { return space == Space::vmem || space == Space::smem; }

struct BufferInfo {
  int id = 0;
  Space space = Space::hbm;
  int device = 0;
  int core = -1;  // owning core for per-core spaces, -1 for shared ones
  ElementType type = ElementType::f32;
  Shape shape{};
  std::string name{};  // a host buffer's name, or the name a kernel gave its allocation
  SourceLine site{};   // where the kernel allocated it (line 0 for host buffers)
  SourceLine scope{};  // the run_scoped call it was allocated in (line 0: none; model/memory.hpp)
};

// "hbm buffer 3 'x' f32[8, 128] on device 1", "vmem buffer 100 'ring.cpp:21' f32[2, 8, 128] on
// device 5 core 0" (an unnamed allocation is called by its site: model/naming.hpp).
std::string describe(const BufferInfo& info);

class Buffer {
 public:
  // Filled as `fill` says, or, given `contents`, a copy of the bytes there.
  Buffer(BufferInfo info, Uninitialized fill, const std::byte* contents = nullptr);

  const BufferInfo& info() const { return info_; }
  std::int64_t element_bytes() const { return element_bytes_; }
  std::int64_t bytes() const { return info_.shape.volume() * element_bytes_; }

  // Copies `rect` (row-major, rect.volume() elements) out of / into the buffer. For `read`, the
  // parts of `rect` outside the buffer are filled with the uninitialized value; `write` requires
  // `rect` to be inside the buffer.
  void read(const Rect& rect, std::byte* out) const { read_part(rect, rect, out); }
  void write(const Rect& rect, const std::byte* in) { write_part(rect, rect, in); }
  // The same for `part`, a sub-rectangle of `layout`, whose elements sit in `out` / `in` where
  // they sit in a row-major copy of `layout` (the rest of `out` is left as it is): a masked
  // access copies its rectangles (model/mask.hpp) between the buffer and the kernel's tile.
  void read_part(const Rect& layout, const Rect& part, std::byte* out) const;
  void write_part(const Rect& layout, const Rect& part, const std::byte* in);
  // Adds `in` (laid out as `rect`, inside the buffer) to the elements of `rect`, in the
  // element type's own arithmetic (a DMA that adds; not for bool).
  void accumulate(const Rect& rect, const std::byte* in);

  template <class T>
  T* data() {
    return reinterpret_cast<T*>(raw());
  }
  template <class T>
  const T* data() const {
    return reinterpret_cast<const T*>(raw());
  }

  // The element value a fresh buffer is filled with, as raw bytes of this buffer's type.
  static void fill_uninitialized(ElementType type, Uninitialized fill, std::byte* out, std::int64_t count);

  int ref_count = 1;   // shared buffers: how many cores hold it
  int serial = 0;      // creation order within the execution (an index for per-buffer state)
  bool freed = false;  // its scope ended: nothing may touch it, its storage is gone

  // At the end of its scope: its bytes go back to the host (nothing reads them again).
  void release_storage() { storage_.reset(); }

 private:
  std::byte* raw() { return storage_.get(); }
  const std::byte* raw() const { return storage_.get(); }

  BufferInfo info_;
  Uninitialized fill_;
  std::int64_t element_bytes_;
  std::unique_ptr<std::byte[]> storage_;  // aligned for every element type (operator new[])
};

}  // namespace weft::model
