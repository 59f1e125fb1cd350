// Graph: nodes, versions and a function library. Nodes are shared copy-on-write, so snapshots are cheap.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/edge_index.h"
#include "ir/node.h"
#include "ir/op_def.h"

namespace flowscope {

struct VersionInfo {
  bool present = false;  ///< a GraphDef may have no `versions` field at all
  int32_t producer = 0;
  int32_t minConsumer = 0;
  std::vector<int32_t> badConsumers;
  bool operator==(const VersionInfo&) const = default;
};

class Graph;

/// A library function (FunctionDef): signature, body, ret and control_ret maps, attrs and per-arg attrs.
struct FunctionDef {
  OpDef signature;
  AttrMap attrs;
  std::map<uint32_t, AttrMap> argAttrs;
  std::map<uint32_t, uint32_t> resourceArgUniqueIds;
  std::shared_ptr<Graph> body;                    ///< node inputs use function naming (TensorRef::outputArg)
  std::map<std::string, std::string> ret;         ///< output arg -> "node:out_arg:i" or an input arg name
  std::map<std::string, std::string> controlRet;  ///< control output -> body node name

  const std::string& name() const { return signature.name; }
};

struct GradientDef {
  std::string functionName;
  std::string gradientFunc;
  bool operator==(const GradientDef&) const = default;
};

/// FunctionDefLibrary: functions in file order plus gradient mappings.
class FunctionLibrary {
 public:
  const std::vector<FunctionDef>& functions() const { return m_functions; }
  std::vector<FunctionDef>& mutableFunctions() { return m_functions; }
  const FunctionDef* find(const std::string& name) const;
  /// Adds or replaces by name.
  void add(FunctionDef function);
  bool empty() const { return m_functions.empty() && gradients.empty() && registeredGradients.empty(); }
  size_t size() const { return m_functions.size(); }

  std::vector<GradientDef> gradients;
  std::vector<GradientDef> registeredGradients;  ///< (gradient_func, registered_op_type) in the same two fields

 private:
  std::vector<FunctionDef> m_functions;
};

class Graph {
 public:
  Graph() = default;
  /// Cheap copy: shares nodes (copy-on-write), function bodies and the name index until either side changes.
  Graph(const Graph& other);
  Graph& operator=(const Graph& other);
  Graph(Graph&& other) noexcept;
  Graph& operator=(Graph&& other) noexcept;

  size_t size() const { return m_nodes.size(); }
  const Node& node(size_t i) const { return *m_nodes[i]; }
  /// Index of the first node with this name, or -1.
  int64_t find(const std::string& name) const;
  const Node* findNode(const std::string& name) const;
  /// Appends a node (duplicates are allowed so that the verifier can report them).
  size_t addNode(Node node);
  /// Mutable access; clones the node first when a snapshot still shares it. Do not change the name here:
  /// use renameNode so the name index stays right.
  Node& mutableNode(size_t i);
  void renameNode(size_t i, const std::string& newName);
  /// Removes every node for which `drop` is true, keeping the order of the rest.
  void removeNodes(const std::function<bool(const Node&)>& drop);
  /// Op histogram (op -> count), ordered by op name.
  std::map<std::string, size_t> opHistogram() const;
  /// The edges as node indices, built on first use (thread-safe for const readers) and shared with copies until
  /// either side changes its nodes. Holders keep the index of the graph as it was when they asked.
  std::shared_ptr<const EdgeIndex> edges() const;

  VersionInfo versions;
  FunctionLibrary library;
  std::string debugInfo;  ///< serialized GraphDebugInfo, kept opaque so round trips lose nothing
  /// ONNX: the file's names of node outputs ("node:k" -> "input.4"; "" for an output the file leaves empty), so that
  /// writing back keeps them. Outputs without an entry get a name from their node. Empty for TensorFlow graphs.
  std::map<std::string, std::string> tensorNames;

 private:
  using NameIndex = std::unordered_map<std::string, size_t>;
  /// The name index, built on first use (thread-safe for const readers) and shared with copies.
  std::shared_ptr<const NameIndex> index() const;
  /// The index for in-place updates, or null when there is none yet (it will be built on demand).
  NameIndex* ownIndex();

  std::vector<std::shared_ptr<const Node>> m_nodes;
  /// Replaces the index (null: build on demand) and its lock-free view.
  void setIndex(std::shared_ptr<const NameIndex> index) const;

  mutable std::shared_ptr<const NameIndex> m_index;
  mutable std::atomic<const NameIndex*> m_indexView{nullptr};  ///< m_index.get(), read without the lock by find()
  mutable std::mutex m_indexMutex;

  /// The edge index if built; dropEdges() forgets it when the nodes change.
  std::shared_ptr<const EdgeIndex> builtEdges() const;
  void dropEdges() { m_edges.reset(); }
  mutable std::shared_ptr<const EdgeIndex> m_edges;
  mutable std::mutex m_edgesMutex;
};

}  // namespace flowscope
