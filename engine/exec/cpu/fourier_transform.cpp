// FourierTransform (fourier_transform.h).
#include "exec/cpu/fourier_transform.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace flowscope {
namespace {

// Mixed radix stays O(n * sum of factors); a prime factor above this makes Bluestein's three padded transforms
// cheaper.
constexpr int64_t kLargestRadix = 64;

int64_t smallestFactor(int64_t n) {
  for (int64_t p = 2; p * p <= n; ++p)
    if (n % p == 0) return p;
  return n;
}

int64_t largestPrimeFactor(int64_t n) {
  int64_t largest = 1;
  while (n > 1) {
    const int64_t p = smallestFactor(n);
    largest = std::max(largest, p);
    n /= p;
  }
  return largest;
}

// exp(sign * pi i * numerator / denominator), the numerator reduced first so large k^2 keep their precision.
Complex rootOfUnity(double sign, int64_t numerator, int64_t denominator) {
  const double angle =
      sign * std::numbers::pi * static_cast<double>(numerator % (2 * denominator)) / static_cast<double>(denominator);
  return {std::cos(angle), std::sin(angle)};
}

}  // namespace

FourierTransform::FourierTransform(int64_t n, bool inverse) : m_n(n) {
  const double sign = inverse ? 1.0 : -1.0;
  if (n <= 1) return;
  if (largestPrimeFactor(n) <= kLargestRadix) {
    m_roots.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) m_roots[static_cast<size_t>(k)] = rootOfUnity(sign, 2 * k, n);
    return;
  }
  int64_t padded = 1;
  while (padded < 2 * n - 1) padded *= 2;
  m_padded = std::make_unique<FourierTransform>(padded, false);
  m_paddedInverse = std::make_unique<FourierTransform>(padded, true);
  m_chirp.resize(static_cast<size_t>(n));
  m_chirpSpectrum.assign(static_cast<size_t>(padded), Complex());
  for (int64_t k = 0; k < n; ++k) {
    m_chirp[static_cast<size_t>(k)] = rootOfUnity(sign, k * k, n);
    const Complex conjugate = std::conj(m_chirp[static_cast<size_t>(k)]);
    m_chirpSpectrum[static_cast<size_t>(k)] = conjugate;
    if (k > 0) m_chirpSpectrum[static_cast<size_t>(padded - k)] = conjugate;
  }
  std::vector<Complex> scratch;
  m_padded->apply(m_chirpSpectrum.data(), scratch);
}

FourierTransform::~FourierTransform() = default;

// Mixed radix reads a copy of the input (n values); Bluestein needs its padded series and the padded transforms'
// own scratch.
int64_t FourierTransform::scratchSize() const {
  if (m_n <= 1) return 0;
  return m_padded ? static_cast<int64_t>(m_chirpSpectrum.size()) + m_padded->scratchSize() : m_n;
}

void FourierTransform::apply(Complex* data, std::vector<Complex>& scratch) const {
  const auto needed = static_cast<size_t>(scratchSize());
  if (scratch.size() < needed) scratch.resize(needed);
  applyWith(data, scratch.data());
}

void FourierTransform::applyWith(Complex* data, Complex* scratch) const {
  if (m_n <= 1) return;
  if (m_padded) return chirpZ(data, scratch);
  std::copy(data, data + m_n, scratch);
  mixedRadix(scratch, 1, data, m_n);
}

// out[0, n) = the transform of in[0], in[stride], ...: p interleaved transforms of n / p values each (p the smallest
// factor), then p-point butterflies with the twiddles exp(-+2 pi i qk / n).
void FourierTransform::mixedRadix(const Complex* in, int64_t stride, Complex* out, int64_t n) const {
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  const int64_t p = smallestFactor(n), m = n / p, step = m_n / n;
  for (int64_t q = 0; q < p; ++q) mixedRadix(in + q * stride, stride * p, out + q * m, m);
  Complex column[kLargestRadix];  // p <= kLargestRadix: larger prime factors go to Bluestein
  for (int64_t k = 0; k < m; ++k) {
    for (int64_t q = 0; q < p; ++q) column[q] = out[q * m + k];
    for (int64_t r = 0; r < p; ++r) {
      const int64_t bin = k + r * m;
      Complex sum = column[0];
      for (int64_t q = 1; q < p; ++q) sum += column[q] * m_roots[static_cast<size_t>((q * bin % n) * step)];
      out[bin] = sum;
    }
  }
}

// Bluestein: jk = (j^2 + k^2 - (k - j)^2) / 2 turns the transform into a convolution with the chirp's conjugate.
void FourierTransform::chirpZ(Complex* data, Complex* scratch) const {
  const auto padded = static_cast<int64_t>(m_chirpSpectrum.size());
  Complex* work = scratch;
  Complex* inner = scratch + padded;
  for (int64_t k = 0; k < m_n; ++k) work[k] = data[k] * m_chirp[static_cast<size_t>(k)];
  std::fill(work + m_n, work + padded, Complex());
  m_padded->applyWith(work, inner);
  for (int64_t k = 0; k < padded; ++k) work[k] *= m_chirpSpectrum[static_cast<size_t>(k)];
  m_paddedInverse->applyWith(work, inner);
  const double scale = 1.0 / static_cast<double>(padded);
  for (int64_t k = 0; k < m_n; ++k) data[k] = work[k] * m_chirp[static_cast<size_t>(k)] * scale;
}

}  // namespace flowscope
