// The op API of traced code: free functions and operators over tf::Tensor. Eagerly they run the CPU kernels at
// once; while a Function traces they add nodes to its graph. Names follow TensorFlow's Python API.
#pragma once

#include <string>
#include <vector>

#include "ir/attr_value.h"
#include "trace/tensor.h"

namespace flowscope::tf {

/// Runs or records one op; the building block of everything below.
std::vector<Tensor> applyOp(const std::string& op, const std::vector<Tensor>& inputs, const AttrMap& attrs = {},
                            const std::string& nameHint = "");
Tensor apply1(const std::string& op, const std::vector<Tensor>& inputs, const AttrMap& attrs = {},
              const std::string& nameHint = "");

Tensor constant(const flowscope::Tensor& value);
Tensor add(const Tensor& a, const Tensor& b);
Tensor subtract(const Tensor& a, const Tensor& b);
Tensor multiply(const Tensor& a, const Tensor& b);
Tensor divide(const Tensor& a, const Tensor& b);
Tensor maximum(const Tensor& a, const Tensor& b);
Tensor minimum(const Tensor& a, const Tensor& b);
Tensor pow(const Tensor& a, const Tensor& b);
Tensor greater(const Tensor& a, const Tensor& b);
Tensor less(const Tensor& a, const Tensor& b);
Tensor equal(const Tensor& a, const Tensor& b);
Tensor negative(const Tensor& x);
Tensor square(const Tensor& x);
Tensor exp(const Tensor& x);
Tensor relu(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor softmax(const Tensor& x);
Tensor identity(const Tensor& x);
Tensor matmul(const Tensor& a, const Tensor& b, bool transposeA = false, bool transposeB = false);
Tensor biasAdd(const Tensor& x, const Tensor& bias);
Tensor conv2d(const Tensor& input, const Tensor& filter, std::vector<int64_t> strides, const std::string& padding);
Tensor maxPool(const Tensor& input, std::vector<int64_t> ksize, std::vector<int64_t> strides,
               const std::string& padding);
Tensor reshape(const Tensor& x, std::vector<int64_t> shape);
Tensor transpose(const Tensor& x, std::vector<int64_t> perm);
/// Mean/sum over `axes` (all axes when empty).
Tensor reduceMean(const Tensor& x, std::vector<int64_t> axes = {}, bool keepDims = false);
Tensor reduceSum(const Tensor& x, std::vector<int64_t> axes = {}, bool keepDims = false);
Tensor gather(const Tensor& params, const Tensor& indices, int64_t axis = 0);
Tensor cast(const Tensor& x, DType dtype);
/// The n x n identity matrix.
Tensor eye(int64_t n, DType dtype = DType::kFloat);
/// Uniform values in [minval, maxval): integers for integer dtypes (RandomUniformInt), floats otherwise.
Tensor randomUniform(std::vector<int64_t> shape, double minval, double maxval, DType dtype = DType::kFloat,
                     int64_t seed = 0);

/// tf.print: a graph op (PrintV2 to stdout) that runs on every call, never pruned. Items are tensors or text.
struct PrintItem {
  PrintItem(const Tensor& t) : tensor(t) {}         // NOLINT
  PrintItem(const char* s) : text(s) {}             // NOLINT
  PrintItem(std::string s) : text(std::move(s)) {}  // NOLINT
  Tensor tensor;
  std::string text;
};
void print(const std::vector<PrintItem>& items);

Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& x);
Tensor operator>(const Tensor& a, const Tensor& b);
Tensor operator<(const Tensor& a, const Tensor& b);

/// Python truthiness of an eager value (`if tensor:`); throws for a graph tensor (use cond).
bool truthy(const Tensor& t);

}  // namespace flowscope::tf
