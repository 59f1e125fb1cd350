// Parity cases for the ONNX ops that run on Vulkan: each as an ONNX node (opset 13 unless the case says), in the
// forms models use (attrs and constant inputs, optional inputs left out).
#include "ops/onnx_op_set.h"
#include "vulkan_case.h"

namespace flowscope::vktest {
namespace {

std::string int64s(Case& k, const std::string& name, std::vector<int64_t> values, bool scalar = false) {
  Tensor t(DType::kInt64, scalar ? Shape{} : Shape{static_cast<int64_t>(values.size())});
  std::copy(values.begin(), values.end(), t.data<int64_t>());
  return k.constant(name, std::move(t));
}

// The ONNX node, with the bookkeeping the loader adds: the opset, and the dtypes of its inputs and its k.outputs
// outputs.
void onnxOp(Case& k, const std::string& type, std::vector<std::string> inputs,
            std::map<std::string, AttrValue> attrs = {}, int64_t opset = 13) {
  attrs.emplace(kOnnxOpsetAttr, AttrValue::fromInt(opset));
  AttrList in, out;
  for (const auto& name : inputs) in.type.push_back(k.graph.findNode(name)->attr("dtype")->type());
  out.type.assign(static_cast<size_t>(k.outputs), DType::kFloat);
  attrs.emplace(kOnnxInTypesAttr, AttrValue::fromList(std::move(in)));
  attrs.emplace(kOnnxOutTypesAttr, AttrValue::fromList(std::move(out)));
  k.op("onnx::" + type, std::move(inputs), std::move(attrs));
}

void addElementwise(std::map<std::string, Builder>& c) {
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Max", "Min"})
    c[std::string("onnx::") + op] = [op](Case& k) { onnxOp(k, op, {k.input("a", {2, 3, 4}), k.input("b", {3, 1})}); };
  c["onnx::Pow"] = [](Case& k) {
    k.positive = true;
    onnxOp(k, "Pow", {k.input("a", {4, 5}), k.input("b", {5})});
  };
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Exp", "Neg", "Abs", "Softplus", "Identity", "Elu", "Floor", "Ceil",
                         "Round", "Sign", "Sin", "Cos", "Softsign"})
    c[std::string("onnx::") + op] = [op](Case& k) { onnxOp(k, op, {k.input("x", {3, 70})}); };
  for (const char* op : {"Log", "Sqrt", "Reciprocal"})
    c[std::string("onnx::") + op] = [op](Case& k) {
      k.positive = true;
      onnxOp(k, op, {k.input("x", {3, 70})});
    };
  c["onnx::LeakyRelu"] = [](Case& k) { onnxOp(k, "LeakyRelu", {k.input("x", {3, 70})}); };  // alpha 0.01
  c["onnx::Clip"] = [](Case& k) {
    onnxOp(k, "Clip",
           {k.input("x", {4, 9}), k.constant("lo", Tensor::scalar(DType::kFloat, 0.0f)),
            k.constant("hi", Tensor::scalar(DType::kFloat, 6.0f))});
  };
}

void addMatrixAndReductions(std::map<std::string, Builder>& c) {
  c["onnx::Gemm"] = [](Case& k) {
    onnxOp(k, "Gemm", {k.input("a", {6, 20}), k.weights("b", {9, 20}), k.weights("c", {9})},
           {{"transB", AttrValue::fromInt(1)}});
  };
  c["onnx::MatMul"] = [](Case& k) { onnxOp(k, "MatMul", {k.input("a", {3, 5, 17}), k.weights("b", {17, 6})}); };
  c["onnx::GlobalAveragePool"] = [](Case& k) { onnxOp(k, "GlobalAveragePool", {k.input("x", {2, 3, 5, 4})}); };
  c["onnx::ReduceSum"] = [](Case& k) {
    onnxOp(k, "ReduceSum", {k.input("x", {2, 6, 5, 3}), int64s(k, "axes", {1, 2})});
  };
  for (const char* op : {"ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"})
    c[std::string("onnx::") + op] = [op](Case& k) {
      k.positive = std::string(op) == "ReduceProd";
      onnxOp(k, op, {k.input("x", {2, 6, 5, 3})}, {{"axes", ints({-3, 2})}, {"keepdims", AttrValue::fromInt(0)}});
    };
  for (const char* op : {"Softmax", "LogSoftmax"})
    c[std::string("onnx::") + op] = [op](Case& k) { onnxOp(k, op, {k.input("x", {4, 10})}); };
}

void addDataMovement(std::map<std::string, Builder>& c) {
  c["onnx::Flatten"] = [](Case& k) {
    onnxOp(k, "Flatten", {k.input("x", {2, 3, 4, 5})}, {{"axis", AttrValue::fromInt(2)}});
  };
  c["onnx::Reshape"] = [](Case& k) { onnxOp(k, "Reshape", {k.input("x", {2, 3, 4}), int64s(k, "shape", {0, -1})}); };
  c["onnx::Squeeze"] = [](Case& k) { onnxOp(k, "Squeeze", {k.input("x", {2, 1, 4}), int64s(k, "axes", {1})}); };
  c["onnx::Unsqueeze"] = [](Case& k) {  // opset 11: axes as an attr
    onnxOp(k, "Unsqueeze", {k.input("x", {2, 4})}, {{"axes", ints({0, -2})}}, 11);
  };
  c["onnx::Transpose"] = [](Case& k) {
    onnxOp(k, "Transpose", {k.input("x", {2, 3, 4})}, {{"perm", ints({2, 0, 1})}});
  };
  c["onnx::Concat"] = [](Case& k) {
    onnxOp(k, "Concat", {k.input("a", {2, 3, 4}), k.input("b", {2, 1, 4}), k.weights("c", {2, 2, 4})},
           {{"axis", AttrValue::fromInt(-2)}});
  };
  c["onnx::Split"] = [](Case& k) {  // sizes as input 1
    k.outputs = 3;
    onnxOp(k, "Split", {k.input("x", {2, 7, 3}), int64s(k, "split", {2, 4, 1})}, {{"axis", AttrValue::fromInt(1)}});
  };
  c["onnx::Gather"] = [](Case& k) {  // negative indices count from the end
    Tensor i(DType::kInt64, Shape{2, 2});
    const int64_t values[] = {-1, 0, 2, -3};
    std::copy(values, values + 4, i.data<int64_t>());
    onnxOp(k, "Gather", {k.input("x", {3, 5}), k.constant("i", i)}, {{"axis", AttrValue::fromInt(1)}});
  };
  c["onnx::Cast"] = [](Case& k) {  // to FLOAT
    onnxOp(k, "Cast", {k.integers("x", {4, 9}, DType::kUInt8, 0, 255)}, {{"to", AttrValue::fromInt(1)}});
  };
  c["onnx::Split/equal"] = [](Case& k) {  // opset 11: no sizes, as many pieces as outputs, the last one smaller
    k.outputs = 3;
    onnxOp(k, "Split", {k.input("x", {8, 5})}, {}, 11);
  };
}

}  // namespace

void addOnnxCases(std::map<std::string, Builder>& cases) {
  addElementwise(cases);
  addMatrixAndReductions(cases);
  addDataMovement(cases);
}

}  // namespace flowscope::vktest
