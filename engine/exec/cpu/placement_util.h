// What the CPU backend's placement steps (pointwise_depthwise.h, conv_max_pool.h, blocked_layout.h) ask of the nodes
// of a graph they rewrite.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <set>
#include <string>

#include "exec/backend.h"
#include "exec/kernel.h"
#include "ir/graph_algorithms.h"
#include "ir/op_def.h"

namespace flowscope {

/// A float32 node on NHWC (its data_format, NHWC when unset).
bool floatNhwc(const Node& node);

/// A _Fused* contraction whose fused_ops are a bias and at most a ReLU or ReLU6.
bool fusedWithBiasOnly(const Node& node);

/// A fused depthwise convolution: Grappler's _FusedDepthwiseConv2dNative, or TF.js's FusedDepthwiseConv2dNative (the
/// same op and attrs under the name the TF.js converter writes).
bool fusedDepthwise(const Node& node);

/// The nodes a run feeds or fetches: their tensors must stay as the graph has them.
std::set<std::string> pinnedNodes(const PlacementRequest& request);

/// The schema of a node a placement step adds: float32 inputs named `inputs`, one float32 output.
OpDef floatOpDef(const std::string& name, const std::string& summary, std::initializer_list<const char*> inputs);

/// A placement step that runs pairs of nodes as one: `first`, whose output only `second` reads, and `second`.
struct PairFusion {
  OpDef op;                         ///< the fused node's schema; its name is the fused node's op
  std::string firstAttr;            ///< the fused node's attr naming the first node
  int64_t minMiddleBytes = 0;       ///< pairs whose middle tensor is smaller, or of unknown size, stay apart
  bool keepsBlockedOutput = false;  ///< the fused node keeps the second node's choice of a blocked output
  /// The index of the node that node `second` fuses with, or -1; `pinned`: the nodes fed or fetched.
  std::function<int64_t(const Graph&, const Fanout&, const std::set<std::string>& pinned, size_t second)> firstOf;
  std::function<std::unique_ptr<OpKernel>(const Node& first, const Node& second)> kernel;
  /// Instead of `kernel`, for two nodes placement steps fused before: their kernels, as the placement prepared
  /// them, joined into one (a pair whose nodes have no prepared kernels stays apart).
  std::function<std::unique_ptr<OpKernel>(const Node& first, const Node& second, std::unique_ptr<OpKernel> a,
                                          std::unique_ptr<OpKernel> b)>
      chain;
};

/// Replaces each pair in `placement.graph` with one node under the second node's name (its readers and fetches are
/// unchanged), with the first node's inputs then the second's after its first, and adds its schema and kernel.
void fusePairs(Placement& placement, const PlacementRequest& request, const PairFusion& fusion);

}  // namespace flowscope
