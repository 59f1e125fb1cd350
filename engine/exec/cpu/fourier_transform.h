// The discrete Fourier transform of n complex values, for any n: mixed-radix Cooley-Tukey over n's prime factors, and
// Bluestein's chirp-z (a convolution by power-of-two transforms) where n has a prime factor too large for that to be
// fast. Sums in double; unscaled both ways (an inverse transform's caller divides by n).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

namespace flowscope {

using Complex = std::complex<double>;

class FourierTransform {
 public:
  /// Forward: X[k] = sum_j x[j] exp(-2 pi i jk / n); inverse: exp(+2 pi i jk / n).
  FourierTransform(int64_t n, bool inverse);
  ~FourierTransform();

  /// Transforms `data` (n values) in place. `scratch` is the caller's working memory, grown here as needed; a
  /// caller transforming many series passes the same one, so the transforms allocate nothing after the first.
  void apply(Complex* data, std::vector<Complex>& scratch) const;

 private:
  int64_t scratchSize() const;
  void applyWith(Complex* data, Complex* scratch) const;
  void mixedRadix(const Complex* in, int64_t stride, Complex* out, int64_t n) const;
  void chirpZ(Complex* data, Complex* scratch) const;

  int64_t m_n;
  std::vector<Complex> m_roots;  // exp(-+2 pi i k / n), k < n (mixed radix)
  // Bluestein: the chirp exp(-+pi i k^2 / n), the spectrum of its conjugate wrapped to the padded size, and the
  // power-of-two transforms of that size.
  std::vector<Complex> m_chirp, m_chirpSpectrum;
  std::unique_ptr<FourierTransform> m_padded, m_paddedInverse;
};

}  // namespace flowscope
