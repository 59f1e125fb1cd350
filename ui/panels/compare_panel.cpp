// The eager-vs-graph tab.
#include "panels/compare_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "canvas/graph_canvas.h"
#include "models/op_stats_model.h"
#include "panels/timeline_view.h"
#include "script/script_runner.h"

namespace flowscope {
namespace {

constexpr int kTimelineCalls = 10;  // the timelines show the first calls of the profiled round

QString perCall(double seconds, int calls) {
  const double us = seconds / calls * 1e6;
  return us >= 1000 ? QString::number(us / 1000, 'f', 2) + " ms" : QString::number(us, 'f', 1) + " us";
}

std::vector<NodeEvent> firstCalls(const RunProfile& trace) {
  std::vector<NodeEvent> events;
  for (const auto& e : trace.events())
    if (e.run < kTimelineCalls) events.push_back(e);
  return events;
}

}  // namespace

ComparePanel::ComparePanel(EngineWorker* worker, QWidget* parent)
    : QWidget(parent),
      m_worker(worker),
      m_function(new QComboBox(this)),
      m_calls(new QSpinBox(this)),
      m_run(new QPushButton(tr("Compare"), this)),
      m_cancelButton(new QPushButton(tr("Cancel"), this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this)),
      m_canvas(new GraphCanvas(this, worker)),
      m_signature(new QPlainTextEdit(this)),
      m_scriptRunner(new ScriptRunner(this)) {
  setObjectName("comparePanel");
  for (const auto& entry : tf::gallery()) {
    m_function->addItem(QString::fromUtf8(entry.name));
    m_function->setItemData(m_function->count() - 1, QString::fromUtf8(entry.summary), Qt::ToolTipRole);
  }
  m_function->setCurrentText("power");
  m_calls->setRange(1, 1000000);
  m_calls->setValue(1000);
  m_calls->setPrefix(tr("calls: "));
  m_calls->setToolTip(
      tr("Calls of each kind; the timelines show the first %1 of a second, profiled round").arg(kTimelineCalls));
  m_cancelButton->setEnabled(false);
  m_progress->setRange(0, 1000);
  m_progress->setMaximumWidth(200);
  m_progress->hide();
  m_signature->setReadOnly(true);
  m_signature->setPlaceholderText(tr("The concrete function's signature shows here after a comparison."));
  m_signature->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_status->setText(
      tr("Runs a gallery function eagerly (op by op) and as its traced graph, which runs optimized as "
         "TensorFlow runs Grappler on function graphs."));
  m_status->setWordWrap(true);

  auto* controls = new QHBoxLayout();
  controls->addWidget(new QLabel(tr("Function:"), this));
  controls->addWidget(m_function);
  controls->addWidget(m_calls);
  controls->addWidget(m_run);
  controls->addWidget(m_cancelButton);
  controls->addWidget(m_progress);
  controls->addStretch(1);

  auto* graphSide = new QSplitter(Qt::Vertical, this);
  graphSide->addWidget(m_canvas);
  graphSide->addWidget(m_signature);
  graphSide->setStretchFactor(0, 3);
  graphSide->setStretchFactor(1, 1);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(graphSide);
  split->addWidget(buildSide(m_side[0], tr("Eager")));
  split->addWidget(buildSide(m_side[1], tr("Graph")));
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  split->setStretchFactor(2, 3);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_status);
  layout->addWidget(split, 1);

  connect(m_run, &QPushButton::clicked, this, [this] {
    if (scriptChosen()) return compareScript(m_calls->value());
    compare(m_function->currentText(), m_calls->value());
  });
  connect(m_cancelButton, &QPushButton::clicked, this, &ComparePanel::cancel);
  connect(m_scriptRunner, &ScriptRunner::finished, this, &ComparePanel::onScriptFinished);
  connect(m_scriptRunner, &ScriptRunner::failed, this, &ComparePanel::onScriptFailed);
  connect(m_scriptRunner, &ScriptRunner::progress, this, [this](const QString& line) { m_status->setText(line); });
  connect(worker, &EngineWorker::jobProgress, this, [this](JobId id, double fraction, const QString&) {
    if (id == m_job) m_progress->setValue(static_cast<int>(fraction * 1000));
  });
}

ComparePanel::~ComparePanel() { cancel(); }

QWidget* ComparePanel::buildSide(Side& side, const QString& title) {
  auto* box = new QWidget(this);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(4, 0, 4, 0);
  auto* heading = new QLabel("<b>" + title + "</b>", box);
  side.total = new QLabel(tr("not run yet"), box);
  side.total->setTextInteractionFlags(Qt::TextSelectableByMouse);
  side.timeline = new TimelineView(box);
  side.timeline->setMinimumHeight(90);
  side.ops = new OpStatsModel(box);
  auto* sorted = new QSortFilterProxyModel(box);
  sorted->setSourceModel(side.ops);
  sorted->setSortRole(Qt::UserRole);
  side.table = new QTableView(box);
  side.table->setModel(sorted);
  side.table->setSortingEnabled(true);
  side.table->sortByColumn(OpStatsModel::kTotal, Qt::DescendingOrder);
  side.table->verticalHeader()->hide();
  side.table->horizontalHeader()->setStretchLastSection(true);
  layout->addWidget(heading);
  layout->addWidget(side.total);
  layout->addWidget(new QLabel(tr("timeline, first %1 calls (wheel zooms):").arg(kTimelineCalls), box));
  layout->addWidget(side.timeline, 1);
  layout->addWidget(side.table, 2);
  return box;
}

void ComparePanel::compare(const QString& function, int calls) {
  const tf::GalleryEntry* entry = tf::findGalleryEntry(function.toStdString());
  if (!entry) return emit failed(tr("no gallery function '%1'").arg(function));
  if (isRunning()) return;
  m_function->setCurrentText(function);
  m_calls->setValue(calls);
  m_resultFunction = function;
  startRun(tr("Tracing %1, then %2 eager and %2 graph calls, timed and profiled...").arg(function).arg(calls));
  using Result = std::shared_ptr<Expected<tf::EagerGraphComparison>>;  // profiles do not copy
  m_job = m_worker->submit<Result>(
      "compare", tr("Comparing %1").arg(function), this,
      [entry, calls](JobControl& control) {
        tf::CompareOptions options;
        options.cancelled = control.cancelFlag();
        options.progress = [&control](double fraction) { control.progress(fraction); };
        return std::make_shared<Expected<tf::EagerGraphComparison>>(
            tf::compareEagerAndGraph(*entry, entry->exampleArgs(), calls, options));
      },
      [this](Result result) { onFinished(std::move(result)); });
}

void ComparePanel::cancel() {
  m_worker->cancelTag("compare");
  m_scriptRunner->cancel();
}

bool ComparePanel::isRunning() const { return m_worker->isBusy("compare") || m_scriptRunner->isRunning(); }

void ComparePanel::startRun(const QString& status) {
  m_run->setEnabled(false);
  m_cancelButton->setEnabled(true);
  m_progress->setValue(0);
  m_progress->show();
  m_status->setText(status);
}

void ComparePanel::endRun() {
  m_run->setEnabled(true);
  m_cancelButton->setEnabled(false);
  m_progress->setRange(0, 1000);
  m_progress->hide();
}

void ComparePanel::onFinished(std::shared_ptr<Expected<tf::EagerGraphComparison>> shared) {
  endRun();
  auto& result = *shared;
  if (!result) {
    const bool wasCancelled = result.status().code() == ErrorCode::kCancelled;
    m_status->setText(wasCancelled ? tr("Cancelled.")
                                   : QString::fromStdString(result.status().message()).toHtmlEscaped());
    if (!wasCancelled) emit failed(QString::fromStdString(result.status().message()));
    return;
  }
  m_result = std::make_shared<const tf::EagerGraphComparison>(std::move(result).value());
  showResult();
  emit compared();
}

QString ComparePanel::summary() const {
  if (!m_result) return {};
  const double ratio = m_result->eagerSeconds / m_result->graphSeconds;
  return tr("%1, %2 calls each: graph is %3x %4 than eager")
      .arg(m_resultFunction)
      .arg(m_result->calls)
      .arg(QString::number(ratio >= 1 ? ratio : 1 / ratio, 'f', 2), ratio >= 1 ? tr("faster") : tr("slower"));
}

void ComparePanel::showResult() {
  const auto& r = *m_result;
  m_status->setText("<b>" + summary().toHtmlEscaped() + "</b>");
  const double seconds[2] = {r.eagerSeconds, r.graphSeconds};
  const RunProfile* traces[2] = {&r.eagerProfile, &r.graphProfile};
  const double slowest = std::max(r.eagerSeconds, r.graphSeconds);
  for (int s = 0; s < 2; ++s) {
    Side& side = m_side[s];
    const int bar = static_cast<int>(std::round(30 * seconds[s] / slowest));
    side.total->setText(
        tr("<b>%1 s</b> total, %2 per call<br><span style=\"font-family:monospace\">%3</span>")
            .arg(QString::number(seconds[s], 'f', 6), perCall(seconds[s], r.calls), QString(bar, QChar(0x2588))));
    side.timeline->setEvents(firstCalls(*traces[s]));
    side.ops->setStats(traces[s]->byOp(), r.calls, {});
    side.table->resizeColumnsToContents();
  }
  const int64_t common = std::max(eagerTimeline()->span(), graphTimeline()->span());  // one time scale for both
  eagerTimeline()->setMinimumSpan(common);
  graphTimeline()->setMinimumSpan(common);
  m_canvas->setGraph(std::make_shared<const Graph>(r.concrete->graph()));
  m_signature->setPlainText(QString::fromStdString(r.concrete->name() + "\n\n" +
                                                   r.concrete->prettySignature(m_resultFunction.toStdString())));
}

}  // namespace flowscope
