// Node list model.
#include "models/node_table_model.h"

#include <QString>

#include "ir/verify.h"
#include "ops/op_registry.h"

namespace flowscope {

NodeTableModel::NodeTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void NodeTableModel::setModel(std::shared_ptr<const Model> model) {
  beginResetModel();
  m_model = std::move(model);
  endResetModel();
}

int NodeTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !m_model ? 0 : static_cast<int>(m_model->graph.size());
}

int NodeTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant NodeTableModel::data(const QModelIndex& index, int role) const {
  if (!m_model || !index.isValid() || index.row() >= rowCount()) return {};
  const Node& node = m_model->graph.node(static_cast<size_t>(index.row()));
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
    switch (index.column()) {
      case kName: return QString::fromStdString(node.name);
      case kOp: return QString::fromStdString(node.op);
      case kCategory:
        return QString::fromUtf8(categoryName(OpRegistry::global().categoryOf(node.op, &m_model->graph.library)).data());
      case kOutputs: {
        const OpRegistry& registry = OpRegistry::global();
        QStringList types;
        for (DType t : outputTypesOf(node, registry.lookupWith(&m_model->graph.library)(node.op)))
          types << QString::fromUtf8(dtypeName(t).data());
        return types.join(", ");
      }
      case kInputs: return static_cast<int>(node.inputs.size() + node.controlInputs.size());
      case kDevice: return QString::fromStdString(node.device);
      default: return {};
    }
  }
  return {};
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kName: return tr("Name");
    case kOp: return tr("Op");
    case kCategory: return tr("Category");
    case kOutputs: return tr("Outputs");
    case kInputs: return tr("Inputs");
    case kDevice: return tr("Device");
    default: return {};
  }
}

}  // namespace flowscope
