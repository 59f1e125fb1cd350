// The pass stepper.
#include "panels/pass_stepper.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "canvas/graph_canvas.h"
#include "passes/graph_diff.h"
#include "workflow/optimize_model.h"

namespace flowscope {
namespace {

std::vector<std::pair<size_t, QColor>> colorsFor(const Graph& g, const std::vector<std::string>& names, const QColor& color) {
  std::vector<std::pair<size_t, QColor>> out;
  for (const auto& n : names)
    if (int64_t i = g.find(n); i >= 0) out.emplace_back(static_cast<size_t>(i), color);
  return out;
}

}  // namespace

PassStepper::PassStepper(QWidget* parent)
    : QWidget(parent), m_table(new QTableWidget(this)), m_before(new GraphCanvas(this)), m_after(new GraphCanvas(this)),
      m_summary(new QLabel(this)), m_progress(new QProgressBar(this)), m_cancel(new QPushButton(tr("Cancel"), this)) {
  m_table->setColumnCount(5);
  m_table->setHorizontalHeaderLabels({tr("#"), tr("pass"), tr("changed"), tr("nodes"), tr("ms")});
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setStretchLastSection(true);
  auto* canvases = new QSplitter(Qt::Horizontal, this);
  canvases->addWidget(m_before);
  canvases->addWidget(m_after);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(m_table);
  split->addWidget(canvases);
  split->setStretchFactor(1, 4);
  split->setSizes({360, 1000});
  auto* status = new QHBoxLayout();
  status->addWidget(m_summary, 1);
  status->addWidget(m_progress);
  status->addWidget(m_cancel);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(status);
  layout->addWidget(split, 1);
  m_progress->hide();
  m_cancel->hide();
  connect(m_cancel, &QPushButton::clicked, this, &PassStepper::cancel);
  connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) { showPass(row); });
  // The two views move together.
  connect(m_before, &GraphCanvas::viewChanged, m_after, &GraphCanvas::setView);
  connect(m_after, &GraphCanvas::viewChanged, m_before, &GraphCanvas::setView);
  auto* poll = new QTimer(this);
  connect(poll, &QTimer::timeout, this, [this] {
    if (m_watcher.isRunning()) m_progress->setValue(100 * m_done / std::max(1, m_total.load()));
  });
  poll->start(100);
  connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
    m_progress->hide();
    m_cancel->hide();
    auto result = m_watcher.result();
    if (!result) {
      m_summary->setText(tr("Optimizing stopped: %1").arg(QString::fromStdString(result.status().message())));
      emit failed(QString::fromStdString(result.status().message()));
      return;
    }
    m_result = std::make_shared<PipelineResult>(std::move(result).value());
    m_table->setRowCount(static_cast<int>(m_result->records.size()));
    for (size_t i = 0; i < m_result->records.size(); ++i) {
      const PassRecord& t = m_result->records[i];
      const int row = static_cast<int>(i);
      m_table->setItem(row, 0, new QTableWidgetItem(QString::number(i + 1)));
      m_table->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(t.pass)));
      m_table->setItem(row, 2, new QTableWidgetItem(!t.error.empty() ? tr("failed") : t.changed ? tr("yes") : tr("no")));
      m_table->setItem(row, 3, new QTableWidgetItem(QString("%1 → %2").arg(t.nodesBefore).arg(t.nodesAfter)));
      m_table->setItem(row, 4, new QTableWidgetItem(QString::number(t.seconds * 1e3, 'f', 2)));
      if (!t.error.empty()) m_table->item(row, 2)->setToolTip(QString::fromStdString(t.error));
    }
    m_table->resizeColumnsToContents();
    m_summary->setText(tr("%1 → %2 nodes in %3 ms; select a pass (Up/Down) to see it before and after")
                           .arg(m_result->input->size())
                           .arg(m_result->output->size())
                           .arg(m_result->seconds * 1e3, 0, 'f', 1));
    emit optimized();
  });
}

PassStepper::~PassStepper() {
  m_cancelled = true;
  m_watcher.waitForFinished();
}

void PassStepper::optimize(std::shared_ptr<const Model> model) {
  cancel();
  m_watcher.waitForFinished();
  m_cancelled = false;
  m_done = 0;
  m_table->setRowCount(0);
  m_progress->setValue(0);
  m_progress->show();
  m_cancel->show();
  m_summary->setText(tr("Optimizing..."));
  m_watcher.setFuture(QtConcurrent::run([this, model]() -> Expected<PipelineResult> {
    PipelineOptions options;
    options.cancelled = &m_cancelled;
    options.progress = [this](size_t done, size_t total, const std::string&) {
      m_done = static_cast<int>(done);
      m_total = static_cast<int>(total);
    };
    return optimizeForViewing(model, options);
  }));
}

void PassStepper::cancel() { m_cancelled = true; }

void PassStepper::showPass(int index) {
  if (!m_result || index < 0 || index >= static_cast<int>(m_result->records.size())) return;
  m_current = index;
  const PassRecord& trace = m_result->records[static_cast<size_t>(index)];
  auto beforeGraph = index == 0 ? m_result->input : m_result->records[static_cast<size_t>(index - 1)].snapshot;
  auto afterGraph = trace.snapshot;
  const GraphDiff diff = diffGraphs(*beforeGraph, *afterGraph);
  m_before->setGraph(beforeGraph);
  m_after->setGraph(afterGraph);
  m_before->setNodeColors(colorsFor(*beforeGraph, diff.removed, removedColor()));
  auto colors = colorsFor(*afterGraph, diff.added, addedColor());
  auto changed = colorsFor(*afterGraph, diff.changed, changedColor());
  colors.insert(colors.end(), changed.begin(), changed.end());
  m_after->setNodeColors(std::move(colors));
  if (m_table->currentRow() != index) m_table->selectRow(index);
  m_summary->setText(tr("%1 (iteration %2): %3 added, %4 removed, %5 changed")
                         .arg(QString::fromStdString(trace.pass))
                         .arg(trace.iteration + 1)
                         .arg(diff.added.size())
                         .arg(diff.removed.size())
                         .arg(diff.changed.size()));
}

}  // namespace flowscope
