// The pass stepper.
#include "panels/pass_stepper.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableView>
#include <algorithm>

#include "canvas/graph_canvas.h"
#include "models/pass_list_model.h"
#include "panels/twin_canvases.h"
#include "passes/graph_diff.h"

namespace flowscope {
namespace {

std::vector<std::pair<size_t, QColor>> colorsFor(const Graph& g, const std::vector<std::string>& names,
                                                 const QColor& color) {
  std::vector<std::pair<size_t, QColor>> out;
  for (const auto& n : names)
    if (int64_t i = g.find(n); i >= 0) out.emplace_back(static_cast<size_t>(i), color);
  return out;
}

}  // namespace

PassStepper::PassStepper(Session* session, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_passes(new PassListModel(this)),
      m_table(new QTableView(this)),
      m_before(new GraphCanvas(this, &session->worker())),
      m_after(new GraphCanvas(this, &session->worker())),
      m_summary(new QLabel(this)) {
  m_table->setModel(m_passes);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setStretchLastSection(true);
  layOutTwinCanvases(this, m_summary, m_table, 360, m_before, m_after);
  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { m_session->setCurrentPass(current.row()); });
  connect(session, &Session::optimizeFailed, this,
          [this](const QString& message) { m_summary->setText(tr("Optimizing stopped: %1").arg(message)); });
  session->addViewer(this);
}

PassStepper::~PassStepper() { m_session->removeViewer(this); }

QString PassStepper::summary() const { return m_summary->text(); }

void PassStepper::documentChanged(const Session& session) {
  if (!session.navigation().atRoot() && session.model()) return;  // passes are of the opened graph
  m_summary->setText(session.model() ? tr("Optimizing...") : QString());
}

void PassStepper::passChanged(const Session& session) {
  const PipelineResult* pipeline = session.pipeline();
  if (pipeline != m_shownPipeline) {
    m_shownPipeline = pipeline;
    m_shownPass = -1;
    m_passes->setPipeline(pipeline);
    fitTableWidth();
    if (!pipeline) {
      m_before->setGraph(nullptr);
      m_after->setGraph(nullptr);
      return;
    }
    m_summary->setText(tr("%1 → %2 nodes in %3 ms; select a pass (Up/Down) to see it before and after")
                           .arg(pipeline->input->size())
                           .arg(pipeline->output->size())
                           .arg(pipeline->seconds * 1e3, 0, 'f', 1));
    chooseFirstChange();
  }
  if (pipeline && session.currentPass() >= 0 && session.currentPass() != m_shownPass)
    showPass(*pipeline, session.currentPass());
}

void PassStepper::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  chooseFirstChange();
}

void PassStepper::chooseFirstChange() {
  const PipelineResult* pipeline = m_session->pipeline();
  if (!pipeline || m_session->currentPass() >= 0 || !isVisible()) return;
  const auto& records = pipeline->records;
  const auto first = std::find_if(records.begin(), records.end(), [](const PassRecord& r) { return r.changed; });
  if (first != records.end()) m_session->setCurrentPass(static_cast<int>(first - records.begin()));
}

void PassStepper::fitTableWidth() {  // every column but the last ("what", stretched) in sight
  m_table->resizeColumnsToContents();
  int width = 2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width();
  for (int column = 0; column < PassListModel::kWhat; ++column) width += m_table->columnWidth(column);
  widenTwinList(m_table, width);
}

void PassStepper::showPass(const PipelineResult& pipeline, int index) {
  m_shownPass = index;
  const PassRecord& record = pipeline.records[static_cast<size_t>(index)];
  auto beforeGraph = index == 0 ? pipeline.input : pipeline.records[static_cast<size_t>(index - 1)].snapshot;
  auto afterGraph = record.snapshot;
  const GraphDiff diff = diffGraphs(*beforeGraph, *afterGraph);
  m_before->setGraph(beforeGraph);
  m_after->setGraph(afterGraph);
  m_before->setNodeColors(colorsFor(*beforeGraph, diff.removed, removedColor()));
  auto colors = colorsFor(*afterGraph, diff.added, addedColor());
  auto changed = colorsFor(*afterGraph, diff.changed, changedColor());
  colors.insert(colors.end(), changed.begin(), changed.end());
  m_after->setNodeColors(std::move(colors));
  if (m_table->currentIndex().row() != index) m_table->selectRow(index);
  const QString fused =
      diff.fusedInto.empty() ? QString() : tr(" (%1 fused into other nodes)").arg(diff.fusedInto.size());
  m_summary->setText(tr("%1 (iteration %2): %3 added, %4 removed%5, %6 changed")
                         .arg(QString::fromStdString(record.pass))
                         .arg(record.iteration + 1)
                         .arg(diff.added.size())
                         .arg(diff.removed.size())
                         .arg(fused)
                         .arg(diff.changed.size()));
}

}  // namespace flowscope
