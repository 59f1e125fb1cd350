// Integer arithmetic that wraps modulo 2^bits where it overflows, as TensorFlow's and ONNX Runtime's integer kernels
// do on every machine we run on. In C++ a signed overflow is undefined behaviour (and arithmetic on types narrower
// than int is promoted to int, where uint16 * uint16 can overflow too), so integer sums and products are taken in an
// unsigned type and converted back, which C++20 defines as modular. Float types pass through unchanged; for the types
// where nothing can overflow the compiler emits the same instructions as for the plain operators.
#pragma once

#include <limits>
#include <type_traits>

namespace flowscope {

namespace wrapping_detail {

template <typename T, bool = std::is_integral_v<T> && !std::is_same_v<T, bool>>
struct UnsignedOf {
  using type = T;
};
template <typename T>
struct UnsignedOf<T, true> {
  using type = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
};

}  // namespace wrapping_detail

/// The type T's sums and products are taken in: unsigned (at least unsigned int) for integers, T for the rest.
template <typename T>
using WrappingType = typename wrapping_detail::UnsignedOf<T>::type;

template <typename T>
constexpr T wrappingAdd(T a, T b) {
  return static_cast<T>(static_cast<WrappingType<T>>(a) + static_cast<WrappingType<T>>(b));
}

template <typename T>
constexpr T wrappingSub(T a, T b) {
  return static_cast<T>(static_cast<WrappingType<T>>(a) - static_cast<WrappingType<T>>(b));
}

template <typename T>
constexpr T wrappingMul(T a, T b) {
  return static_cast<T>(static_cast<WrappingType<T>>(a) * static_cast<WrappingType<T>>(b));
}

/// -a; for floats -a itself (so that -0.0 keeps its sign), for integers 0 - a wrapped (-INT_MIN is INT_MIN).
template <typename T>
constexpr T wrappingNeg(T a) {
  if constexpr (std::is_integral_v<T>)
    return wrappingSub(T(0), a);
  else
    return static_cast<T>(-a);
}

/// True when a / b overflows: the most negative signed integer divided by -1 (x86's idiv traps on it). The caller
/// has refused b == 0 already.
template <typename T>
constexpr bool divisionOverflows(T a, T b) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
    return b == T(-1) && a == std::numeric_limits<T>::min();
  else
    return false;
}

}  // namespace flowscope
