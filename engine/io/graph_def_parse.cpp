// Parsing a binary GraphDef on the intra-op threads.
#include "io/graph_def_parse.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/thread_pool.h"
#include "io/proto_parse.h"

namespace flowscope {
namespace {

constexpr size_t kMinPieceBytes = 8u << 20;  // below this a piece is not worth a thread

// Offsets that cut `data` at top-level field boundaries into about `pieces` runs of similar size, from 0 to the end;
// empty when the fields do not scan cleanly (then the one-piece parse reports what is wrong).
std::vector<size_t> pieceBounds(std::string_view data, size_t pieces) {
  bool complete = false;
  const std::vector<WireField> fields = scanWireFields(data, SIZE_MAX, &complete);
  if (!complete || fields.empty()) return {};
  std::vector<size_t> bounds{0};
  size_t f = 0;
  for (size_t k = 1; k < pieces; ++k) {
    const size_t target = data.size() / pieces * k;
    while (f < fields.size() && fields[f].offset < target) ++f;
    if (f < fields.size() && fields[f].offset > bounds.back()) bounds.push_back(fields[f].offset);
  }
  bounds.push_back(data.size());
  return bounds;
}

// Appends the nodes of `piece` to `graph` in order (moved, not copied: both live on the same arena or on none).
void moveNodes(tensorflow::GraphDef* piece, tensorflow::GraphDef* graph) {
  auto* from = piece->mutable_node();
  std::vector<tensorflow::NodeDef*> nodes(static_cast<size_t>(from->size()));
  auto* to = graph->mutable_node();
  to->Reserve(to->size() + from->size());
  if (graph->GetArena()) {
    from->UnsafeArenaExtractSubrange(0, from->size(), nodes.data());
    for (auto* node : nodes) to->UnsafeArenaAddAllocated(node);
  } else {
    from->ExtractSubrange(0, from->size(), nodes.data());
    for (auto* node : nodes) to->AddAllocated(node);
  }
}

}  // namespace

Status parseGraphDef(std::string_view data, tensorflow::GraphDef* graph, const std::string& path) {
  const size_t pieces = std::min(static_cast<size_t>(std::max(intraOpThreads(), 1)), data.size() / kMinPieceBytes);
  return parseGraphDefInPieces(data, graph, path, pieces);
}

Status parseGraphDefInPieces(std::string_view data, tensorflow::GraphDef* graph, const std::string& path,
                             size_t pieces) {
  const std::vector<size_t> bounds =
      pieces < 2 || data.size() > static_cast<size_t>(INT32_MAX) ? std::vector<size_t>{} : pieceBounds(data, pieces);
  if (bounds.size() < 3) return parseBinaryProto(data, graph, path);
  google::protobuf::Arena* arena = graph->GetArena();
  std::vector<tensorflow::GraphDef*> parts(bounds.size() - 1, graph);
  for (size_t k = 1; k < parts.size(); ++k)
    parts[k] = google::protobuf::Arena::CreateMessage<tensorflow::GraphDef>(arena);
  std::vector<char> parsed(parts.size(), 0);
  parallelFor(static_cast<int64_t>(parts.size()), int64_t{1} << 30, [&](int64_t begin, int64_t end) {
    for (auto k = static_cast<size_t>(begin); k < static_cast<size_t>(end); ++k)
      parsed[k] = parts[k]->ParseFromArray(data.data() + bounds[k], static_cast<int>(bounds[k + 1] - bounds[k]));
  });
  const bool ok = std::all_of(parsed.begin(), parsed.end(), [](char p) { return p != 0; });
  for (size_t k = 1; k < parts.size(); ++k) {
    if (ok) {
      moveNodes(parts[k], graph);
      graph->MergeFrom(*parts[k]);  // versions, library, debug info: merged as one parse would
    }
    if (!arena) delete parts[k];
  }
  if (ok) return Status::ok();
  graph->Clear();
  return parseBinaryProto(data, graph, path);  // names the offset of what is wrong
}

}  // namespace flowscope
