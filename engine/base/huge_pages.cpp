#include "base/huge_pages.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <utility>

namespace flowscope {

namespace {

constexpr size_t kRegionBytes = 16 * kHugePageBytes;
constexpr size_t kPackedAlignment = 64;

size_t roundUp(size_t bytes, size_t unit) { return (bytes + unit - 1) / unit * unit; }

// The regions PackedBytes come from: a bump pointer in the newest, a count of live buffers in each.
class PackedArena {
 public:
  void* take(size_t bytes) {
    bytes = roundUp(bytes, kPackedAlignment);
    std::lock_guard lock(m_mutex);
    if (bytes > kRegionBytes / 4) return newRegion(roundUp(bytes, kHugePageBytes), bytes);
    if (m_current == m_regions.end() || m_current->second.used + bytes > m_current->second.size) {
      // The full region stays while it has live buffers (an empty one was filled again from its start, not here).
      void* p = newRegion(kRegionBytes, bytes);
      m_current = m_regions.find(static_cast<std::byte*>(p));
      return p;
    }
    Region& region = m_current->second;
    void* p = m_current->first + region.used;
    region.used += bytes;
    ++region.live;
    return p;
  }

  void give(void* p) {
    std::lock_guard lock(m_mutex);
    auto it = std::prev(m_regions.upper_bound(static_cast<std::byte*>(p)));
    if (--it->second.live > 0) return;
    if (it == m_current)
      it->second.used = 0;  // filled again from its start
    else
      release(it);
  }

 private:
  struct Region {
    size_t size = 0, used = 0, live = 0;
  };
  using Regions = std::map<std::byte*, Region>;

  // A region of `size` bytes whose first `bytes` are taken.
  void* newRegion(size_t size, size_t bytes) {
    auto* base = static_cast<std::byte*>(allocateHugePageAligned(size));
    if (!base) throw std::bad_alloc();
    m_regions.emplace(base, Region{size, bytes, 1});
    return base;
  }

  void release(Regions::iterator it) {
    std::free(it->first);
    m_regions.erase(it);
  }

  std::mutex m_mutex;
  Regions m_regions;
  Regions::iterator m_current = m_regions.end();  // the region being filled (map iterators outlive other inserts)
};

PackedArena& packedArena() {
  static PackedArena* arena = new PackedArena;  // never destroyed: kernels held by statics outlive exit's destructors
  return *arena;
}

}  // namespace

void adviseHugePages(void* p, size_t bytes) {
  const auto begin = roundUp(reinterpret_cast<uintptr_t>(p), kHugePageBytes);
  const auto end = (reinterpret_cast<uintptr_t>(p) + bytes) / kHugePageBytes * kHugePageBytes;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // advice: failure is fine
}

void* allocateHugePageAligned(size_t bytes) {
  void* p = nullptr;
  if (posix_memalign(&p, kHugePageBytes, std::max<size_t>(bytes, 1)) != 0) return nullptr;
  adviseHugePages(p, bytes);
  return p;
}

PackedBytes::PackedBytes(size_t bytes) : m_data(packedArena().take(bytes)), m_size(bytes) {}

PackedBytes::PackedBytes(PackedBytes&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)) {}

PackedBytes& PackedBytes::operator=(PackedBytes&& other) noexcept {
  if (this != &other) {
    if (m_data) packedArena().give(m_data);
    m_data = std::exchange(other.m_data, nullptr);
    m_size = std::exchange(other.m_size, 0);
  }
  return *this;
}

PackedBytes::~PackedBytes() {
  if (m_data) packedArena().give(m_data);
}

}  // namespace flowscope
