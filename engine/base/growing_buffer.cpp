#include "base/growing_buffer.h"

#include <new>

namespace flowscope {

namespace {
constexpr size_t kAlignment = 64;  // a cache line: vector loads and stores that cross none
}  // namespace

std::byte* GrowingBuffer::atLeast(size_t bytes) {
  if (bytes > m_size) {
    const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    m_data.reset(static_cast<std::byte*>(std::aligned_alloc(kAlignment, rounded)));
    if (!m_data) {
      m_size = 0;
      throw std::bad_alloc();
    }
    m_size = rounded;
  }
  return m_data.get();
}

}  // namespace flowscope
