// OpStatsModel: the profiler's per-op table (op, count per run, total, mean, share), sortable through a proxy.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "profile/run_profile.h"

namespace flowscope {

class OpStatsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kOp, kCount, kTotal, kMean, kShare, kColumns };
  explicit OpStatsModel(QObject* parent = nullptr);
  void setStats(std::vector<OpStats> stats, int runs);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<OpStats> m_stats;
  int m_runs = 1;
};

}  // namespace flowscope
