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

int64_t Graph::find(const std::string& name) const {
  auto it = m_index.find(name);
  return it == m_index.end() ? -1 : static_cast<int64_t>(it->second);
}

const Node* Graph::findNode(const std::string& name) const {
  int64_t i = find(name);
  return i < 0 ? nullptr : m_nodes[static_cast<size_t>(i)].get();
}

size_t Graph::addNode(Node node) {
  size_t index = m_nodes.size();
  m_index.emplace(node.name, index);  // keeps the first on duplicates
  m_nodes.push_back(std::make_shared<const Node>(std::move(node)));
  return index;
}

Node& Graph::mutableNode(size_t i) {
  auto& slot = m_nodes[i];
  if (slot.use_count() > 1) slot = std::make_shared<const Node>(*slot);
  return const_cast<Node&>(*slot);  // unique owner now: safe to mutate
}

void Graph::renameNode(size_t i, const std::string& newName) {
  mutableNode(i).name = newName;
  rebuildIndex();
}

void Graph::removeNodes(const std::function<bool(const Node&)>& drop) {
  std::erase_if(m_nodes, [&](const std::shared_ptr<const Node>& n) { return drop(*n); });
  rebuildIndex();
}

std::map<std::string, size_t> Graph::opHistogram() const {
  std::map<std::string, size_t> histogram;
  for (const auto& n : m_nodes) ++histogram[n->op];
  return histogram;
}

void Graph::rebuildIndex() {
  m_index.clear();
  for (size_t i = 0; i < m_nodes.size(); ++i) m_index.emplace(m_nodes[i]->name, i);
}

}  // namespace flowscope
