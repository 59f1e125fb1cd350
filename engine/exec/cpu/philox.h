// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011), the counter-based
// generator TensorFlow's random kernels use: a 64-bit key and a 128-bit counter give four 32-bit words per counter
// value, so a generator costs nothing to create (std::mt19937_64 fills 2.5 KB of state) and any stretch of the
// stream can be computed independently.
#pragma once

#include <array>
#include <cstdint>

namespace flowscope {

class Philox {
 public:
  using Block = std::array<uint32_t, 4>;

  /// TensorFlow's PhiloxRandom(seed, seed2): the key from the first, the counter's upper half from the second.
  Philox(uint64_t seed, uint64_t seed2)
      : m_key{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)},
        m_counter{0, 0, static_cast<uint32_t>(seed2), static_cast<uint32_t>(seed2 >> 32)} {}

  /// The next four words of the stream.
  Block next() {
    Block counter = m_counter;
    std::array<uint32_t, 2> key = m_key;
    for (int round = 0; round < 10; ++round) {
      if (round > 0) key = {key[0] + kWeyl0, key[1] + kWeyl1};
      counter = singleRound(counter, key);
    }
    advance();
    return counter;
  }

 private:
  static constexpr uint32_t kMultiplier0 = 0xD2511F53, kMultiplier1 = 0xCD9E8D57;
  static constexpr uint32_t kWeyl0 = 0x9E3779B9, kWeyl1 = 0xBB67AE85;

  static Block singleRound(const Block& c, const std::array<uint32_t, 2>& key) {
    const uint64_t p0 = uint64_t{kMultiplier0} * c[0], p1 = uint64_t{kMultiplier1} * c[2];
    return {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ key[0], static_cast<uint32_t>(p1),
            static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ key[1], static_cast<uint32_t>(p0)};
  }

  void advance() {
    for (uint32_t& word : m_counter)
      if (++word != 0) break;
  }

  std::array<uint32_t, 2> m_key;
  Block m_counter;
};

/// A uniform float in [0, 1) from 23 random bits, as TensorFlow makes it (1.xxx in binary, minus 1).
inline float uniformFloat(uint32_t bits) {
  const uint32_t one = 0x3f800000u | (bits & 0x7fffffu);
  float value;
  static_assert(sizeof value == sizeof one);
  __builtin_memcpy(&value, &one, sizeof value);
  return value - 1.0f;
}

/// A uniform double in [0, 1) from 52 random bits.
inline double uniformDouble(uint32_t high, uint32_t low) {
  const uint64_t one = 0x3ff0000000000000ull | ((uint64_t{high} & 0xfffffu) << 32) | low;
  double value;
  __builtin_memcpy(&value, &one, sizeof value);
  return value - 1.0;
}

}  // namespace flowscope
