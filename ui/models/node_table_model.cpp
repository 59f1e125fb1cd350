// Node list model.
#include "models/node_table_model.h"

#include <QStringList>

#include "ir/verify.h"
#include "ops/op_registry.h"

namespace flowscope {

void NodeTableModel::setModel(std::shared_ptr<const Model> model) {
  std::vector<const Node*> nodes;
  if (model)
    for (size_t i = 0; i < model->graph.size(); ++i) nodes.push_back(&model->graph.node(i));
  m_model = std::move(model);
  setRows(std::move(nodes));
}

QVariant NodeTableModel::cell(const Node* const& node, int column, int role) const {
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  const FunctionLibrary& library = m_model->graph.library;
  switch (column) {
    case kName:
      return QString::fromStdString(node->name);
    case kOp:
      return QString::fromStdString(node->op);
    case kCategory:
      return QString::fromUtf8(categoryName(OpRegistry::global().categoryOf(node->op, &library)).data());
    case kOutputs: {
      QStringList types;
      for (DType t : outputTypesOf(*node, OpRegistry::global().lookupWith(&library)(node->op)))
        types << QString::fromUtf8(dtypeName(t).data());
      return types.join(", ");
    }
    case kInputs:
      return static_cast<int>(node->inputs.size() + node->controlInputs.size());
    case kDevice:
      return QString::fromStdString(node->device);
    default:
      return {};
  }
}

QString NodeTableModel::header(int column) const {
  switch (column) {
    case kName:
      return tr("Name");
    case kOp:
      return tr("Op");
    case kCategory:
      return tr("Category");
    case kOutputs:
      return tr("Outputs");
    case kInputs:
      return tr("Inputs");
    default:
      return tr("Device");
  }
}

}  // namespace flowscope
