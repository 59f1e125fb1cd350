// Parsing a binary GraphDef on the intra-op threads.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "graph.pb.h"

namespace flowscope {

/// Parses a binary GraphDef into `graph` (empty, usually on an arena). A large one parses in pieces on the intra-op
/// threads: its top-level fields are cut into contiguous runs, each a GraphDef of its own (protobuf merges
/// concatenated messages), whose nodes then join in file order and whose other fields merge as parsing the whole
/// would. The result and the errors (see parseBinaryProto) are those of parsing it in one piece.
Status parseGraphDef(std::string_view data, tensorflow::GraphDef* graph, const std::string& path);
/// parseGraphDef() in about `pieces` runs, whatever the size (the tests cut small graphs).
Status parseGraphDefInPieces(std::string_view data, tensorflow::GraphDef* graph, const std::string& path,
                             size_t pieces);

}  // namespace flowscope
