// A 64-byte aligned buffer that only grows: a thread's scratch space, kept from one call to the next (oneDNN's
// scratchpad, the banded kernels' rows).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>

namespace flowscope {

class GrowingBuffer {
 public:
  /// At least `bytes`, on a cache line; the contents are kept only while it does not grow.
  std::byte* atLeast(size_t bytes);

 private:
  struct Free {
    void operator()(std::byte* p) const { std::free(p); }
  };
  std::unique_ptr<std::byte, Free> m_data;
  size_t m_size = 0;
};

}  // namespace flowscope
