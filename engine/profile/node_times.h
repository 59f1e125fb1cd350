// Time per graph node: a profile's events summed onto the nodes of a graph (the one place the canvas overlay, the
// screenshot's overlay and the CLI compute it).
#pragma once

#include <cstddef>
#include <vector>

#include "ir/graph.h"
#include "profile/roofline.h"
#include "profile/run_profile.h"

namespace flowscope {

struct NodeTimes {
  std::vector<double> seconds;  ///< per node of the graph, mean per run
  std::vector<double> flops;    ///< per node, mean per run
  std::vector<double> bytes;    ///< per node, mean per run (read and written)
  std::vector<double> events;   ///< per node, kernel calls per run (more than 1 in loop bodies)
  /// Per node: the node whose time includes this one's, when the run fused them into one kernel (its anchor, the
  /// first of the fused nodes this graph holds); -1 otherwise.
  std::vector<int64_t> fusedInto;
  double matchedSeconds = 0;    ///< per run, on nodes of the graph
  double unmatchedSeconds = 0;  ///< per run, on events that name no node of it (made by the optimizer, in bodies)
  size_t matchedEvents = 0, unmatchedEvents = 0;
  int runs = 1;
};

/// The nodes of `graph` that event `e` computed, the one its time goes on first: the node it names, unless a rewrite
/// fused it and `graph` holds the nodes it was made from (NodeEvent::fusedFrom) rather than the fused node itself;
/// then those, the first of them first. Empty where it names no node of `graph`.
std::vector<size_t> eventNodes(const NodeEvent& e, const Graph& graph);

/// Sums `profile`'s events onto `graph`'s nodes by name, averaged over the profile's runs. An event of a node that a
/// rewrite fused, on a graph that holds the nodes it was made from (not the fused node itself), goes on the first of
/// them, and the others are marked as fused into it. An event of a node made for others (a layout transpose, whose
/// recorded names are its readers', not its own) is spread evenly over the groups its readers ran in, joining none.
NodeTimes nodeTimes(const RunProfile& profile, const Graph& graph);

/// Two profiles of one graph compared node by node: one row per group of nodes that either side ran as one kernel
/// (NodeTimes::fusedInto of either), with each side's seconds per run on the group.
struct NodeGroupTimes {
  size_t node = 0;   ///< the node `theirs` timed longest in the group
  size_t nodes = 1;  ///< how many nodes the group holds
  double theirs = 0, ours = 0;
};

/// The groups `theirs` timed, slowest in `theirs` first. Grouping by both sides' fusions keeps a row whole where one
/// engine fused more than the other (our expand + depthwise kernel against ONNX Runtime's two).
std::vector<NodeGroupTimes> compareNodeTimes(const NodeTimes& theirs, const NodeTimes& ours);

/// Each node's share of the roofline (0 for nodes that did not run, or when the roofline is unknown).
std::vector<double> rooflineShares(const NodeTimes& times, const Roofline& roofline);

}  // namespace flowscope
