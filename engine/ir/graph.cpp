// Graph storage and the function library.
#include "ir/graph.h"

#include "base/thread_pool.h"

#include <algorithm>
#include <bit>
#include <utility>

namespace flowscope {

const FunctionDef* FunctionLibrary::find(const std::string& name) const {
  for (const auto& f : m_functions)
    if (f.name() == name) return &f;
  return nullptr;
}

bool FunctionLibrary::sameFunctionsAs(const FunctionLibrary& other) const {
  if (m_functions.size() != other.m_functions.size() || gradients != other.gradients ||
      registeredGradients != other.registeredGradients)
    return false;
  for (size_t i = 0; i < m_functions.size(); ++i) {
    const FunctionDef &a = m_functions[i], &b = other.m_functions[i];
    if (a.body != b.body || a.name() != b.name() || a.ret != b.ret || a.controlRet != b.controlRet ||
        a.attrs != b.attrs || a.signature.inputs.size() != b.signature.inputs.size() ||
        a.signature.outputs.size() != b.signature.outputs.size())
      return false;
  }
  return true;
}

void FunctionLibrary::add(FunctionDef function) {
  for (auto& f : m_functions) {
    if (f.name() == function.name()) {
      f = std::move(function);
      return;
    }
  }
  m_functions.push_back(std::move(function));
}

// The names are hashed on the intra-op threads; the inserts stay in node order (the first of each name wins), each
// prefetching the home slot of a name a few nodes ahead, since on a large graph every probe is a cache miss.
NameIndex::NameIndex(const Nodes& nodes) {
  const size_t n = nodes.size();
  rehash(std::max<size_t>(16, std::bit_ceil(n * 2)));
  std::vector<uint32_t> hashes(n);
  parallelFor(static_cast<int64_t>(n), 50, [&](int64_t begin, int64_t end) {
    for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) hashes[i] = hashOf(nodes[i]->name);
  });
  constexpr size_t kAhead = 16;
  for (size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) __builtin_prefetch(&m_slots[home(hashes[i + kAhead])]);
    insertHashed(i, hashes[i], nodes);
  }
}

uint32_t NameIndex::hashOf(std::string_view name) { return static_cast<uint32_t>(std::hash<std::string_view>{}(name)); }

size_t NameIndex::slotOf(std::string_view name, uint32_t hash, const Nodes& nodes) const {
  for (size_t s = home(hash);; s = (s + 1) & m_mask) {
    const Slot& slot = m_slots[s];
    if (slot.node == kEmpty || (slot.hash == hash && nodes[slot.node]->name == name)) return s;
  }
}

int64_t NameIndex::find(std::string_view name, const Nodes& nodes) const {
  const Slot& slot = m_slots[slotOf(name, hashOf(name), nodes)];
  return slot.node == kEmpty ? -1 : static_cast<int64_t>(slot.node);
}

bool NameIndex::insert(size_t i, const Nodes& nodes) { return insertHashed(i, hashOf(nodes[i]->name), nodes); }

bool NameIndex::insertHashed(size_t i, uint32_t hash, const Nodes& nodes) {
  if ((m_size + 1) * 2 > m_slots.size()) rehash(m_slots.size() * 2);
  Slot& slot = m_slots[slotOf(nodes[i]->name, hash, nodes)];
  if (slot.node != kEmpty) return false;
  slot = {hash, static_cast<uint32_t>(i)};
  ++m_size;
  return true;
}

// Linear probing with backward-shift deletion: entries after the hole move into it unless they are already at or
// after their home slot on the way from the hole.
void NameIndex::erase(std::string_view name, size_t i) {
  size_t hole = home(hashOf(name));
  while (m_slots[hole].node != i) {
    if (m_slots[hole].node == kEmpty) return;
    hole = (hole + 1) & m_mask;
  }
  for (size_t j = (hole + 1) & m_mask; m_slots[j].node != kEmpty; j = (j + 1) & m_mask) {
    if (((j - home(m_slots[j].hash)) & m_mask) < ((j - hole) & m_mask)) continue;
    m_slots[hole] = m_slots[j];
    hole = j;
  }
  m_slots[hole].node = kEmpty;
  --m_size;
}

NameIndex NameIndex::remapped(const std::vector<uint32_t>& newIndex, size_t count) const {
  NameIndex out;
  out.rehash(std::max<size_t>(16, std::bit_ceil(count * 2)));
  for (const Slot& slot : m_slots) {
    if (slot.node == kEmpty || newIndex[slot.node] == kRemoved) continue;
    size_t s = out.home(slot.hash);
    while (out.m_slots[s].node != kEmpty) s = (s + 1) & out.m_mask;
    out.m_slots[s] = {slot.hash, newIndex[slot.node]};
    ++out.m_size;
  }
  return out;
}

void NameIndex::rehash(size_t capacity) {
  std::vector<Slot> old = std::exchange(m_slots, std::vector<Slot>(capacity, Slot{0, kEmpty}));
  m_mask = capacity - 1;
  for (const Slot& slot : old) {
    if (slot.node == kEmpty) continue;
    size_t s = home(slot.hash);
    while (m_slots[s].node != kEmpty) s = (s + 1) & m_mask;
    m_slots[s] = slot;
  }
}

Graph::Graph(const Graph& other)
    : versions(other.versions),
      library(other.library),
      debugInfo(other.debugInfo),
      tensorNames(other.tensorNames),
      m_nodes(other.m_nodes),
      m_edges(other.builtEdges()),
      m_verified(other.m_verified) {
  setIndex(other.index());
}

void Graph::setIndex(std::shared_ptr<const NameIndex> index) const {
  m_indexView.store(index.get(), std::memory_order_release);
  m_index = std::move(index);
}

Graph& Graph::operator=(const Graph& other) {
  if (this == &other) return *this;
  auto shared = other.index();
  auto edges = other.builtEdges();
  versions = other.versions;
  library = other.library;
  debugInfo = other.debugInfo;
  tensorNames = other.tensorNames;
  m_nodes = other.m_nodes;
  m_edges = std::move(edges);
  m_verified = other.m_verified;
  std::lock_guard lock(m_indexMutex);
  setIndex(std::move(shared));
  return *this;
}

Graph::Graph(Graph&& other) noexcept
    : versions(std::move(other.versions)),
      library(std::move(other.library)),
      debugInfo(std::move(other.debugInfo)),
      tensorNames(std::move(other.tensorNames)),
      m_nodes(std::move(other.m_nodes)),
      m_edges(std::move(other.m_edges)),
      m_verified(other.m_verified) {
  setIndex(std::move(other.m_index));
  other.setIndex(nullptr);
}

Graph& Graph::operator=(Graph&& other) noexcept {
  versions = std::move(other.versions);
  library = std::move(other.library);
  debugInfo = std::move(other.debugInfo);
  tensorNames = std::move(other.tensorNames);
  m_nodes = std::move(other.m_nodes);
  m_edges = std::move(other.m_edges);
  m_verified = other.m_verified;
  setIndex(std::move(other.m_index));
  other.setIndex(nullptr);
  return *this;
}

std::shared_ptr<const NameIndex> Graph::index() const {
  std::lock_guard lock(m_indexMutex);
  if (!m_index) {
    setIndex(std::make_shared<NameIndex>(m_nodes));
  }
  return m_index;
}

NameIndex* Graph::ownIndex() {
  // Only a non-const caller gets here, and a Graph is not mutated while others read it.
  if (!m_index) return nullptr;
  if (m_index.use_count() > 1) setIndex(std::make_shared<NameIndex>(*m_index));
  return const_cast<NameIndex*>(m_index.get());
}

int64_t Graph::find(const std::string& name) const {
  const NameIndex* view = m_indexView.load(std::memory_order_acquire);
  if (!view) view = index().get();  // m_index keeps it alive: graphs are not changed while they are read
  return view->find(name, m_nodes);
}

const Node* Graph::findNode(const std::string& name) const {
  int64_t i = find(name);
  return i < 0 ? nullptr : m_nodes[static_cast<size_t>(i)].get();
}

size_t Graph::addNode(Node node) {
  dropEdges();
  size_t index = m_nodes.size();
  m_nodes.push_back(std::make_shared<const Node>(std::move(node)));
  if (NameIndex* own = ownIndex()) own->insert(index, m_nodes);  // keeps the first on duplicates
  return index;
}

Status Graph::addNodes(size_t count, const std::function<Status(size_t, Node*)>& make) {
  dropEdges();
  const size_t first = m_nodes.size();
  m_nodes.resize(first + count);
  std::mutex failureMutex;
  size_t failedAt = count;
  Status failure;
  parallelFor(static_cast<int64_t>(count), 1000, [&](int64_t begin, int64_t end) {
    for (auto k = static_cast<size_t>(begin); k < static_cast<size_t>(end); ++k) {
      Node node;
      if (Status status = make(k, &node); !status) {
        std::lock_guard<std::mutex> lock(failureMutex);
        if (k < failedAt) failedAt = k, failure = std::move(status);
        return;  // the rest of this chunk comes after k
      }
      m_nodes[first + k] = std::make_shared<const Node>(std::move(node));
    }
  });
  if (failedAt < count) {
    m_nodes.resize(first);
    return failure;
  }
  if (NameIndex* own = ownIndex())
    for (size_t i = first; i < m_nodes.size(); ++i) own->insert(i, m_nodes);
  return Status::ok();
}

Node& Graph::mutableNode(size_t i) {
  dropEdges();
  auto& slot = m_nodes[i];
  if (slot.use_count() > 1) slot = std::make_shared<const Node>(*slot);
  return const_cast<Node&>(*slot);  // unique owner now: safe to mutate
}

void Graph::renameNode(size_t i, const std::string& newName) {
  std::string oldName = m_nodes[i]->name;
  mutableNode(i).name = newName;
  reindex(i, oldName);
}

void Graph::replaceNode(size_t i, Node node) {
  dropEdges();
  const auto old = std::exchange(m_nodes[i], std::make_shared<const Node>(std::move(node)));
  if (old->name != m_nodes[i]->name) reindex(i, old->name);
}

void Graph::reindex(size_t i, const std::string& oldName) {
  NameIndex* own = ownIndex();
  if (!own) return;
  if (own->size() != m_nodes.size()) {  // duplicate names (an invalid graph): rebuild on demand
    setIndex(nullptr);
    return;
  }
  own->erase(oldName, i);
  if (!own->insert(i, m_nodes)) setIndex(nullptr);  // the new name duplicates another node's
}

// The name index survives a removal when it has no duplicates (the first of each name is the only one).
void Graph::removeNodes(const std::function<bool(const Node&)>& drop) {
  std::vector<bool> marked(m_nodes.size());
  for (size_t i = 0; i < m_nodes.size(); ++i) marked[i] = drop(*m_nodes[i]);
  removeNodes(marked);
}

void Graph::removeNodes(const std::vector<bool>& drop) {
  const size_t before = m_nodes.size();
  std::vector<uint32_t> newIndex(before);
  size_t kept = 0;
  for (size_t i = 0; i < before; ++i) {
    if (drop[i]) {
      newIndex[i] = NameIndex::kRemoved;
      continue;
    }
    newIndex[i] = static_cast<uint32_t>(kept);
    if (kept != i) m_nodes[kept] = std::move(m_nodes[i]);
    ++kept;
  }
  if (kept == before) return;
  m_nodes.resize(kept);
  dropEdges();
  const bool carry = m_index && m_index->size() == before;
  setIndex(carry ? std::make_shared<const NameIndex>(m_index->remapped(newIndex, kept)) : nullptr);
}

std::shared_ptr<const EdgeIndex> Graph::builtEdges() const {
  std::lock_guard lock(m_edgesMutex);
  return m_edges;
}

std::shared_ptr<const EdgeIndex> Graph::edges() const {
  if (auto built = builtEdges()) return built;
  auto made = std::make_shared<const EdgeIndex>(*this);  // outside the lock: building looks names up
  std::lock_guard lock(m_edgesMutex);
  if (!m_edges) m_edges = std::move(made);
  return m_edges;
}

std::map<std::string, size_t> Graph::opHistogram() const {
  std::map<std::string, size_t> histogram;
  for (const auto& n : m_nodes) ++histogram[n->op];
  return histogram;
}

}  // namespace flowscope
