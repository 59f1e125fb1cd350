// The Eager vs Graph tab for a script's Function: the script runs again in its own process with --compare, which
// replays the calls it recorded eagerly and as graphs; the tab shows medians, totals, the graph and the signature.
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSpinBox>

#include "canvas/graph_canvas.h"
#include "io/loader.h"
#include "models/op_stats_model.h"
#include "panels/compare_panel.h"
#include "panels/timeline_view.h"
#include "script/script_runner.h"

namespace flowscope {
namespace {

constexpr char kScriptItem[] = "script";

QString microseconds(double us) {
  return us >= 1000 ? QString::number(us / 1000, 'f', 2) + " ms" : QString::number(us, 'f', 1) + " us";
}

}  // namespace

bool ComparePanel::scriptChosen() const { return m_function->currentData().toString() == kScriptItem; }

void ComparePanel::setScriptFunction(const QString& script, const ScriptFunction& function,
                                     const ScriptConcrete& concrete) {
  if (m_function->itemData(0).toString() != kScriptItem) {
    m_function->insertItem(0, {}, QString(kScriptItem));
    m_calls->setValue(100);  // Python's eager calls are slow: fewer rounds by default
  }
  m_function->setItemText(0, tr("%1 (%2)").arg(function.name, QFileInfo(script).fileName()));
  m_function->setItemData(0, tr("A tf.function of the opened script, on the arguments the script called it with"),
                          Qt::ToolTipRole);
  m_function->setCurrentIndex(0);
  m_script = script;
  m_scriptFunction = function.name;
  m_scriptGraph = concrete.graphFile;
  m_scriptText = concrete.name + "\n\n" + concrete.signature + "\n";
  for (const QString& call : concrete.calls) m_scriptText += "\n  " + function.name + call;
  m_status->setText(tr("Compare runs %1 again in a separate Python process and replays the calls it made to %2, "
                       "eagerly (tf.config.run_functions_eagerly) and as graphs.")
                        .arg(QFileInfo(script).fileName(), function.name));
}

void ComparePanel::compareScript(int calls) {
  if (m_script.isEmpty() || isRunning()) return;
  const QString& name = m_scriptFunction;
  m_calls->setValue(calls);
  startRun(tr("Running %1 again, then %2 rounds of %3's recorded calls eagerly and as graphs...")
               .arg(QFileInfo(m_script).fileName())
               .arg(calls)
               .arg(name));
  m_progress->setRange(0, 0);  // busy: the process reports lines, not fractions
  m_scriptRunner->start(ScriptRequest{m_script, {}, name, calls});
}

void ComparePanel::onScriptFailed(const QString& message) {
  endRun();
  m_status->setText(message.toHtmlEscaped());
  if (!message.startsWith("cancelled")) emit failed(message);
}

void ComparePanel::onScriptFinished() {
  endRun();
  auto result = readScriptComparison(m_scriptRunner->outDir());
  if (!result) {
    QString why = QString::fromStdString(result.status().message());
    if (!QFileInfo::exists(m_scriptRunner->outDir() + "/compare.json"))
      why = m_scriptRunner->errorOutput().trimmed().section('\n', -1);
    return onScriptFailed(tr("Cannot compare: %1").arg(why));
  }
  m_scriptResult = std::make_unique<ScriptComparison>(std::move(result).value());
  showScriptResult();
  emit compared();
}

void ComparePanel::showScriptResult() {
  const ScriptComparison& r = *m_scriptResult;
  m_status->setText(tr("<b>%1, %2 recorded call(s) x %3 rounds: %4</b>")
                        .arg(r.function.toHtmlEscaped())
                        .arg(r.recordedCalls)
                        .arg(r.rounds)
                        .arg(comparisonVerdict(r).toHtmlEscaped()));
  const double medians[2] = {r.eagerMedianUs, r.graphMedianUs};
  const double totals[2] = {r.eagerSeconds, r.graphSeconds};
  const double slowest = std::max(medians[0], medians[1]);
  for (int s = 0; s < 2; ++s) {
    const int bar = slowest > 0 ? static_cast<int>(std::round(30 * medians[s] / slowest)) : 0;
    m_side[s].total->setText(
        tr("<b>%1</b> median per call, %2 s in all<br><span style=\"font-family:monospace\">"
           "%3</span><br>(timed in Python; the per-op profile is for gallery functions)")
            .arg(microseconds(medians[s]), QString::number(totals[s], 'f', 6), QString(bar, QChar(0x2588))));
    m_side[s].timeline->setEvents({});
    m_side[s].ops->setStats({}, 1, {});
  }
  m_signature->setPlainText(m_scriptText);
  const std::string file = m_scriptGraph.toStdString();
  using Loaded = std::shared_ptr<Expected<Model>>;
  m_worker->submit<Loaded>(
      "compare-graph", {}, this, [file](JobControl&) { return std::make_shared<Expected<Model>>(loadModel(file)); },
      [this](Loaded model) {
        if (model->hasValue()) m_canvas->setGraph(std::make_shared<const Graph>(std::move(*model).value().graph));
      });
}

}  // namespace flowscope
