// GraphDef serialization through libprotobuf.
#include "io/graph_writer.h"

#include <google/protobuf/text_format.h>

#include "base/atomic_file.h"
#include "base/strings.h"
#include "graph.pb.h"
#include "io/graph_proto.h"

namespace flowscope {

GraphFormat graphFormatForPath(const std::string& path) {
  for (const char* ext : {".pbtxt", ".txt", ".pbtext", ".prototxt"})
    if (endsWith(path, ext)) return GraphFormat::kText;
  return GraphFormat::kBinary;
}

Expected<std::string> serializeGraph(const Graph& graph, GraphFormat format) {
  tensorflow::GraphDef proto;
  graphToProto(graph, &proto);
  std::string out;
  if (format == GraphFormat::kText) {
    google::protobuf::TextFormat::Printer printer;
    if (!printer.PrintToString(proto, &out)) return internalError("could not print the GraphDef as text");
    return out;
  }
  if (proto.ByteSizeLong() > static_cast<size_t>(INT32_MAX))
    return outOfRange("the graph is " + formatBytes(proto.ByteSizeLong()) + ", beyond protobuf's 2 GiB message limit");
  if (!proto.SerializeToString(&out)) return internalError("could not serialize the GraphDef");
  return out;
}

Status writeGraph(const Graph& graph, const std::string& path) {
  FS_ASSIGN_OR_RETURN(std::string bytes, serializeGraph(graph, graphFormatForPath(path)));
  return writeFileAtomically(path, bytes);
}

}  // namespace flowscope
