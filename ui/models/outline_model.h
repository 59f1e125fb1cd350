// OutlineModel: the name-scope hierarchy as a tree (groups, then the nodes directly in each), for the outline dock
// beside the canvas. Rows are made on demand, so a 100k-node graph costs nothing until its groups are opened.
#pragma once

#include <QAbstractItemModel>
#include <memory>

#include "layout/graph_layout.h"

namespace flowscope {

class OutlineModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { kName, kDetail, kColumnCount };
  explicit OutlineModel(QObject* parent = nullptr);
  void setLayout(std::shared_ptr<GraphLayout> layout);
  const GraphLayout* layout() const { return m_layout.get(); }

  QModelIndex groupIndex(int group) const;
  QModelIndex nodeIndex(size_t node) const;
  /// The group an index shows, or -1 for a node.
  int groupAt(const QModelIndex& index) const;
  /// The graph node an index shows, or -1 for a group.
  int64_t nodeAt(const QModelIndex& index) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  // internalId: 2*group for a group, 2*node+1 for a node.
  int groupOfParent(const QModelIndex& parent) const;
  std::shared_ptr<GraphLayout> m_layout;
  std::vector<int> m_rowOfGroup;  // position among its parent's rows
  std::vector<int> m_rowOfNode;
};

}  // namespace flowscope
