// ImportedProfile: a run profiled by another tool (TensorFlow's profiler, TensorBoard, ONNX Runtime, PyTorch), as
// its events, what they were matched to in a graph, and what did not fit (warnings; unmatched events keep their time).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/model.h"
#include "profile/run_profile.h"

namespace flowscope {

struct ImportedEvent {
  NodeEvent event;    ///< event.name is the tool's name until matched, then the (first) graph node's name
  std::string label;  ///< the event's name as the tool wrote it
  std::string kind;   ///< the tool's category: "op", "kernel", "Node", "cpu_op", ...
  /// Names that may name a graph node or one of its output tensors, most likely first.
  std::vector<std::string> candidates;
  std::vector<std::vector<int64_t>> inputShapes, outputShapes;  ///< when the tool recorded them
  int parent = -1;                 ///< index of the op event that launched this one (a GPU kernel); it shares its match
  bool inTables = true;            ///< false for events nested in another counted event (their time is already there)
  bool nodeEvent = true;           ///< false for what is about no node (sessions, runtime calls): kept, never matched
  std::vector<std::string> nodes;  ///< the graph nodes it covers after matching (fused ones too); empty: unmatched
  std::string matchedBy;           ///< "name", "output", "order", "parent"
};

struct ImportedProfile {
  std::string format;  ///< "ONNX Runtime profile", "Chrome trace", "TensorFlow profiler XSpace", ...
  std::vector<ImportedEvent> events;
  std::vector<std::string> warnings;       ///< what loaded but looked wrong (each says which event or record)
  std::map<int, std::string> threadNames;  ///< NodeEvent::thread -> "host:CPU python3", "GPU 0 stream 7"
  std::shared_ptr<const Model> graph;      ///< the graph the file carries (TensorBoard), or null

  /// The events the tables count, named after their node when matched (as our own runs name them); an event that
  /// covers several nodes lists them as fused (NodeEvent::fusedFrom).
  RunProfile toRunProfile() const;
  size_t matchedCount() const;
  size_t nodeEventCount() const;
  /// Indices of node events that match no node, in file order.
  std::vector<size_t> unmatched() const;
  /// Shifts every event so that the earliest starts at 0; events ending before they start become empty, with a
  /// warning each (the first few named); run indices are kept.
  void normalizeTimes();
};

/// Assigns run indices where the tool marks none: the sequence of top-level op names of the whole trace repeats
/// every P events (P dividing their count); event i of them is run i / P. Nested events take their parent's run.
void assignRunsByPeriod(ImportedProfile* profile);

}  // namespace flowscope
