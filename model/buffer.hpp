#pragma once
// A typed buffer with real contents (Eigen storage) in one memory space of one device (and, for
// per-core spaces, one core). Elements are row-major; loads and stores copy rectangles.

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include <Eigen/Core>

#include "model/failure.hpp"
#include "model/machine_spec.hpp"
#include "model/rect.hpp"

namespace weft::model {

enum class Space { hbm, vmem, smem, vmem_shared };
enum class ElementType { f32, i32 };

std::string_view to_string(Space space);
std::string_view to_string(ElementType type);
inline constexpr std::int64_t element_bytes = 4;  // f32 and i32

template <class T>
constexpr ElementType element_type_of();
template <>
constexpr ElementType element_type_of<float>() { return ElementType::f32; }
template <>
constexpr ElementType element_type_of<std::int32_t>() { return ElementType::i32; }

// Per-core spaces have one instance per core; the others one per device.
inline bool is_per_core(Space space) { return space == Space::vmem || space == Space::smem; }

struct BufferInfo {
  int id = 0;
  Space space = Space::hbm;
  int device = 0;
  int core = -1;  // owning core for per-core spaces, -1 for shared ones
  ElementType type = ElementType::f32;
  Shape shape;
  std::string name;  // a host buffer's name, or the name a kernel gave its allocation
  SourceLine site;   // where the kernel allocated it (line 0 for host buffers)
};

// "hbm buffer 3 'x' f32[8, 128] on device 1", "vmem buffer 100 'ring.cpp:21' f32[2, 8, 128] on
// device 5 core 0" (an unnamed allocation is called by its site: model/naming.hpp).
std::string describe(const BufferInfo& info);

class Buffer {
 public:
  Buffer(BufferInfo info, Uninitialized fill);

  const BufferInfo& info() const { return info_; }
  std::int64_t bytes() const { return info_.shape.volume() * element_bytes; }

  // Copies `rect` (row-major, rect.volume() elements) out of / into the buffer. For `read`, the
  // parts of `rect` outside the buffer are filled with the uninitialized value; `write` requires
  // `rect` to be inside the buffer.
  void read(const Rect& rect, std::byte* out) const;
  void write(const Rect& rect, const std::byte* in);

  template <class T>
  T* data() { return reinterpret_cast<T*>(raw()); }
  template <class T>
  const T* data() const { return reinterpret_cast<const T*>(raw()); }

  // The element value a fresh buffer is filled with, as raw bytes of this buffer's type.
  static void fill_uninitialized(ElementType type, Uninitialized fill, std::byte* out, std::int64_t count);

  int ref_count = 1;  // shared buffers: how many cores hold it
  int serial = 0;     // creation order within the execution (an index for per-buffer state)

 private:
  std::byte* raw();
  const std::byte* raw() const;

  BufferInfo info_;
  Uninitialized fill_;
  std::variant<Eigen::ArrayXf, Eigen::ArrayXi> storage_;
};

}  // namespace weft::model
