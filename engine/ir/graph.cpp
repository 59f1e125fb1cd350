// Graph storage and the function library.
#include "ir/graph.h"

namespace flowscope {

const FunctionDef* FunctionLibrary::find(const std::string& name) const {
  for (const auto& f : m_functions)
    if (f.name() == name) return &f;
  return nullptr;
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

Graph::Graph(const Graph& other)
    : versions(other.versions),
      library(other.library),
      debugInfo(other.debugInfo),
      tensorNames(other.tensorNames),
      m_nodes(other.m_nodes),
      m_edges(other.builtEdges()) {
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
      m_edges(std::move(other.m_edges)) {
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
  setIndex(std::move(other.m_index));
  other.setIndex(nullptr);
  return *this;
}

std::shared_ptr<const Graph::NameIndex> Graph::index() const {
  std::lock_guard lock(m_indexMutex);
  if (!m_index) {
    auto built = std::make_shared<NameIndex>();
    built->reserve(m_nodes.size());
    for (size_t i = 0; i < m_nodes.size(); ++i) built->emplace(m_nodes[i]->name, i);  // first one wins
    setIndex(std::move(built));
  }
  return m_index;
}

Graph::NameIndex* Graph::ownIndex() {
  // Only a non-const caller gets here, and a Graph is not mutated while others read it.
  if (!m_index) return nullptr;
  if (m_index.use_count() > 1) setIndex(std::make_shared<NameIndex>(*m_index));
  return const_cast<NameIndex*>(m_index.get());
}

int64_t Graph::find(const std::string& name) const {
  const NameIndex* view = m_indexView.load(std::memory_order_acquire);
  if (!view) view = index().get();  // m_index keeps it alive: graphs are not changed while they are read
  auto it = view->find(name);
  return it == view->end() ? -1 : static_cast<int64_t>(it->second);
}

const Node* Graph::findNode(const std::string& name) const {
  int64_t i = find(name);
  return i < 0 ? nullptr : m_nodes[static_cast<size_t>(i)].get();
}

size_t Graph::addNode(Node node) {
  dropEdges();
  size_t index = m_nodes.size();
  if (NameIndex* own = ownIndex()) own->emplace(node.name, index);  // keeps the first on duplicates
  m_nodes.push_back(std::make_shared<const Node>(std::move(node)));
  return index;
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
  NameIndex* own = ownIndex();
  if (!own) return;
  if (own->size() != m_nodes.size()) {  // duplicate names (an invalid graph): rebuild on demand
    setIndex(nullptr);
    return;
  }
  own->erase(oldName);
  if (!own->emplace(newName, i).second) setIndex(nullptr);  // the new name duplicates another node's
}

void Graph::removeNodes(const std::function<bool(const Node&)>& drop) {
  size_t before = m_nodes.size();
  std::erase_if(m_nodes, [&](const std::shared_ptr<const Node>& n) { return drop(*n); });
  if (m_nodes.size() != before) {
    setIndex(nullptr);
    dropEdges();
  }
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
