// Helpers of the ONNX tests: small ModelProtos built in code, files written to a temporary folder, inputs made by the
// formula tests/data/onnx/ort_reference.mjs uses, and output comparison.
#pragma once

#include <onnx/onnx_pb.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "ir/tensor.h"

namespace flowscope::testing {

/// A model of one graph with opset 17 and IR version 8.
inline onnx::ModelProto onnxModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("tst_onnx");
  m.add_opset_import()->set_version(17);
  m.mutable_graph()->set_name("g");
  return m;
}

inline void addValue(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name,
                     std::vector<int64_t> dims, int32_t type = onnx::TensorProto::FLOAT) {
  auto* v = list->Add();
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(type);
  for (int64_t d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}

inline onnx::NodeProto* addNode(onnx::GraphProto* g, const std::string& op, std::vector<std::string> inputs,
                                std::vector<std::string> outputs, const std::string& name = "") {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(name);
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return n;
}

inline void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Element i = scale * sin(0.37 i), in float32 (as ort_reference.mjs makes them).
inline Tensor formulaTensor(const Shape& shape, float scale) {
  Tensor t(DType::kFloat, shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data<float>()[i] = static_cast<float>(scale * std::sin(0.37 * static_cast<double>(i)));
  return t;
}

/// The largest |a - b| over the largest |b|: the error relative to the reference's range.
inline double relativeError(const Tensor& a, const Tensor& b) {
  double diff = 0, range = 0;
  for (int64_t i = 0; i < b.numElements(); ++i) {
    diff = std::max(diff, std::abs(a.elementAsDouble(i) - b.elementAsDouble(i)));
    range = std::max(range, std::abs(b.elementAsDouble(i)));
  }
  return range > 0 ? diff / range : diff;
}

}  // namespace flowscope::testing
