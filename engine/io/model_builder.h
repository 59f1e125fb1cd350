// Shared steps of the TensorFlow loaders: GraphDef and MetaGraphDef protos into a Model.
#pragma once

#include <string>

#include "graph.pb.h"
#include "io/graph_proto.h"
#include "ir/model.h"
#include "meta_graph.pb.h"

namespace flowscope {

/// How far a repeated (splat) constant may expand, derived from the file size: generous for real files,
/// yet a 1 KB file cannot ask for gigabytes.
DecodeLimits decodeLimitsFor(uint64_t fileBytes);

/// GraphDef -> Model with the graph converted; errors prefixed with the path.
Expected<Model> modelFromGraphDef(const tensorflow::GraphDef& proto, const std::string& path, std::string format,
                                  const DecodeLimits& limits);
/// MetaGraphDef -> Model: graph, tags, TF version and signatures (variables are the SavedModel loader's job).
Expected<Model> modelFromMetaGraph(const tensorflow::MetaGraphDef& meta, const std::string& path, std::string format,
                                   const DecodeLimits& limits);
/// Adds a warning listing ops that are neither registered nor library functions (shown, not runnable).
void noteUnknownOps(Model& model);
/// Runs the verifier and stores its findings in model.problems (a viewer still shows such graphs).
void verifyModel(Model& model);

}  // namespace flowscope
