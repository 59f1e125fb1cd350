// NodeTableModel: the loaded graph's nodes as rows (name, op, category, output types, inputs, device).
#pragma once

#include <QAbstractTableModel>
#include <memory>

#include "ir/model.h"

namespace flowscope {

class NodeTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kName, kOp, kCategory, kOutputs, kInputs, kDevice, kColumnCount };

  explicit NodeTableModel(QObject* parent = nullptr);
  void setModel(std::shared_ptr<const Model> model);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::shared_ptr<const Model> m_model;
};

}  // namespace flowscope
