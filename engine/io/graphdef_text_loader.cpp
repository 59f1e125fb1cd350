// Loader for text GraphDef files (.pbtxt), including files that start with '#' comment lines.
#include "io/loader.h"
#include "io/model_builder.h"
#include "io/proto_parse.h"

namespace flowscope {
namespace {

class GraphDefTextLoader : public Loader {
 public:
  std::string name() const override { return "GraphDef (text)"; }

  float match(const Source& source) const override {
    if (source.isDirectory() || !looksLikeText(source.head())) return 0;
    const std::string& head = source.head();
    if (head.find("meta_graphs") != std::string::npos || head.find("graph_def") != std::string::npos) return 0.1f;
    for (const char* key : {"node {", "node{", "library {", "library{", "versions {", "versions{"})
      if (head.find(key) != std::string::npos) return 0.9f;
    return 0.2f;
  }

  Expected<Model> load(const Source& source, const LoadOptions&) const override {
    FS_ASSIGN_OR_RETURN(std::string text, source.readAll());
    tensorflow::GraphDef proto;
    FS_RETURN_IF_ERROR(parseTextProto(text, &proto, source.path()));
    return modelFromGraphDef(proto, source.path(), name(), decodeLimitsFor(text.size()));
  }
};

}  // namespace

std::unique_ptr<Loader> makeGraphDefTextLoader() { return std::make_unique<GraphDefTextLoader>(); }

}  // namespace flowscope
