// GraphDef, NodeDef, AttrValue, OpDef and FunctionDef <-> IR. The only place that knows both worlds.
#pragma once

#include "base/status.h"
#include "graph.pb.h"
#include "ir/graph.h"

namespace flowscope {

/// Limits applied while converting, so that a small file cannot demand a huge allocation.
struct DecodeLimits {
  size_t maxTensorBytes = 256u << 20;  ///< cap for a repeated (splat) tensor value's expansion
};

/// Converts and fills attr defaults from the op registry. Errors name the node (and function) and the attr.
Expected<Graph> graphFromProto(const tensorflow::GraphDef& proto, const DecodeLimits& limits);
void graphToProto(const Graph& graph, tensorflow::GraphDef* proto);

Expected<OpDef> opDefFromProto(const tensorflow::OpDef& proto, const DecodeLimits& limits);
void opDefToProto(const OpDef& def, tensorflow::OpDef* proto);

Expected<AttrValue> attrFromProto(const tensorflow::AttrValue& proto, const DecodeLimits& limits);
void attrToProto(const AttrValue& value, tensorflow::AttrValue* proto);

}  // namespace flowscope
