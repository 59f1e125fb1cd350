// The Pass contract: a graph rewrite that keeps what the user observes (fetched values, side effects).
#pragma once

#include <algorithm>
#include <atomic>
#include <bitset>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "base/status.h"
#include "ir/graph.h"
#include "ir/node_evaluator.h"

namespace flowscope {

/// Per-pass counters shown next to the pass ("identity_removed": 424, ...).
using PassStats = std::map<std::string, int64_t>;

struct PassResult {
  bool changed = false;
  PassStats stats;
};

/// Names of the preserved nodes, hashed once and shared by the contexts of a pipeline's passes.
class PreservedNames {
 public:
  PreservedNames() = default;
  explicit PreservedNames(const std::set<std::string>& names)
      : m_names(std::make_shared<const std::unordered_set<std::string>>(names.begin(), names.end())) {
    for (const auto& name : names) m_lengths.set(std::min(name.size(), m_lengths.size() - 1));
  }
  /// Asked for every node by several passes: a name of a length no preserved name has is answered without hashing.
  size_t count(const std::string& name) const {
    if (!m_lengths.test(std::min(name.size(), m_lengths.size() - 1))) return 0;
    return m_names && m_names->count(name) ? 1 : 0;
  }

 private:
  std::shared_ptr<const std::unordered_set<std::string>> m_names;
  std::bitset<256> m_lengths;  ///< lengths of the names; the last bit stands for any length from 255 up
};

/// What a pass may read besides the graph.
struct PassContext {
  OpLookup lookup;                      ///< schemas, the graph's own library first
  PreservedNames preserved;             ///< fed and fetched nodes, signature outputs: never removed or renamed
  bool fetchesKnown = false;            ///< true when `preserved` names every fetch (pruning may drop the rest)
  size_t maxConstantBytes = 10u << 20;  ///< constant folding does not create tensors bigger than this
  const std::atomic<bool>* cancelled = nullptr;
  /// Evaluates nodes on constants (constant folding); null: nothing is folded.
  const NodeEvaluator* evaluator = nullptr;

  /// Preserved nodes, plus every node with side effects (see hasSideEffects).
  bool isPreserved(const Node& node) const;
  /// Stateful ops, feeds (placeholders, function args) and ops with no known schema: nothing may be assumed about
  /// them. A preserved node without side effects may still be rewritten in place under its own name.
  bool hasSideEffects(const Node& node) const;
  bool isCancelled() const { return cancelled && cancelled->load(std::memory_order_relaxed); }

 private:
  mutable std::unordered_map<std::string, bool> m_sideEffectsByOp;  // schema lookups are the hot path of big graphs
};

/// A pass with nothing to do returns changed=false, never an error; an error means the pass could not keep the
/// graph's meaning, and the PassManager then keeps the graph from before the pass.
class Pass {
 public:
  virtual ~Pass() = default;
  virtual Expected<PassResult> run(Graph& graph, PassContext& context) = 0;
};

}  // namespace flowscope
