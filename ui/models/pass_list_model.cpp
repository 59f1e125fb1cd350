// The pass list.
#include "models/pass_list_model.h"

#include <QStringList>

namespace flowscope {
namespace {

QString statsText(const PassStats& stats) {
  QStringList parts;
  for (const auto& [key, value] : stats) parts << QString("%1 %2").arg(QString::fromStdString(key)).arg(value);
  return parts.join(", ");
}

}  // namespace

void PassListModel::setPipeline(const PipelineResult* pipeline) {
  std::vector<PassRow> rows;
  if (pipeline)
    for (size_t i = 0; i < pipeline->records.size(); ++i)
      rows.push_back({static_cast<int>(i + 1), pipeline->records[i]});
  setRows(std::move(rows));
}

QVariant PassListModel::cell(const PassRow& row, int column, int role) const {
  const PassRecord& r = row.record;
  if (role == Qt::ToolTipRole && column == kChanged && !r.error.empty()) return QString::fromStdString(r.error);
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case kNumber:
      return row.number;
    case kPass:
      return QString::fromStdString(r.pass);
    case kIteration:
      return r.iteration + 1;
    case kChanged:
      return !r.error.empty() ? tr("failed") : r.changed ? tr("yes") : tr("no");
    case kNodes:
      return QString("%1 → %2").arg(r.nodesBefore).arg(r.nodesAfter);
    case kMilliseconds:
      return QString::number(r.seconds * 1e3, 'f', 2);
    default:
      return r.error.empty() ? statsText(r.stats) : QString::fromStdString(r.error);
  }
}

QString PassListModel::header(int column) const {
  switch (column) {
    case kNumber:
      return tr("#");
    case kPass:
      return tr("pass");
    case kIteration:
      return tr("iter");
    case kChanged:
      return tr("changed");
    case kNodes:
      return tr("nodes");
    case kMilliseconds:
      return tr("ms");
    default:
      return tr("what");
  }
}

}  // namespace flowscope
