// Structural hash of graphs: equal graphs (node order aside) hash equal; any change to ops, edges, attrs,
// tensors, devices, versions or functions changes the hash.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

uint64_t hashNode(const Node& node);
uint64_t hashFunction(const FunctionDef& function);
uint64_t hashAttrs(const AttrMap& attrs);

/// Node hashes by node object. Nodes are immutable while shared, so a pass manager hashing successive
/// snapshots rehashes only the nodes a pass replaced. Holds only the nodes of the last graph hashed, in an
/// open-addressing table (a graph's hash touches every node, so this is the hot path of big graphs).
class NodeHashCache {
 public:
  /// The cached hash of `node`, or null.
  const uint64_t* find(const Node* node) const;
  bool contains(const Node* node) const { return find(node) != nullptr; }
  size_t size() const { return m_size; }
  /// Forgets everything and makes room for `nodes` entries.
  void reset(size_t nodes);
  /// Adds an entry (a node already there keeps its first hash).
  void insert(const Node* node, uint64_t hash);

  /// Function body hashes by body object, kept from graph to graph (reset() leaves them): a pipeline over a graph
  /// with a library hashes each body once, until a pass gives the function a new body. Holds the bodies alive, so
  /// an address is never reused with an old hash.
  const uint64_t* findBody(const Graph* body) const;
  void insertBody(std::shared_ptr<const Graph> body, uint64_t hash);
  /// Takes over `other`'s body hashes.
  void keepBodiesOf(const NodeHashCache& other) { m_bodies = other.m_bodies; }

 private:
  using BodyHashes = std::unordered_map<const Graph*, std::pair<std::shared_ptr<const Graph>, uint64_t>>;
  size_t slotOf(const Node* node) const;
  std::vector<std::pair<const Node*, uint64_t>> m_slots;  ///< null node: empty slot
  size_t m_size = 0;
  std::shared_ptr<BodyHashes> m_bodies;
};

/// Independent of node order (TensorFlow does not give node order a meaning). With a cache, the caller keeps the
/// previously hashed graph alive until this call returns.
uint64_t hashGraph(const Graph& graph, NodeHashCache* cache = nullptr);

}  // namespace flowscope
