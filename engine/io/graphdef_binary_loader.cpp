// Loader for binary GraphDef files (.pb): frozen graphs and exported graphs.
#include <google/protobuf/arena.h>

#include "base/background_work.h"
#include "io/graph_def_parse.h"
#include "io/loader.h"
#include "io/model_builder.h"
#include "io/proto_parse.h"

namespace flowscope {
namespace {

google::protobuf::ArenaOptions arenaOptions() {
  google::protobuf::ArenaOptions options;
  options.start_block_size = 64 << 10;
  options.max_block_size = 4 << 20;
  return options;
}

class GraphDefBinaryLoader : public Loader {
 public:
  std::string name() const override { return "GraphDef (binary)"; }

  float match(const Source& source) const override {
    if (source.isDirectory() || source.head().empty()) return 0;
    bool complete = false;
    auto fields = scanWireFields(source.head(), 64, &complete);
    if (fields.empty()) return 0;
    int nodes = 0;
    for (const auto& f : fields) {
      bool ok = (f.number == 1 && f.wireType == 2) || (f.number == 2 && f.wireType == 2) ||
                (f.number == 3 && f.wireType == 0) || (f.number == 4 && f.wireType == 2) ||
                (f.number == 5 && f.wireType == 2);
      if (!ok) return 0;
      nodes += f.number == 1;
    }
    return nodes > 1 ? 0.8f : 0.5f;
  }

  Expected<Model> load(const Source& source, const LoadOptions&) const override {
    FS_ASSIGN_OR_RETURN(FileBytes data, source.readBytes());
    // A few large blocks, not a malloc and a free per field; freed on the background thread once the graph is built
    // (freeing a million nodes' strings takes a third of a second nobody needs to wait for).
    auto arena = std::make_unique<google::protobuf::Arena>(arenaOptions());
    auto* proto = google::protobuf::Arena::CreateMessage<tensorflow::GraphDef>(arena.get());
    FS_RETURN_IF_ERROR(parseGraphDef(data.view(), proto, source.path()));
    const DecodeLimits limits = decodeLimitsFor(data.size);
    data = FileBytes();  // the parsed message holds its own copy: give the file's bytes back first
    auto model = modelFromGraphDef(*proto, source.path(), name(), limits);
    destroyInBackground(std::move(arena));
    return model;
  }
};

}  // namespace

std::unique_ptr<Loader> makeGraphDefBinaryLoader() { return std::make_unique<GraphDefBinaryLoader>(); }

}  // namespace flowscope
