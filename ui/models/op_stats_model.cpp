// The per-op statistics table.
#include "models/op_stats_model.h"

namespace flowscope {
namespace {

Efficiency efficiencyOfStats(const OpStats& s, const Roofline& roofline) {
  return efficiencyOf(static_cast<double>(s.flops), static_cast<double>(s.bytes), static_cast<double>(s.totalNs),
                      roofline, static_cast<double>(s.count));
}

}  // namespace

void OpStatsModel::setStats(std::vector<OpStats> stats, int runs, Roofline roofline) {
  m_runs = std::max(1, runs);
  m_roofline = std::move(roofline);
  setRows(std::move(stats));
}

QVariant OpStatsModel::display(const OpStats& s, int column) const {
  const Efficiency e = efficiencyOfStats(s, m_roofline);
  switch (column) {
    case kOp:
      return QString::fromStdString(s.key);
    case kCount:
      return static_cast<qlonglong>(s.count / m_runs);
    case kTotal:
      return QString::number(static_cast<double>(s.totalNs) / 1000.0 / m_runs, 'f', 1);
    case kMean:
      return QString::number(s.count ? static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(s.count) : 0, 'f',
                             2);
    case kShare:
      return QString::number(s.share * 100, 'f', 1) + "%";
    case kGflops:
      return QString::number(e.gflops, 'f', 1);
    case kGbs:
      return QString::number(e.gbs, 'f', 1);
    default:
      if (!m_roofline.known() || (s.flops <= 0 && s.bytes <= 0)) return QString();
      return QString::number(e.share * 100, 'f', 0) + "% " +
             (e.computeBound ? QStringLiteral("FMA") : QString::fromStdString(e.memoryLevel));
  }
}

QVariant OpStatsModel::sortKey(const OpStats& s, int column) const {
  switch (column) {
    case kOp:
      return QString::fromStdString(s.key);
    case kCount:
      return static_cast<qlonglong>(s.count);
    case kTotal:
    case kMean:
      return static_cast<double>(s.totalNs) / static_cast<double>(column == kMean ? std::max<int64_t>(s.count, 1) : 1);
    case kShare:
      return s.share;
    case kGflops:
      return efficiencyOfStats(s, m_roofline).gflops;
    case kGbs:
      return efficiencyOfStats(s, m_roofline).gbs;
    default:
      return efficiencyOfStats(s, m_roofline).share;
  }
}

QVariant OpStatsModel::cell(const OpStats& s, int column, int role) const {
  if (role == Qt::DisplayRole) return display(s, column);
  if (role == Qt::UserRole) return sortKey(s, column);  // sort keys: numbers, not text
  if (role == Qt::ToolTipRole && column == kRoofline)
    return tr(
        "The time this machine's roofline allows for the op's FLOPs and bytes (FMA peak, or the bandwidth of "
        "the memory level its bytes fit: L1, L2, L3, DRAM) over the time it took: low means a slow kernel, "
        "not a heavy layer");
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
    case kShare:
      return tr("share");
    case kGflops:
      return tr("GFLOP/s");
    case kGbs:
      return tr("GB/s");
    default:
      return tr("roofline");
  }
}

}  // namespace flowscope
