// Theirs vs ours.
#include "panels/side_by_side_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "panels/summary_row.h"

namespace flowscope {
namespace {

QTableWidgetItem* number(double value) {
  auto* item = new QTableWidgetItem;
  item->setData(Qt::DisplayRole, value);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

SideBySidePanel::SideBySidePanel(Session* session, QWidget* parent)
    : QWidget(parent), m_session(session), m_summary(new QLabel(this)), m_table(new QTableWidget(this)) {
  m_summary->setWordWrap(true);
  m_summary->setText(
      tr("Import a profile of a real run (ONNX Runtime, PyTorch, TensorFlow's profiler, TensorBoard) "
         "and profile the graph here: the nodes' times side by side"));
  auto* import = new QPushButton(tr("Import profile..."), this);
  connect(import, &QPushButton::clicked, this, &SideBySidePanel::importRequested);
  m_table->setColumnCount(5);
  m_table->setHorizontalHeaderLabels({tr("node"), tr("op"), tr("theirs µs"), tr("ours µs"), tr("theirs / ours")});
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setStretchLastSection(true);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summaryRow(this, m_summary, import));
  layout->addWidget(m_table, 1);
  connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
    const QTableWidgetItem* item = m_table->item(row, 0);
    if (item) m_session->select(Selection::ofNode(item->data(Qt::UserRole).toULongLong()));
  });
  session->addViewer(this);
}

SideBySidePanel::~SideBySidePanel() { m_session->removeViewer(this); }

QString SideBySidePanel::summary() const { return m_summary->text(); }

void SideBySidePanel::profileChanged(const Session& session) {
  const ProfileView* view = session.profileView();
  const ProfileView* ours = session.ownProfileView();
  if (!view || !view->imported || !session.model()) return;
  if (!ours) {
    m_table->setRowCount(0);
    m_summary->setText(tr("%1 is shown; profile the graph here (Profile) to see ours beside it").arg(view->source));
    return;
  }
  fill(session.model()->graph, *view, *ours);
}

void SideBySidePanel::fill(const Graph& graph, const ProfileView& theirs, const ProfileView& ours) {
  const std::vector<NodeGroupTimes> rows = compareNodeTimes(theirs.times, ours.times);
  m_table->setSortingEnabled(false);
  m_table->setRowCount(static_cast<int>(rows.size()));
  double theirsTotal = 0, oursTotal = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    const NodeGroupTimes& row = rows[r];
    const double theirsUs = row.theirs * 1e6, oursUs = row.ours * 1e6;
    const Node& n = graph.node(row.node);
    auto* name = new QTableWidgetItem(QString::fromStdString(n.name));
    name->setData(Qt::UserRole, static_cast<qulonglong>(row.node));
    const int at = static_cast<int>(r);
    m_table->setItem(at, 0, name);
    m_table->setItem(
        at, 1,
        new QTableWidgetItem(QString::fromStdString(n.op) + (row.nodes > 1 ? QString("+%1").arg(row.nodes - 1) : "")));
    m_table->setItem(at, 2, number(theirsUs));
    m_table->setItem(at, 3, number(oursUs));
    m_table->setItem(at, 4, oursUs > 0 ? number(theirsUs / oursUs) : new QTableWidgetItem("–"));
    theirsTotal += theirsUs;
    oursTotal += oursUs;
  }
  m_table->setSortingEnabled(true);
  m_table->resizeColumnsToContents();
  m_summary->setText(tr("%1 nodes timed by %2: theirs %3 µs, ours %4 µs per run on them (ours: %5, %6)")
                         .arg(rows.size())
                         .arg(theirs.source)
                         .arg(theirsTotal, 0, 'f', 1)
                         .arg(oursTotal, 0, 'f', 1)
                         .arg(QString::fromStdString(ours.device))
                         .arg(ours.optimized
                                  ? tr("optimized first: a fused kernel's time is on the first node it computed")
                                  : tr("as loaded")));
}

}  // namespace flowscope
