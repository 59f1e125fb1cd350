// The outline tree model.
#include "models/outline_model.h"

#include "ops/op_registry.h"

namespace flowscope {

OutlineModel::OutlineModel(QObject* parent) : QAbstractItemModel(parent) {}

void OutlineModel::setLayout(std::shared_ptr<GraphLayout> layout) {
  beginResetModel();
  m_layout = std::move(layout);
  m_rowOfGroup.clear();
  m_rowOfNode.clear();
  if (m_layout) {
    const ScopeTree& tree = m_layout->tree();
    m_rowOfGroup.assign(tree.groups().size(), 0);
    m_rowOfNode.assign(m_layout->graph().size(), 0);
    for (const ScopeGroup& g : tree.groups()) {
      int row = 0;
      for (int child : g.groups) m_rowOfGroup[static_cast<size_t>(child)] = row++;
      for (size_t node : g.nodes) m_rowOfNode[node] = row++;
    }
  }
  endResetModel();
}

int OutlineModel::groupOfParent(const QModelIndex& parent) const {
  if (!parent.isValid()) return ScopeTree::kRoot;
  return groupAt(parent);
}

int OutlineModel::groupAt(const QModelIndex& index) const {
  if (!index.isValid()) return ScopeTree::kRoot;
  return index.internalId() % 2 == 0 ? static_cast<int>(index.internalId() / 2) : -1;
}

int64_t OutlineModel::nodeAt(const QModelIndex& index) const {
  return index.isValid() && index.internalId() % 2 == 1 ? static_cast<int64_t>(index.internalId() / 2) : -1;
}

QModelIndex OutlineModel::groupIndex(int group) const {
  if (!m_layout || group <= ScopeTree::kRoot || group >= static_cast<int>(m_rowOfGroup.size())) return {};
  return createIndex(m_rowOfGroup[static_cast<size_t>(group)], 0, static_cast<quintptr>(group) * 2);
}

QModelIndex OutlineModel::nodeIndex(size_t node) const {
  if (!m_layout || node >= m_rowOfNode.size()) return {};
  return createIndex(m_rowOfNode[node], 0, static_cast<quintptr>(node) * 2 + 1);
}

QModelIndex OutlineModel::index(int row, int column, const QModelIndex& parent) const {
  if (!m_layout || row < 0 || column < 0 || column >= kColumnCount) return {};
  const int group = groupOfParent(parent);
  if (group < 0) return {};
  const ScopeGroup& g = m_layout->tree().group(group);
  const size_t r = static_cast<size_t>(row);
  if (r < g.groups.size()) return createIndex(row, column, static_cast<quintptr>(g.groups[r]) * 2);
  if (r < g.groups.size() + g.nodes.size())
    return createIndex(row, column, static_cast<quintptr>(g.nodes[r - g.groups.size()]) * 2 + 1);
  return {};
}

QModelIndex OutlineModel::parent(const QModelIndex& child) const {
  if (!m_layout || !child.isValid()) return {};
  const int group = groupAt(child);
  const int parentGroup =
      group >= 0 ? m_layout->tree().group(group).parent : m_layout->tree().groupOf(static_cast<size_t>(nodeAt(child)));
  return groupIndex(parentGroup);
}

int OutlineModel::rowCount(const QModelIndex& parent) const {
  if (!m_layout || (parent.isValid() && parent.column() != 0)) return 0;
  const int group = groupOfParent(parent);
  if (group < 0) return 0;
  const ScopeGroup& g = m_layout->tree().group(group);
  return static_cast<int>(g.groups.size() + g.nodes.size());
}

int OutlineModel::columnCount(const QModelIndex&) const { return kColumnCount; }

QVariant OutlineModel::data(const QModelIndex& index, int role) const {
  if (!m_layout || !index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
  const int group = groupAt(index);
  if (group >= 0) {
    const ScopeGroup& g = m_layout->tree().group(group);
    if (role == Qt::ToolTipRole) return QString::fromUtf8(g.path.data(), static_cast<qsizetype>(g.path.size()));
    return index.column() == kName ? QString::fromUtf8(g.label().data(), static_cast<qsizetype>(g.label().size()))
                                   : (g.totalNodes == 1 ? tr("1 node") : tr("%1 nodes").arg(g.totalNodes));
  }
  const Node& node = m_layout->graph().node(static_cast<size_t>(nodeAt(index)));
  if (role == Qt::ToolTipRole) return QString::fromStdString(node.name);
  if (index.column() == kDetail) return QString::fromStdString(node.op);
  const auto slash = node.name.rfind('/');
  return QString::fromStdString(slash == std::string::npos ? node.name : node.name.substr(slash + 1));
}

QVariant OutlineModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == kName ? tr("Name") : tr("Op / size");
}

}  // namespace flowscope
