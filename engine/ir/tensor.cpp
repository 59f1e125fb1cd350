// Tensor storage, previews and half-precision conversions.
#include "ir/tensor.h"
#include "ir/buffer_pool.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "base/huge_pages.h"
#include "base/settings.h"
#include "base/strings.h"

namespace flowscope {

namespace {

// Buffers are recycled through per-thread free lists by power-of-two size class, so the many small tensors of eager
// execution cost a list pop instead of aligned_alloc + free, and a graph run's activations (up to 64 MiB each)
// reuse the pages of the previous run instead of faulting in fresh ones every time.
class BufferPool {
 public:
  static constexpr int kMinShift = 6;                                  // 64 bytes
  static constexpr int kMaxShift = 26;                                 // 64 MiB
  static constexpr size_t kMaxCachedSmall = 32, kMaxCachedLarge = 16;  // per class, below and above 1 MiB
  static constexpr size_t kMaxCachedBytes = size_t{512} << 20;         // per thread
  // From 64 KiB on, a buffer of up to 4x the size, up to 2 MiB (a core's L2 at most: no larger buffer is warm), may
  // be taken.
  static constexpr int kWarmShift = 16, kReach = 2, kMaxWarmShift = 21;

  static int sizeClass(size_t bytes) {
    int shift = kMinShift;
    while ((size_t{1} << shift) < bytes) ++shift;
    return shift <= kMaxShift ? shift - kMinShift : -1;
  }

  // The most recently freed buffer of class `cls` or, from kWarmShift on, of up to kReach classes above it:
  // an activation written into lines still in cache skips reading them from memory first (at a stage change of a
  // CNN, the class of its new activation size holds only the previous run's buffers, long evicted). Sets `*taken`
  // to the class the buffer came from; null when every list is empty.
  void* take(int cls, int* taken) {
    static const bool warm = settingOn("FLOWSCOPE_WARM_BUFFERS");
    const int last =
        cls + kMinShift >= kWarmShift && warm ? std::max(cls, std::min(cls + kReach, kMaxWarmShift - kMinShift)) : cls;
    int best = -1;
    for (int c = cls; c <= last; ++c) {
      const auto& list = m_free[static_cast<size_t>(c)];
      if (!list.empty() && (best < 0 || list.back().freedAt > m_free[static_cast<size_t>(best)].back().freedAt))
        best = c;
    }
    if (best < 0) return nullptr;
    auto& list = m_free[static_cast<size_t>(best)];
    void* p = list.back().data;
    list.pop_back();
    m_cachedBytes -= size_t{1} << (best + kMinShift);
    *taken = best;
    return p;
  }
  bool give(int cls, void* p) {
    auto& list = m_free[static_cast<size_t>(cls)];
    const size_t bytes = size_t{1} << (cls + kMinShift);
    if (list.size() >= (cls + kMinShift <= 20 ? kMaxCachedSmall : kMaxCachedLarge) ||
        m_cachedBytes + bytes > kMaxCachedBytes)
      return false;
    list.push_back({p, ++m_clock});
    m_cachedBytes += bytes;
    return true;
  }
  size_t release() {
    for (auto& list : m_free) {
      for (const Entry& e : list) std::free(e.data);
      list.clear();
    }
    return std::exchange(m_cachedBytes, size_t{0});
  }
  ~BufferPool();

 private:
  struct Entry {
    void* data;
    uint64_t freedAt;  // m_clock when it was given back
  };
  std::vector<Entry> m_free[kMaxShift - kMinShift + 1];
  size_t m_cachedBytes = 0;
  uint64_t m_clock = 0;
};

thread_local BufferPool t_pool;
thread_local bool t_poolGone = false;  // trivially destructible: still readable after t_pool is destroyed

BufferPool::~BufferPool() {
  t_poolGone = true;  // tensors released later on this thread (static destructors) go straight to free()
  release();
}

// Bytes to the 64-byte multiple of `bytes` (at least 64), aligned for every kernel; from 2 MiB on, in huge pages.
std::byte* allocateExactBytes(size_t bytes) {
  size_t rounded = std::max<size_t>((bytes + kTensorAlignment - 1) / kTensorAlignment, 1) * kTensorAlignment;
  void* p =
      rounded >= kHugePageBytes ? allocateHugePageAligned(rounded) : std::aligned_alloc(kTensorAlignment, rounded);
  if (!p) throw std::bad_alloc();
  return static_cast<std::byte*>(p);
}

// Bytes from this thread's pool, at least the power-of-two class of `bytes` (`*cls`: the class taken, -1 for exact
// bytes above the largest class).
std::byte* allocateBytes(size_t bytes, int* cls) {
  *cls = BufferPool::sizeClass(bytes);
  if (*cls < 0) return allocateExactBytes(bytes);
  if (void* p = t_poolGone ? nullptr : t_pool.take(*cls, cls)) return static_cast<std::byte*>(p);
  return allocateExactBytes(size_t{1} << (*cls + BufferPool::kMinShift));
}

void releaseBytes(std::byte* p, int cls) {
  if (cls < 0 || t_poolGone || !t_pool.give(cls, p)) std::free(p);
}

// An allocator for the shared_ptr blocks that hold TensorBuffers: from the same per-thread pool, so a tensor costs no
// malloc at all once the pool is warm (a graph of 100 small nodes otherwise spends a third of its time in malloc).
template <typename T>
struct PooledAllocator {
  using value_type = T;
  PooledAllocator() = default;
  template <typename U>
  explicit PooledAllocator(const PooledAllocator<U>&) {}
  // Blocks below the warm classes: the pool gives them the class of their bytes, the one deallocate gives back to.
  static_assert(sizeof(T) < size_t{1} << BufferPool::kWarmShift);
  T* allocate(size_t n) {
    int cls = 0;
    return reinterpret_cast<T*>(allocateBytes(n * sizeof(T), &cls));
  }
  void deallocate(T* p, size_t n) {
    releaseBytes(reinterpret_cast<std::byte*>(p), BufferPool::sizeClass(n * sizeof(T)));
  }
  template <typename U>
  bool operator==(const PooledAllocator<U>&) const {
    return true;
  }
};

template <typename... Args>
std::shared_ptr<TensorBuffer> makeBuffer(Args&&... args) {
  return std::allocate_shared<TensorBuffer>(PooledAllocator<TensorBuffer>{}, std::forward<Args>(args)...);
}

}  // namespace

size_t releaseCachedTensorBuffers() { return t_poolGone ? 0 : t_pool.release(); }

TensorBuffer::TensorBuffer(size_t bytes, bool zero, Sizing sizing) : m_size(bytes) {
  m_data = sizing == Sizing::kPooled ? allocateBytes(bytes, &m_poolClass) : allocateExactBytes(bytes);
  if (zero) std::memset(m_data, 0, bytes);
}

TensorBuffer::~TensorBuffer() {
  if (m_data) releaseBytes(m_data, m_poolClass);  // class -1 (exact bytes): straight to free()
}

Tensor::Tensor(DType dtype, Shape shape) : m_dtype(dtype), m_shape(std::move(shape)) {
  int64_t count = m_shape.numElements();
  if (count < 0) count = 0;
  if (isStringLike()) {
    m_buffer = makeBuffer(std::vector<std::string>(static_cast<size_t>(count)));
  } else {
    m_buffer = makeBuffer(static_cast<size_t>(count) * static_cast<size_t>(dtypeSize(dtype)));
  }
}

Tensor Tensor::uninitialized(DType dtype, Shape shape) {
  Tensor t;
  t.m_dtype = dtype;
  t.m_shape = std::move(shape);
  int64_t count = std::max<int64_t>(t.m_shape.numElements(), 0);
  if (t.isStringLike())
    t.m_buffer = makeBuffer(std::vector<std::string>(static_cast<size_t>(count)));
  else
    t.m_buffer = makeBuffer(static_cast<size_t>(count) * static_cast<size_t>(dtypeSize(dtype)), false);
  return t;
}

Tensor Tensor::persistent(DType dtype, Shape shape, bool zero) {
  Tensor t;
  t.m_dtype = dtype;
  t.m_shape = std::move(shape);
  const auto count = static_cast<size_t>(std::max<int64_t>(t.m_shape.numElements(), 0));
  if (t.isStringLike())
    t.m_buffer = std::make_shared<TensorBuffer>(std::vector<std::string>(count));
  else
    t.m_buffer = std::make_shared<TensorBuffer>(count * static_cast<size_t>(dtypeSize(dtype)), zero,
                                                TensorBuffer::Sizing::kExact);
  return t;
}

Tensor Tensor::fromStrings(Shape shape, std::vector<std::string> strings, DType dtype) {
  Tensor t;
  t.m_dtype = dtype;
  t.m_shape = std::move(shape);
  t.m_buffer = makeBuffer(std::move(strings));
  return t;
}

Expected<size_t> Tensor::checkedByteSize(DType dtype, const Shape& shape, size_t limit) {
  if (!shape.isFullyDefined()) return invalidArgument("tensor shape " + shape.toString() + " is not fully defined");
  int64_t count = shape.numElements();
  if (count < 0) return outOfRange("tensor shape " + shape.toString() + " has more elements than int64 can count");
  int size = dtypeSize(dtype);
  bool stringLike = dtype == DType::kString || dtype == DType::kResource || dtype == DType::kVariant;
  if (size == 0 && !stringLike)
    return unimplemented(std::string("dtype ") + std::string(dtypeName(dtype)) + " has no dense byte layout");
  // Strings still cost at least a std::string each, so count them too.
  size_t elementCost = stringLike ? sizeof(std::string) : static_cast<size_t>(size);
  if (static_cast<uint64_t>(count) > limit / elementCost)
    return outOfRange("tensor of shape " + shape.toString() + " and dtype " + std::string(dtypeName(dtype)) +
                      " would need " + formatBytes(static_cast<uint64_t>(count) * elementCost) + ", more than the " +
                      formatBytes(limit) + " allowed");
  return static_cast<size_t>(count) * elementCost;
}

bool Tensor::isStringLike() const {
  return m_dtype == DType::kString || m_dtype == DType::kResource || m_dtype == DType::kVariant;
}

Tensor Tensor::clone() const {
  if (!m_buffer) return {};
  if (isStringLike()) return fromStrings(m_shape, m_buffer->strings(), m_dtype);
  Tensor copy(m_dtype, m_shape);
  std::memcpy(copy.m_buffer->data(), m_buffer->data(), m_buffer->size());
  return copy;
}

Tensor Tensor::reshaped(Shape shape) const {
  Tensor view = *this;
  view.m_shape = std::move(shape);
  return view;
}

double Tensor::elementAsDouble(int64_t i) const {
  switch (m_dtype) {
    case DType::kFloat:
      return data<float>()[i];
    case DType::kDouble:
      return data<double>()[i];
    case DType::kInt32:
    case DType::kQInt32:
      return data<int32_t>()[i];
    case DType::kInt64:
      return static_cast<double>(data<int64_t>()[i]);
    case DType::kUInt8:
    case DType::kQUInt8:
      return data<uint8_t>()[i];
    case DType::kInt8:
    case DType::kQInt8:
      return data<int8_t>()[i];
    case DType::kInt16:
    case DType::kQInt16:
      return data<int16_t>()[i];
    case DType::kUInt16:
    case DType::kQUInt16:
      return data<uint16_t>()[i];
    case DType::kUInt32:
      return data<uint32_t>()[i];
    case DType::kUInt64:
      return static_cast<double>(data<uint64_t>()[i]);
    case DType::kBool:
      return data<uint8_t>()[i] ? 1.0 : 0.0;
    case DType::kHalf:
      return halfToFloat(data<uint16_t>()[i]);
    case DType::kBFloat16:
      return bfloat16ToFloat(data<uint16_t>()[i]);
    default:
      return 0.0;
  }
}

std::string Tensor::preview(int limit) const {
  if (!m_buffer) return "<empty>";
  int64_t count = numElements();
  std::string out = "[";
  for (int64_t i = 0; i < count && i < limit; ++i) {
    if (i) out += ", ";
    if (isStringLike()) {
      const std::string& s = strings()[static_cast<size_t>(i)];
      out += "\"" + cEscape(s.size() > 32 ? s.substr(0, 32) + "..." : s) + "\"";
    } else if (m_dtype == DType::kBool) {
      out += elementAsDouble(i) != 0 ? "true" : "false";
    } else if (isComplex(m_dtype)) {
      out += "complex";
    } else {
      out += formatFloat(elementAsDouble(i));
    }
  }
  if (count > limit) out += ", ...";
  return out + "]";
}

bool Tensor::contentEquals(const Tensor& other) const {
  if (m_dtype != other.m_dtype || m_shape != other.m_shape) return false;
  if (!m_buffer || !other.m_buffer) return m_buffer == other.m_buffer;
  if (isStringLike()) return strings() == other.strings();
  return m_buffer->size() == other.m_buffer->size() &&
         std::memcmp(m_buffer->data(), other.m_buffer->data(), m_buffer->size()) == 0;
}

float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exponent = 127 - 15 + 1;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        --exponent;
      }
      mantissa &= 0x3ff;
      bits = sign | (exponent << 23) | (mantissa << 13);
    }
  } else if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffff;
  if (((bits >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  if (exponent >= 0x1f) return static_cast<uint16_t>(sign | 0x7c00);
  if (exponent <= 0) {
    if (exponent < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - exponent);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // round to nearest even; may carry into exponent
  return static_cast<uint16_t>(half);
}

float bfloat16ToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float out;
  std::memcpy(&out, &wide, sizeof out);
  return out;
}

bool tensorIsTrue(const Tensor& t) {
  if (t.numElements() != 1 || t.shape().rank() > 0) return t.numElements() > 0;
  if (t.isStringLike()) return !t.strings()[0].empty();
  return t.elementAsDouble(0) != 0;
}

}  // namespace flowscope
