// Graph: nodes, versions and a function library. Nodes are shared copy-on-write, so snapshots are cheap.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
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
  /// True when `other` holds the same function objects in the same order (bodies shared, not compared node by node):
  /// a copy that no rewrite has touched.
  bool sameFunctionsAs(const FunctionLibrary& other) const;
  size_t size() const { return m_functions.size(); }

  std::vector<GradientDef> gradients;
  std::vector<GradientDef> registeredGradients;  ///< (gradient_func, registered_op_type) in the same two fields

 private:
  std::vector<FunctionDef> m_functions;
};

/// Node name -> index of the first node with that name, holding no copy of the names: each slot keeps a node index
/// and the hash of its name, and lookups compare with the node's own name. It serves any node list whose nodes have
/// the same names at the same places (a graph and its copies, until one of them renames, adds or removes nodes).
class NameIndex {
 public:
  using Nodes = std::vector<std::shared_ptr<const Node>>;

  /// Indexes every node; the first of each name wins.
  explicit NameIndex(const Nodes& nodes);
  /// Index of the node named `name`, or -1.
  int64_t find(std::string_view name, const Nodes& nodes) const;
  /// Adds node `i` under its name; false (and no change) when the name is indexed already.
  bool insert(size_t i, const Nodes& nodes);
  /// Removes node `i`, indexed under `name`.
  void erase(std::string_view name, size_t i);
  /// How many names are indexed.
  size_t size() const { return m_size; }
  /// The index of the nodes left after a removal: `newIndex` maps each old node to its new index, or to kRemoved.
  /// Only for an index without duplicate names.
  NameIndex remapped(const std::vector<uint32_t>& newIndex, size_t count) const;
  static constexpr uint32_t kRemoved = UINT32_MAX;

 private:
  struct Slot {
    uint32_t hash;
    uint32_t node;
  };
  static constexpr uint32_t kEmpty = UINT32_MAX;
  NameIndex() = default;
  static uint32_t hashOf(std::string_view name);
  /// insert() with the name's hash already taken.
  bool insertHashed(size_t i, uint32_t hash, const Nodes& nodes);
  size_t home(uint32_t hash) const { return hash & m_mask; }
  /// The slot holding `name`, or the empty slot where it would go.
  size_t slotOf(std::string_view name, uint32_t hash, const Nodes& nodes) const;
  void rehash(size_t capacity);

  std::vector<Slot> m_slots;
  size_t m_mask = 0;
  size_t m_size = 0;
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
  /// Appends `count` nodes, the k-th made by make(k, &node) on the intra-op threads (make must be thread-safe).
  /// When some make() fails, adds none and returns the failure of the lowest k.
  Status addNodes(size_t count, const std::function<Status(size_t k, Node* node)>& make);
  /// Makes room for `count` nodes.
  void reserve(size_t count) { m_nodes.reserve(count); }
  /// Mutable access; clones the node first when a snapshot still shares it. Do not change the name here:
  /// use renameNode so the name index stays right.
  Node& mutableNode(size_t i);
  void renameNode(size_t i, const std::string& newName);
  /// Replaces node i by `node` without copying the old one first; the name index follows a change of name.
  void replaceNode(size_t i, Node node);
  /// True when no two nodes share a name.
  bool namesUnique() const { return index()->size() == m_nodes.size(); }
  /// Removes every node for which `drop` is true, keeping the order of the rest.
  void removeNodes(const std::function<bool(const Node&)>& drop);
  /// Removes node i wherever drop[i] is true (drop has one entry per node), keeping the order of the rest.
  void removeNodes(const std::vector<bool>& drop);
  /// Op histogram (op -> count), ordered by op name.
  std::map<std::string, size_t> opHistogram() const;
  /// The edges as node indices, built on first use (thread-safe for const readers) and shared with copies until
  /// either side changes its nodes. Holders keep the index of the graph as it was when they asked.
  std::shared_ptr<const EdgeIndex> edges() const;
  /// Records that these nodes passed the verifier (verifyGraph found nothing); copies keep the mark and any change
  /// to the nodes clears it, so a pipeline can check only what its passes change. Changes to `library` are not
  /// tracked here: a pipeline compares libraries (FunctionLibrary::sameFunctionsAs) before trusting the mark.
  void markVerified() { m_verified = true; }
  bool knownVerified() const { return m_verified; }

  VersionInfo versions;
  FunctionLibrary library;
  std::string debugInfo;  ///< serialized GraphDebugInfo, kept opaque so round trips lose nothing
  /// ONNX: the file's names of node outputs ("node:k" -> "input.4"; "" for an output the file leaves empty), so that
  /// writing back keeps them. Outputs without an entry get a name from their node. Empty for TensorFlow graphs.
  std::map<std::string, std::string> tensorNames;

 private:
  /// The name index, built on first use (thread-safe for const readers) and shared with copies.
  std::shared_ptr<const NameIndex> index() const;
  /// The index for in-place updates, or null when there is none yet (it will be built on demand).
  NameIndex* ownIndex();
  /// After node i was renamed from `oldName`: updates the index, or drops it to be rebuilt on demand.
  void reindex(size_t i, const std::string& oldName);

  std::vector<std::shared_ptr<const Node>> m_nodes;
  /// Replaces the index (null: build on demand) and its lock-free view.
  void setIndex(std::shared_ptr<const NameIndex> index) const;

  mutable std::shared_ptr<const NameIndex> m_index;
  mutable std::atomic<const NameIndex*> m_indexView{nullptr};  ///< m_index.get(), read without the lock by find()
  mutable std::mutex m_indexMutex;

  /// The edge index if built; dropEdges() forgets it (and the verified mark) when the nodes change.
  std::shared_ptr<const EdgeIndex> builtEdges() const;
  void dropEdges() {
    m_edges.reset();
    m_verified = false;
  }
  mutable std::shared_ptr<const EdgeIndex> m_edges;
  mutable std::mutex m_edgesMutex;
  bool m_verified = false;
};

}  // namespace flowscope
