// OpStatsModel: the profiler's per-op table (op, count per run, total, mean, share), sortable through a proxy
// (Qt::UserRole gives the numbers to sort by).
#pragma once

#include "models/row_table_model.h"
#include "profile/run_profile.h"

namespace flowscope {

class OpStatsModel : public RowTableModel<OpStats> {
 public:
  enum Column { kOp, kCount, kTotal, kMean, kShare, kColumns };
  explicit OpStatsModel(QObject* parent = nullptr) : RowTableModel(parent) {}
  void setStats(std::vector<OpStats> stats, int runs);

 protected:
  QVariant cell(const OpStats& stats, int column, int role) const override;
  int columns() const override { return kColumns; }
  QString header(int column) const override;

 private:
  int m_runs = 1;
};

}  // namespace flowscope
