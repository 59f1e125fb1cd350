// Helpers for kernel tests: build tensors from values, run eager ops, compare with tolerance.
#pragma once

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "exec/eager.h"

namespace flowscope::testing {

inline Tensor tensorOf(DType dtype, Shape shape, const std::vector<double>& values) {
  Tensor t(dtype, shape);
  for (size_t i = 0; i < values.size() && static_cast<int64_t>(i) < t.numElements(); ++i) {
    switch (dtype) {
      case DType::kFloat:
        t.data<float>()[i] = static_cast<float>(values[i]);
        break;
      case DType::kDouble:
        t.data<double>()[i] = values[i];
        break;
      case DType::kInt32:
        t.data<int32_t>()[i] = static_cast<int32_t>(values[i]);
        break;
      case DType::kInt64:
        t.data<int64_t>()[i] = static_cast<int64_t>(values[i]);
        break;
      case DType::kUInt8:
        t.data<uint8_t>()[i] = static_cast<uint8_t>(values[i]);
        break;
      case DType::kInt8:
        t.data<int8_t>()[i] = static_cast<int8_t>(values[i]);
        break;
      case DType::kBool:
        t.data<uint8_t>()[i] = values[i] != 0;
        break;
      default:
        break;
    }
  }
  return t;
}

inline Tensor randomOf(DType dtype, Shape shape, uint32_t seed, double lo = -2, double hi = 2) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> values(static_cast<size_t>(std::max<int64_t>(shape.numElements(), 0)));
  for (auto& v : values) v = isFloating(dtype) ? dist(gen) : std::round(dist(gen));
  return tensorOf(dtype, std::move(shape), values);
}

inline std::vector<double> valuesOf(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numElements(); ++i) out.push_back(t.elementAsDouble(i));
  return out;
}

inline Tensor run1(const std::string& op, std::vector<Tensor> inputs, const AttrMap& attrs = {}) {
  auto out = eagerExecute(op, std::move(inputs), attrs);
  if (!out) qFatal("%s failed: %s", op.c_str(), out.status().message().c_str());
  return (*out)[0];
}

inline QString runError(const std::string& op, std::vector<Tensor> inputs, const AttrMap& attrs = {}) {
  auto out = eagerExecute(op, std::move(inputs), attrs);
  return out ? QString("<no error>") : QString::fromStdString(out.status().message());
}

/// Fails the test with the first element that differs by more than atol + rtol * |expected|.
inline bool closeTo(const Tensor& got, const Shape& shape, const std::vector<double>& want, double atol = 1e-5,
                    double rtol = 1e-5) {
  if (got.shape() != shape) {
    qWarning("shape %s, expected %s", got.shape().toString().c_str(), shape.toString().c_str());
    return false;
  }
  for (size_t i = 0; i < want.size(); ++i) {
    double g = got.elementAsDouble(static_cast<int64_t>(i));
    if (std::isnan(want[i]) ? !std::isnan(g) : std::fabs(g - want[i]) > atol + rtol * std::fabs(want[i])) {
      qWarning("element %zu: got %.9g, expected %.9g", i, g, want[i]);
      return false;
    }
  }
  return true;
}

/// A convolution (dilation 1) by the definition, in double: x NHWC [N, H, W, C], f HWIO [KH, KW, C, K], out NHWC
/// [N, OH, OW, K] = conv + bias + addend (null: none), clamped to [0, hi] when hi > 0.
struct ConvWindow {
  int64_t stride = 1, padTop = 0, padLeft = 0, oh = 0, ow = 0;
};
inline std::vector<double> convByDefinition(const Tensor& x, const Tensor& f, const Tensor& bias, const Tensor* addend,
                                            const ConvWindow& w, double hi) {
  const int64_t n = x.shape().dim(0), h = x.shape().dim(1), wd = x.shape().dim(2), c = x.shape().dim(3);
  const int64_t kh = f.shape().dim(0), kw = f.shape().dim(1), k = f.shape().dim(3);
  std::vector<double> out;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < w.oh; ++y)
      for (int64_t xo = 0; xo < w.ow; ++xo)
        for (int64_t o = 0; o < k; ++o) {
          double sum = bias.elementAsDouble(o);
          if (addend) sum += addend->elementAsDouble(((b * w.oh + y) * w.ow + xo) * k + o);
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) {
              const int64_t iy = y * w.stride + i - w.padTop, ix = xo * w.stride + j - w.padLeft;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              for (int64_t ch = 0; ch < c; ++ch)
                sum += x.elementAsDouble(((b * h + iy) * wd + ix) * c + ch) *
                       f.elementAsDouble(((i * kw + j) * c + ch) * k + o);
            }
          out.push_back(hi > 0 ? std::clamp(sum, 0.0, hi) : sum);
        }
  return out;
}

/// The largest |got - want| / (1 + |want|) over the elements.
inline double worstError(const Tensor& got, const std::vector<double>& want) {
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i)
    worst = std::max(worst, std::abs(got.elementAsDouble(static_cast<int64_t>(i)) - want[i]) / (1 + std::abs(want[i])));
  return worst;
}

inline AttrValue ints(std::vector<int64_t> v) {
  AttrList l;
  l.i = std::move(v);
  return AttrValue::fromList(l);
}

/// A list-of-strings attribute (a fused node's fused_ops).
inline AttrValue stringList(std::vector<std::string> v) {
  AttrList l;
  l.s = std::move(v);
  return AttrValue::fromList(std::move(l));
}

}  // namespace flowscope::testing
