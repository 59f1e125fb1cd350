// tf::Tensor: the value type of traced C++ code. Outside tracing it holds an eager value; while a Function traces,
// it names an output of a node in the graph being built (a symbolic tensor with a dtype and a static shape).
// Errors raise tf::Error, as TensorFlow's Python API raises; Function::call turns them back into Status values.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/node.h"
#include "ir/tensor.h"

namespace flowscope::tf {

class FuncGraph;

/// An op failed ("InvalidArgumentError: indices[0] = 1 is not in [0, 1) [Op:GatherV2]").
class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), m_code(code) {}
  ErrorCode code() const { return m_code; }
  /// TensorFlow's class name for the code: InvalidArgumentError, UnimplementedError, ...
  std::string typeName() const;

 private:
  ErrorCode m_code;
};

class Tensor {
 public:
  Tensor() = default;
  /// Eager values.
  Tensor(flowscope::Tensor value);      // NOLINT: implicit, like tf.constant
  Tensor(float v);                      // NOLINT
  Tensor(double v);                     // NOLINT
  Tensor(int v);                        // NOLINT
  Tensor(int64_t v);                    // NOLINT
  Tensor(bool v);                       // NOLINT
  Tensor(const std::vector<float>& v);  // NOLINT
  Tensor(const std::vector<int>& v);    // NOLINT

  /// A symbolic tensor: output `ref` of a node in `graph`.
  static Tensor symbolic(const std::shared_ptr<FuncGraph>& graph, TensorRef ref, DType dtype, Shape shape);

  /// A tensor made from a C++ number or list (a Python literal): binary ops convert it to the other side's dtype,
  /// as tf.convert_to_tensor does for Python values.
  bool isWeak() const;
  Tensor asWeak() const;

  bool isValid() const { return m_impl != nullptr; }
  bool isSymbolic() const;
  DType dtype() const;
  /// Static shape (symbolic) or the value's shape (eager).
  Shape shape() const;
  /// The eager value; throws when symbolic ("a graph tensor has no value until the graph runs").
  const flowscope::Tensor& value() const;
  /// The graph and output of a symbolic tensor (null graph when eager or when the graph is gone).
  std::shared_ptr<FuncGraph> graph() const;
  const TensorRef& ref() const;

  /// tf.Tensor's repr: `tf.Tensor(5.5, shape=(), dtype=float32)`, `tf.Tensor([1. 0.], shape=(2,), dtype=float32)`.
  std::string toString() const;
  /// NumPy's formatting of the value: `5.5`, `[1. 0.]`, `[[12.]]`.
  std::string numpy() const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> m_impl;
};

/// NumPy-style text of an eager value.
std::string formatNumpy(const flowscope::Tensor& value);
/// "(2,)", "()", "(1, 1)", "(None, 3)".
std::string pythonShape(const Shape& shape);

}  // namespace flowscope::tf
