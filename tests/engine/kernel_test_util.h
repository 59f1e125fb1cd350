// Helpers for kernel tests: build tensors from values, run eager ops, compare with tolerance.
#pragma once

#include <QtTest>

#include <cmath>
#include <random>
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

inline AttrValue ints(std::vector<int64_t> v) {
  AttrList l;
  l.i = std::move(v);
  return AttrValue::fromList(l);
}

}  // namespace flowscope::testing
