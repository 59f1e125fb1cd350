// PassManager: runs the pass pipeline and records a PassRecord per pass, with a snapshot of the graph after it.
// Snapshots share unchanged nodes with each other (copy-on-write), so a long pipeline over a big graph stays cheap.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ir/model.h"
#include "ir/node_evaluator.h"
#include "passes/pass.h"
#include "passes/pass_registry.h"

namespace flowscope {

struct PassRecord {
  std::string pass;  ///< PassInfo::name
  int iteration = 0;
  bool changed = false;
  size_t nodesBefore = 0, nodesAfter = 0;
  size_t edgesBefore = 0, edgesAfter = 0;
  uint64_t hashBefore = 0, hashAfter = 0;
  PassStats stats;
  double seconds = 0;
  std::string error;                      ///< non-empty: the pass failed and its result was dropped
  std::shared_ptr<const Graph> snapshot;  ///< the graph after this pass
};

struct PipelineOptions {
  std::vector<const PassInfo*> passes;  ///< empty: the default pipeline
  int iterations = 2;                   ///< Grappler runs the list twice
  bool verify = true;                   ///< verify after each pass (a pass that breaks the graph is dropped)
  bool keepSnapshots = true;
  /// After the graph, the same passes over the bodies of the functions it reaches (a last "function_library" record
  /// when some body changed).
  bool optimizeFunctions = true;
  const std::atomic<bool>* cancelled = nullptr;
  /// Runs nodes on constant inputs for constant folding (a backend's kernels); null: nothing is folded.
  const NodeEvaluator* evaluator = nullptr;
  std::function<void(size_t done, size_t total, const std::string& pass)> progress;
};

struct PipelineResult {
  std::shared_ptr<const Graph> input;
  std::shared_ptr<const Graph> output;
  std::vector<PassRecord> records;
  double seconds = 0;
};

/// Parses "--passes": a comma-separated list. Plain names give the exact order; "+name"/"-name" turn passes on
/// or off in the default pipeline. Names are PassInfo names or Grappler's short names.
Expected<std::vector<const PassInfo*>> parsePassList(const std::string& text);
/// The passes that are on by default, in order.
std::vector<const PassInfo*> defaultPasses();

/// Data plus control edges.
size_t countEdges(const Graph& graph);

class PassManager {
 public:
  explicit PassManager(PipelineOptions options = {});
  /// Optimizes `graph`, preserving the named nodes. Fails only when cancelled.
  Expected<PipelineResult> run(const Graph& graph, std::set<std::string> preserved, bool fetchesKnown) const;

 private:
  struct PipelineState;
  Expected<PassRecord> runPass(const PassInfo& info, int iteration, PipelineState& state,
                               const PreservedNames& preserved, bool fetchesKnown) const;
  Expected<PassRecord> runOnFunctionLibrary(int iteration, PipelineState& state) const;
  PipelineOptions m_options;
};

/// The nodes a model's users can observe: placeholders (feeds), signature inputs and outputs, or the graph's
/// sinks when there is no signature. `fetchesKnown` says whether the fetch set is complete.
std::set<std::string> modelNodesToPreserve(const Model& model, bool* fetchesKnown);

}  // namespace flowscope
