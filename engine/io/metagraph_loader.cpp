// Loader for MetaGraphDef files (.meta, binary or text): a graph plus signatures and saver info.
#include "io/loader.h"
#include "io/model_builder.h"
#include "io/proto_parse.h"

namespace flowscope {
namespace {

class MetaGraphLoader : public Loader {
 public:
  std::string name() const override { return "MetaGraphDef"; }

  float match(const Source& source) const override {
    if (source.isDirectory() || source.head().empty()) return 0;
    if (looksLikeText(source.head())) {
      const std::string& head = source.head();
      bool meta = head.find("meta_info_def") != std::string::npos || head.find("graph_def") != std::string::npos;
      return meta && head.find("meta_graphs") == std::string::npos ? 0.9f : 0;
    }
    bool complete = false;
    auto fields = scanWireFields(source.head(), 64, &complete);
    int infos = 0, graphs = 0, metaOnly = 0;
    for (const auto& f : fields) {
      if (f.number < 1 || f.number > 7 || f.wireType != 2) return 0;
      infos += f.number == 1;
      graphs += f.number == 2;
      metaOnly += f.number >= 3;  // saver_def, collections, signatures, assets, object graph
    }
    if (infos > 1 || graphs > 1 || graphs + infos == 0) return 0;
    // A GraphDef starts with NodeDefs whose first byte is the name tag (0x0a); a MetaInfoDef usually does not. (The
    // payload starts after the length varint, which takes 3 bytes before a 2 MB Const.)
    bool infoFirstByteIsName = !fields.empty() && fields[0].number == 1 && source.head().size() > fields[0].payload &&
                               source.head()[fields[0].payload] == 0x0a;
    if (metaOnly > 0 || (infos == 1 && !infoFirstByteIsName)) return 0.85f;
    return 0.3f;
  }

  Expected<Model> load(const Source& source, const LoadOptions&) const override {
    FS_ASSIGN_OR_RETURN(std::string data, source.readAll());
    tensorflow::MetaGraphDef meta;
    if (looksLikeText(source.head()))
      FS_RETURN_IF_ERROR(parseTextProto(data, &meta, source.path()));
    else
      FS_RETURN_IF_ERROR(parseBinaryProto(data, &meta, source.path()));
    return modelFromMetaGraph(meta, source.path(), name(), decodeLimitsFor(data.size()));
  }
};

}  // namespace

std::unique_ptr<Loader> makeMetaGraphLoader() { return std::make_unique<MetaGraphLoader>(); }

}  // namespace flowscope
