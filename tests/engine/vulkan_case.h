// One op's parity case for the Vulkan tests: a small graph of placeholders fed with random floats, Consts, and the
// op under test named "op" (tst_vulkan.cpp runs it on the CPU and on Vulkan and compares).
#pragma once

#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace flowscope::vktest {

struct Case {
  Graph graph;
  std::vector<std::pair<std::string, Tensor>> feeds;
  std::mt19937 rng{7};
  bool positive = false;  // inputs in (0.5, 1.5) for Log, Sqrt, Pow, ...
  int outputs = 1;        // of "op", all compared (Split, Unpack)

  Tensor randomTensor(const Shape& shape) {
    Tensor t(DType::kFloat, shape);
    std::uniform_real_distribution<float> u(positive ? 0.5f : -1.5f, 1.5f);
    for (int64_t i = 0; i < t.numElements(); ++i) t.data<float>()[i] = u(rng);
    return t;
  }
  std::string input(const std::string& name, const Shape& shape, bool anyShape = false) {
    Node n;
    n.name = name;
    n.op = "Placeholder";
    n.attrs["dtype"] = AttrValue::fromType(DType::kFloat);
    n.attrs["shape"] = AttrValue::fromShape(anyShape ? Shape::unknownRank() : shape);
    graph.addNode(std::move(n));
    feeds.emplace_back(name, randomTensor(shape));
    return name;
  }
  /// A placeholder of an integer type (int32, int64, int8, uint8, bool) fed with values in [lo, hi].
  std::string integers(const std::string& name, const Shape& shape, DType type, int64_t lo, int64_t hi) {
    Node n;
    n.name = name;
    n.op = "Placeholder";
    n.attrs["dtype"] = AttrValue::fromType(type);
    n.attrs["shape"] = AttrValue::fromShape(shape);
    graph.addNode(std::move(n));
    feeds.emplace_back(name, integerTensor(shape, type, lo, hi));
    return name;
  }
  Tensor integerTensor(const Shape& shape, DType type, int64_t lo, int64_t hi) {
    Tensor t(type, shape);
    std::uniform_int_distribution<int64_t> u(lo, hi);
    for (int64_t i = 0; i < t.numElements(); ++i) {
      const int64_t v = u(rng);
      if (type == DType::kInt32) t.data<int32_t>()[i] = static_cast<int32_t>(v);
      if (type == DType::kInt64) t.data<int64_t>()[i] = v;
      if (type == DType::kInt8) t.data<int8_t>()[i] = static_cast<int8_t>(v);
      if (type == DType::kUInt8) t.data<uint8_t>()[i] = static_cast<uint8_t>(v);
      if (type == DType::kBool) t.data<bool>()[i] = v != 0;
    }
    return t;
  }
  std::string constant(const std::string& name, Tensor value) {
    Node n;
    n.name = name;
    n.op = "Const";
    n.attrs["dtype"] = AttrValue::fromType(value.dtype());
    n.attrs["value"] = AttrValue::fromTensor(std::move(value));
    graph.addNode(std::move(n));
    return name;
  }
  std::string weights(const std::string& name, const Shape& shape) { return constant(name, randomTensor(shape)); }
  std::string ints(const std::string& name, std::vector<int32_t> values, Shape shape = Shape::unknownRank()) {
    Tensor t(DType::kInt32, shape.hasUnknownRank() ? Shape{static_cast<int64_t>(values.size())} : shape);
    for (size_t i = 0; i < values.size(); ++i) t.data<int32_t>()[i] = values[i];
    return constant(name, std::move(t));
  }
  void op(const std::string& type, std::vector<std::string> inputs, std::map<std::string, AttrValue> attrs = {}) {
    Node n;
    n.name = "op";
    n.op = type;
    for (const auto& i : inputs) n.inputs.push_back(TensorRef{i, 0, ""});
    n.attrs["T"] = AttrValue::fromType(DType::kFloat);
    for (auto& [k, v] : attrs) n.attrs[k] = std::move(v);
    graph.addNode(std::move(n));
  }
};

inline AttrValue ints(std::vector<int64_t> v) {
  AttrList l;
  l.i = std::move(v);
  return AttrValue::fromList(std::move(l));
}
inline AttrValue strings(std::vector<std::string> v) {
  AttrList l;
  l.s = std::move(v);
  return AttrValue::fromList(std::move(l));
}

using Builder = std::function<void(Case&)>;

/// The ONNX ops that run on Vulkan as a TensorFlow op's lowering (vulkan_onnx_cases.cpp).
void addOnnxCases(std::map<std::string, Builder>& cases);

}  // namespace flowscope::vktest
