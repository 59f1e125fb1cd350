// The per-op statistics table.
#include "models/op_stats_model.h"

namespace flowscope {

OpStatsModel::OpStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpStatsModel::setStats(std::vector<OpStats> stats, int runs) {
  beginResetModel();
  m_stats = std::move(stats);
  m_runs = std::max(1, runs);
  endResetModel();
}

int OpStatsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_stats.size()); }
int OpStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumns; }

QVariant OpStatsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(m_stats.size())) return {};
  const OpStats& s = m_stats[static_cast<size_t>(index.row())];
  const double totalUs = static_cast<double>(s.totalNs) / 1000.0 / m_runs;
  const double meanUs = s.count ? static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(s.count) : 0.0;
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case kOp: return QString::fromStdString(s.key);
      case kCount: return static_cast<qlonglong>(s.count / m_runs);
      case kTotal: return QString::number(totalUs, 'f', 1);
      case kMean: return QString::number(meanUs, 'f', 2);
      case kShare: return QString::number(s.share * 100, 'f', 1) + "%";
    }
  }
  if (role == Qt::UserRole) {  // sort keys: numbers, not text
    switch (index.column()) {
      case kOp: return QString::fromStdString(s.key);
      case kCount: return static_cast<qlonglong>(s.count);
      case kTotal: return totalUs;
      case kMean: return meanUs;
      case kShare: return s.share;
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() != kOp) return int(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant OpStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kOp: return tr("op");
    case kCount: return tr("per run");
    case kTotal: return tr("us per run");
    case kMean: return tr("mean us");
    case kShare: return tr("share");
  }
  return {};
}

}  // namespace flowscope
