// Random values from a Philox stream, drawn as TensorFlow's random kernels draw them: uniform in [0, 1), standard
// normal (Box-Muller pairs) and normal truncated to two standard deviations. TensorFlow's and ONNX's random ops share
// them.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "exec/cpu/philox.h"
#include "exec/kernel.h"

namespace flowscope {

enum class RandomKind { kUniform, kNormal, kTruncatedNormal };

/// The shape of a random op's output: an error for a negative dim or one past kMaxComputedBytes.
Expected<Shape> randomShape(const std::vector<int64_t>& dims, DType dtype);

/// The stream of an op without a seed: a key from the run's generator (a per-thread one in plain eager calls).
Philox unseededGenerator(KernelContext& ctx);

/// Standard normal pairs by Box-Muller from two uniform words (u1 kept away from 0, as TensorFlow does).
template <typename T>
std::array<T, 2> normalPair(uint32_t a, uint32_t b) {
  constexpr T kEpsilon = T(1.0e-7), kTwoPi = T(6.283185307179586);
  const T u1 = std::max(static_cast<T>(uniformFloat(a)), kEpsilon), v = kTwoPi * static_cast<T>(uniformFloat(b));
  const T radius = std::sqrt(T(-2) * std::log(u1));
  return {std::sin(v) * radius, std::cos(v) * radius};
}

/// Fills `n` values of `Kind`, four words of Philox at a time.
template <RandomKind Kind, typename T>
void fillRandom(Philox& gen, T* out, int64_t n) {
  int64_t i = 0;
  while (i < n) {
    const Philox::Block words = gen.next();
    if constexpr (Kind == RandomKind::kUniform) {
      for (int k = 0; k < 4 && i < n; ++k) out[i++] = static_cast<T>(uniformFloat(words[static_cast<size_t>(k)]));
    } else {
      for (int k = 0; k < 4 && i < n; k += 2)
        for (T v : normalPair<T>(words[static_cast<size_t>(k)], words[static_cast<size_t>(k) + 1]))
          if (i < n && (Kind == RandomKind::kNormal || std::fabs(v) <= T(2))) out[i++] = v;
    }
  }
}

}  // namespace flowscope
