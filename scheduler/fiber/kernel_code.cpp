#include "scheduler/fiber/kernel_code.hpp"

#include <link.h>

#include <array>
#include <atomic>
#include <mutex>
#include <vector>

namespace weft::scheduler::rescue {
namespace {

struct Range {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};  // 0: a free entry (an empty range, whatever begin holds)
  int holders = 0;                     // KernelCode objects holding it (under the mutex)
};

struct Table {
  std::mutex writing;
  std::array<Range, 32> ranges;
};

// Constant-initialized (no guard), so the handler may be the first to read it.
Table& table() {
  constinit static Table instance;
  return instance;
}

struct Segment {
  std::uintptr_t begin;
  std::uintptr_t end;
};

// The executable segments of the loaded object that holds `address`.
std::vector<Segment> code_segments_of(const void* address) {
  struct Search {
    std::uintptr_t address;
    std::vector<Segment> segments;
  } wanted{reinterpret_cast<std::uintptr_t>(address), {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto& search = *static_cast<Search*>(data);
        std::vector<Segment> segments;
        bool holds = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& header = info->dlpi_phdr[i];
          if (header.p_type != PT_LOAD) continue;
          const std::uintptr_t begin = info->dlpi_addr + header.p_vaddr, end = begin + header.p_memsz;
          holds = holds || (search.address >= begin && search.address < end);
          if ((header.p_flags & PF_X) != 0) segments.push_back({begin, end});
        }
        if (!holds) return 0;
        search.segments = std::move(segments);
        return 1;
      },
      &wanted);
  return wanted.segments;
}

}  // namespace

KernelCode::KernelCode(const void* address) : address_(address) {
  Table& all = table();
  const std::lock_guard lock(all.writing);
  for (const Segment& segment : code_segments_of(address)) {
    Range* free = nullptr;
    Range* same = nullptr;
    for (Range& range : all.ranges) {
      if (range.holders > 0 && range.begin.load() == segment.begin) same = &range;
      if (range.holders == 0 && free == nullptr) free = &range;
    }
    if (same != nullptr) {
      ++same->holders;
    } else if (free != nullptr) {
      free->begin.store(segment.begin);  // before the end: the range stays empty until complete
      free->end.store(segment.end);
      free->holders = 1;
    }
  }
}

KernelCode::~KernelCode() {
  if (address_ == nullptr) return;
  Table& all = table();
  const std::lock_guard lock(all.writing);
  for (const Segment& segment : code_segments_of(address_))
    for (Range& range : all.ranges)
      if (range.holders > 0 && range.begin.load() == segment.begin && --range.holders == 0) range.end.store(0);
}

__attribute__((no_sanitize("address"))) bool in_kernel_code(std::uintptr_t pc) noexcept {
  for (const Range& range : table().ranges) {
    const std::uintptr_t begin = range.begin.load();
    if (pc >= begin && pc < range.end.load()) return true;
  }
  return false;
}

}  // namespace weft::scheduler::rescue
