// Memory the kernel may back with 2 MiB pages (transparent huge pages, asked for with madvise where the system
// leaves them to the program, as Debian's and Ubuntu's defaults do). A model's packed weights and activations take
// one TLB entry per 4 KiB page otherwise: MobileNetV2's 14 MB of weights alone are 3,400 pages, more than the
// second-level TLB holds, so every run walks the page tables again for each of them.
#pragma once

#include <cstddef>

namespace flowscope {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

/// madvise(MADV_HUGEPAGE) over the whole 2 MiB pages inside [p, p + bytes); nothing where there are none.
void adviseHugePages(void* p, size_t bytes);

/// `bytes` on a 2 MiB boundary, its whole 2 MiB pages advised for huge pages (a tail shorter than one stays in small
/// pages: no memory is taken that the caller does not use); free with std::free. Null when the allocation fails.
void* allocateHugePageAligned(size_t bytes);

/// Long-lived bytes (a kernel's packed weights), 64-byte aligned, packed with others into 32 MiB regions advised for
/// huge pages, so that a model's many small weight buffers share a few pages. A region goes back to the system when
/// the last of its buffers does (the region being filled is filled again from its start); one larger than a quarter
/// region has a region of its own. Thread-safe.
class PackedBytes {
 public:
  PackedBytes() = default;
  explicit PackedBytes(size_t bytes);  ///< throws std::bad_alloc
  PackedBytes(PackedBytes&& other) noexcept;
  PackedBytes& operator=(PackedBytes&& other) noexcept;
  PackedBytes(const PackedBytes&) = delete;
  PackedBytes& operator=(const PackedBytes&) = delete;
  ~PackedBytes();

  void* data() const { return m_data; }
  size_t size() const { return m_size; }

 private:
  void* m_data = nullptr;
  size_t m_size = 0;
};

}  // namespace flowscope
