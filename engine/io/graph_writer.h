// Writers for GraphDef files, binary (.pb) and text (.pbtxt), always written atomically.
#pragma once

#include <string>

#include "base/status.h"
#include "ir/graph.h"

namespace flowscope {

enum class GraphFormat { kBinary, kText };

/// .pbtxt / .txt / .pbtext mean text; everything else binary.
GraphFormat graphFormatForPath(const std::string& path);
Expected<std::string> serializeGraph(const Graph& graph, GraphFormat format);
Status writeGraph(const Graph& graph, const std::string& path);

}  // namespace flowscope
