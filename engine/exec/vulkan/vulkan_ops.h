// How each op runs on the Vulkan backend: whether a node is supported (float32 data; axes, shapes, permutations,
// paddings from Const inputs), its output shapes for given input shapes, and the shader dispatches that compute it
// (push constants, buffers, workgroups). One table, indexed by op.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "base/status.h"
#include "exec/precision.h"
#include "exec/vulkan/shader_table.h"
#include "ir/node.h"
#include "ir/tensor.h"

namespace flowscope::vk {

/// A dispatch's buffer: one of the node's inputs or outputs.
struct Operand {
  bool output = false;
  int index = 0;
};

struct Dispatch {
  ShaderId shader = ShaderId::kUnary;
  std::vector<Operand> buffers;     ///< bound to bindings 0, 1, ... in order
  std::array<uint32_t, 32> push{};  ///< push constants (128 bytes)
  uint32_t groups[3] = {1, 1, 1};
  bool barrierBefore = false;  ///< reads what the node's previous dispatch wrote
};

struct LoweredNode {
  std::vector<Shape> outputShapes;
  std::vector<Dispatch> dispatches;
};

/// How a cluster's MatMul and convolutions multiply: at the run's precision, and on the device's matrix units when it
/// has them (fp16 only: Debian 12's glslc cannot compile the bf16 ones).
struct GemmSetup {
  Precision precision = Precision::kFp32;
  bool cooperativeMatrix = false;
};

/// A node with what is known when its cluster is compiled: input shapes, and the values of Const inputs.
struct NodeView {
  const Node& node;
  std::vector<Shape> inputShapes;
  std::vector<const Tensor*> constInputs;  ///< null where an input is not a Const
  GemmSetup gemm;
  /// Per input; empty means all float32. Values inside a cluster are float32; an input from the host may be an
  /// integer where the op takes one there (Cast's source, GatherV2's indices).
  std::vector<DType> inputTypes = {};

  DType inputType(size_t i) const { return i < inputTypes.size() ? inputTypes[i] : DType::kFloat; }
};

/// Whether this node can run on Vulkan; `why` says what is missing otherwise. Input dtypes as inferred (float32, or
/// an integer type where the op reads one from the host); `constInputs` as in NodeView.
bool supports(const Node& node, const std::vector<DType>& inputTypes, const std::vector<const Tensor*>& constInputs,
              std::string* why);
/// Which inputs are parameters read at compile time (axes, shapes, ...), not buffers.
bool isParameterInput(const std::string& op, size_t input, size_t inputCount);
Expected<LoweredNode> lower(const NodeView& view);
/// Every op with a Vulkan kernel (for `flowscope devices` and the parity test).
std::vector<std::string> supportedOps();

}  // namespace flowscope::vk
