// Tensor: a dtype, a fully defined shape and a shared, 64-byte aligned buffer (strings live in their own storage).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/dtype.h"
#include "ir/shape.h"

namespace flowscope {

/// Alignment of every numeric tensor buffer; enough for AVX-512 loads and oneDNN.
constexpr size_t kTensorAlignment = 64;

/// Owns either aligned raw bytes (numeric types) or a vector of byte strings (DT_STRING, resource, variant).
class TensorBuffer {
 public:
  /// How the bytes are sized: from the per-thread pool's power-of-two classes (values of a run, recycled), or to
  /// the 64-byte multiple of their size (values as long-lived as a graph, where the classes would waste up to half).
  enum class Sizing { kPooled, kExact };
  /// `zero` fills the bytes with zeros; kernels that overwrite every element pass false.
  explicit TensorBuffer(size_t bytes, bool zero = true, Sizing sizing = Sizing::kPooled);
  explicit TensorBuffer(std::vector<std::string> strings) : m_strings(std::move(strings)) {}
  ~TensorBuffer();
  TensorBuffer(const TensorBuffer&) = delete;
  TensorBuffer& operator=(const TensorBuffer&) = delete;

  std::byte* data() { return m_data; }
  const std::byte* data() const { return m_data; }
  size_t size() const { return m_size; }
  std::vector<std::string>& strings() { return m_strings; }
  const std::vector<std::string>& strings() const { return m_strings; }

 private:
  std::byte* m_data = nullptr;
  size_t m_size = 0;
  int m_poolClass = -1;  // the pool's size class of the bytes held (may be above m_size's); -1: exact, not pooled
  std::vector<std::string> m_strings;
};

/// A value. Copies share the buffer (like tf.Tensor); use clone() for a deep copy.
class Tensor {
 public:
  Tensor() = default;
  /// Zero-filled tensor; callers check sizes first (see checkedByteSize) so this never sees absurd shapes.
  Tensor(DType dtype, Shape shape);
  /// Same, without zeroing: for outputs a kernel writes completely. Buffers come from a per-thread pool.
  static Tensor uninitialized(DType dtype, Shape shape);
  /// For values that live as long as a graph (constants and weights read from files): sized to the 64-byte
  /// multiple of their bytes, outside the pool, zero-filled unless `zero` is false.
  static Tensor persistent(DType dtype, Shape shape, bool zero = true);
  static Tensor fromStrings(Shape shape, std::vector<std::string> strings, DType dtype = DType::kString);
  /// Bytes a dense tensor of this dtype and shape needs; an error when the shape is not fully defined,
  /// the type has no fixed size, or the size exceeds `limit`.
  static Expected<size_t> checkedByteSize(DType dtype, const Shape& shape, size_t limit);

  template <typename T>
  static Tensor scalar(DType dtype, T value) {
    Tensor t(dtype, Shape{});
    *t.data<T>() = value;
    return t;
  }

  bool isValid() const { return m_buffer != nullptr; }
  /// No other Tensor shares this one's buffer: a kernel holding the last reference may write its output into it.
  bool ownsBufferAlone() const { return m_buffer && m_buffer.use_count() == 1; }
  DType dtype() const { return m_dtype; }
  const Shape& shape() const { return m_shape; }
  int64_t numElements() const { return m_shape.numElements(); }
  size_t byteSize() const { return m_buffer ? m_buffer->size() : 0; }
  bool isStringLike() const;

  template <typename T>
  T* data() {
    return reinterpret_cast<T*>(m_buffer->data());
  }
  template <typename T>
  const T* data() const {
    return reinterpret_cast<const T*>(m_buffer->data());
  }
  std::span<const std::byte> bytes() const { return {m_buffer->data(), m_buffer->size()}; }
  std::span<std::byte> mutableBytes() { return {m_buffer->data(), m_buffer->size()}; }
  const std::vector<std::string>& strings() const { return m_buffer->strings(); }
  std::vector<std::string>& mutableStrings() { return m_buffer->strings(); }

  Tensor clone() const;
  /// Same buffer, new shape with the same element count.
  Tensor reshaped(Shape shape) const;
  /// Element i converted to double (numeric types only); for previews and tests.
  double elementAsDouble(int64_t index) const;
  /// Short preview such as "[0.5, 2, 3, ...]" with at most `limit` elements.
  std::string preview(int limit = 8) const;
  /// Deep equality of dtype, shape and content.
  bool contentEquals(const Tensor& other) const;

 private:
  DType m_dtype = DType::kInvalid;
  Shape m_shape;
  std::shared_ptr<TensorBuffer> m_buffer;
};

/// TensorFlow's truth of a condition tensor: bools as is, other scalars when non-zero (strings when non-empty),
/// non-scalars when non-empty.
bool tensorIsTrue(const Tensor& t);

/// IEEE half and bfloat16 conversions (storage types).
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
float bfloat16ToFloat(uint16_t bits);

}  // namespace flowscope
