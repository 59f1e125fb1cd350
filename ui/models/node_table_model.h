// NodeTableModel: the shown graph's nodes as rows (name, op, category, output types, inputs, device).
#pragma once

#include <memory>

#include "ir/model.h"
#include "models/row_table_model.h"

namespace flowscope {

class NodeTableModel : public RowTableModel<const Node*> {
 public:
  enum Column { kName, kOp, kCategory, kOutputs, kInputs, kDevice, kColumnCount };

  explicit NodeTableModel(QObject* parent = nullptr) : RowTableModel(parent) {}
  void setModel(std::shared_ptr<const Model> model);

 protected:
  QVariant cell(const Node* const& node, int column, int role) const override;
  int columns() const override { return kColumnCount; }
  QString header(int column) const override;

 private:
  std::shared_ptr<const Model> m_model;  // keeps the rows' nodes alive
};

}  // namespace flowscope
