// The node list dock.
#include "panels/node_list_panel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "models/node_table_model.h"

namespace flowscope {

NodeListPanel::NodeListPanel(Session* session, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_nodes(new NodeTableModel(this)),
      m_filter(new QSortFilterProxyModel(this)),
      m_table(new QTableView(this)),
      m_search(new QLineEdit(this)),
      m_regex(new QCheckBox(tr("Regex"), this)) {
  m_table->setObjectName("nodeTable");
  m_search->setObjectName("nodeSearch");
  m_filter->setSourceModel(m_nodes);
  m_filter->setFilterKeyColumn(-1);
  m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
  m_table->setModel(m_filter);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(-1, Qt::AscendingOrder);  // graph order until the user sorts
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setAlternatingRowColors(true);
  m_table->setWordWrap(false);
  m_table->setTextElideMode(Qt::ElideMiddle);
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->verticalHeader()->hide();
  // Column widths from the first 100 rows, not Qt's 1000: measuring text was most of a 60 ms stall on opening a
  // 400-node graph (the soak's stall sampler), and a long name is elided anyway.
  m_table->horizontalHeader()->setResizeContentsPrecision(100);
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
  m_search->setPlaceholderText(tr("Filter nodes by name, op or category"));
  m_regex->setToolTip(tr("Match names, ops and categories with a regular expression"));
  auto* searchRow = new QHBoxLayout();
  searchRow->addWidget(m_search, 1);
  searchRow->addWidget(m_regex);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(searchRow);
  layout->addWidget(m_table);
  connect(m_regex, &QCheckBox::toggled, this, &NodeListPanel::applyFilter);
  connect(m_search, &QLineEdit::textChanged, this, &NodeListPanel::applyFilter);
  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (m_syncing || !current.isValid()) return;
    m_session->select(Selection::ofNode(static_cast<size_t>(m_filter->mapToSource(current).row())));
  });
  session->addViewer(this);
}

NodeListPanel::~NodeListPanel() { m_session->removeViewer(this); }

void NodeListPanel::applyFilter() {
  if (m_regex->isChecked())
    m_filter->setFilterRegularExpression(
        QRegularExpression(m_search->text(), QRegularExpression::CaseInsensitiveOption));
  else
    m_filter->setFilterFixedString(m_search->text());
}

void NodeListPanel::documentChanged(const Session& session) {
  m_nodes->setModel(session.shownModel());
  m_table->resizeColumnsToContents();
  m_table->setColumnWidth(NodeTableModel::kName, std::min(m_table->columnWidth(NodeTableModel::kName), 420));
}

void NodeListPanel::selectionChanged(const Session& session) {
  const Selection& s = session.selection();
  if (s.kind != Selection::Kind::kNode || static_cast<int>(s.node) >= m_nodes->rowCount()) return;
  const QModelIndex row = m_filter->mapFromSource(m_nodes->index(static_cast<int>(s.node), 0));
  if (!row.isValid() || row == m_table->currentIndex()) return;
  m_syncing = true;
  m_table->setCurrentIndex(row);
  m_table->scrollTo(row);
  m_syncing = false;
}

}  // namespace flowscope
