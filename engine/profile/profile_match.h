// Matching an imported profile's events to the nodes of a graph: by name, by output tensor name (walking back over
// what the tool fused into the node it timed), by op order and shapes within each run, and by fusion (nodes with no
// event of their op that only feed on a timed node are covered by its event; a batch norm an exporter folded
// into the convolution before it times that node). Kernels share their launcher's match.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "ir/graph.h"
#include "profile/imported_profile.h"

namespace flowscope {

struct MatchSummary {
  size_t nodeEvents = 0;  ///< events about nodes (sessions and runtime calls are not)
  size_t matched = 0;
  std::map<std::string, size_t> byMethod;  ///< "name", "output", "order", "folded", "parent" -> events
  size_t nodesCovered = 0;                 ///< distinct graph nodes with at least one event
  size_t unmatched() const { return nodeEvents - matched; }
};

/// Sets each event's `nodes` and `matchedBy` (clearing earlier matches) and renames matched events after their
/// first node, so that profile->toRunProfile() sums onto the graph as our own profiles do.
MatchSummary matchProfileToGraph(const Graph& graph, ImportedProfile* profile);

/// Whether an event's op (ONNX, TensorFlow, or PyTorch's aten::) may be a node of op type `nodeOp`.
bool opsCompatible(const std::string& eventOp, const std::string& nodeOp);
/// An op type without the ONNX default domain's "onnx::" prefix (the ONNX loader's spelling): "onnx::Conv" -> "Conv".
std::string baseOpType(const std::string& op);

}  // namespace flowscope
