// Specializing a graph to the shapes a run feeds, for a backend that places per shape (Vulkan): the integer values
// shape inference computes from those shapes (Shape(x), a dim sliced out of it, a new shape packed from dims, as
// TF.js graphs build Reshape targets for an unknown batch) become Const inputs, and the shape arithmetic that made
// them, read by nothing else, leaves the placed graph. The Reshape then has the constant target the GPU needs, and
// the model is not split into clusters around CPU nodes that only compute shapes.
#pragma once

#include "exec/backend.h"

namespace flowscope {

/// `graph` with request.fedShapes' consequences made constant; the graph itself when they change nothing. Fed,
/// fetched and target nodes stay.
Graph specializeToFedShapes(const Graph& graph, const PlacementRequest& request);

}  // namespace flowscope
