// Theirs vs ours.
#include "panels/side_by_side_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace flowscope {
namespace {

struct Row {
  size_t node;
  double theirs, ours;
  int covered;
};

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
  m_summary->setText(tr("Import a profile (File > Import profile) and profile the graph here to compare them"));
  m_table->setColumnCount(5);
  m_table->setHorizontalHeaderLabels({tr("node"), tr("op"), tr("theirs µs"), tr("ours µs"), tr("theirs / ours")});
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setStretchLastSection(true);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_summary);
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
  std::vector<Row> rows;
  for (size_t i = 0; i < graph.size() && i < theirs.times.seconds.size(); ++i) {
    if (theirs.times.seconds[i] <= 0) continue;
    Row row{i, theirs.times.seconds[i] * 1e6, 0, 1};
    auto covers = theirs.covers.find(graph.node(i).name);
    std::vector<std::string> nodes =
        covers == theirs.covers.end() ? std::vector<std::string>{graph.node(i).name} : covers->second;
    row.covered = static_cast<int>(nodes.size());
    for (const std::string& n : nodes)
      if (int64_t k = graph.find(n); k >= 0 && static_cast<size_t>(k) < ours.times.seconds.size())
        row.ours += ours.times.seconds[static_cast<size_t>(k)] * 1e6;
    rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.theirs > b.theirs; });
  m_table->setSortingEnabled(false);
  m_table->setRowCount(static_cast<int>(rows.size()));
  double theirsTotal = 0, oursTotal = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    const Node& n = graph.node(row.node);
    auto* name = new QTableWidgetItem(QString::fromStdString(n.name));
    name->setData(Qt::UserRole, static_cast<qulonglong>(row.node));
    const int at = static_cast<int>(r);
    m_table->setItem(at, 0, name);
    m_table->setItem(at, 1,
                     new QTableWidgetItem(QString::fromStdString(n.op) +
                                          (row.covered > 1 ? QString("+%1").arg(row.covered - 1) : "")));
    m_table->setItem(at, 2, number(row.theirs));
    m_table->setItem(at, 3, number(row.ours));
    m_table->setItem(at, 4, row.ours > 0 ? number(row.theirs / row.ours) : new QTableWidgetItem("–"));
    theirsTotal += row.theirs;
    oursTotal += row.ours;
  }
  m_table->setSortingEnabled(true);
  m_table->resizeColumnsToContents();
  m_summary->setText(
      tr("%1 nodes timed by %2: theirs %3 µs, ours %4 µs per run on them (ours: %5, %6)")
          .arg(rows.size())
          .arg(theirs.source)
          .arg(theirsTotal, 0, 'f', 1)
          .arg(oursTotal, 0, 'f', 1)
          .arg(QString::fromStdString(ours.device))
          .arg(ours.optimized ? tr("optimized first: names the optimizer removed have no time") : tr("as loaded")));
}

}  // namespace flowscope
