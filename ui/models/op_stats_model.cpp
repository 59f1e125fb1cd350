// The per-op statistics table.
#include "models/op_stats_model.h"

namespace flowscope {

void OpStatsModel::setStats(std::vector<OpStats> stats, int runs) {
  m_runs = std::max(1, runs);
  setRows(std::move(stats));
}

QVariant OpStatsModel::cell(const OpStats& s, int column, int role) const {
  const double totalUs = static_cast<double>(s.totalNs) / 1000.0 / m_runs;
  const double meanUs = s.count ? static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(s.count) : 0.0;
  if (role == Qt::DisplayRole) {
    switch (column) {
      case kOp:
        return QString::fromStdString(s.key);
      case kCount:
        return static_cast<qlonglong>(s.count / m_runs);
      case kTotal:
        return QString::number(totalUs, 'f', 1);
      case kMean:
        return QString::number(meanUs, 'f', 2);
      default:
        return QString::number(s.share * 100, 'f', 1) + "%";
    }
  }
  if (role == Qt::UserRole) {  // sort keys: numbers, not text
    switch (column) {
      case kOp:
        return QString::fromStdString(s.key);
      case kCount:
        return static_cast<qlonglong>(s.count);
      case kTotal:
        return totalUs;
      case kMean:
        return meanUs;
      default:
        return s.share;
    }
  }
  if (role == Qt::TextAlignmentRole && column != kOp) return int(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QString OpStatsModel::header(int column) const {
  switch (column) {
    case kOp:
      return tr("op");
    case kCount:
      return tr("per run");
    case kTotal:
      return tr("us per run");
    case kMean:
      return tr("mean us");
    default:
      return tr("share");
  }
}

}  // namespace flowscope
