// OpStatsModel: the profiler's per-op table (op, count per run, total, mean, share, GFLOP/s, GB/s, share of the
// roofline and its limit), sortable through a proxy (Qt::UserRole gives the numbers to sort by).
#pragma once

#include "models/row_table_model.h"
#include "profile/roofline.h"
#include "profile/run_profile.h"

namespace flowscope {

class OpStatsModel : public RowTableModel<OpStats> {
 public:
  enum Column { kOp, kCount, kTotal, kMean, kShare, kGflops, kGbs, kRoofline, kColumns };
  explicit OpStatsModel(QObject* parent = nullptr) : RowTableModel(parent) {}
  /// The rows, per op type; the rates and roofline shares against `roofline` (blank when it is unknown).
  void setStats(std::vector<OpStats> stats, int runs, Roofline roofline);

 protected:
  QVariant cell(const OpStats& stats, int column, int role) const override;
  int columns() const override { return kColumns; }
  QString header(int column) const override;

 private:
  QVariant display(const OpStats& stats, int column) const;
  QVariant sortKey(const OpStats& stats, int column) const;
  int m_runs = 1;
  Roofline m_roofline;
};

}  // namespace flowscope
