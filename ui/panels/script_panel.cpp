// The Functions dock.
#include "panels/script_panel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "script/script_runner.h"

namespace flowscope {
namespace {

constexpr int kFunctionRole = Qt::UserRole;
constexpr int kConcreteRole = Qt::UserRole + 1;

QString lastLine(const QString& text) {
  const QStringList lines = text.trimmed().split('\n');
  return lines.isEmpty() ? QString() : lines.last();
}

}  // namespace

ScriptPanel::ScriptPanel(QWidget* parent)
    : QWidget(parent),
      m_runner(new ScriptRunner(this)),
      m_status(new QLabel(this)),
      m_busy(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_rerun(new QPushButton(tr("Run again"), this)),
      m_tree(new QTreeWidget(this)) {
  setObjectName("scriptPanel");
  m_status->setWordWrap(true);
  m_status->setText(tr("Open a Python script (.py) to list its tf.functions."));
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_busy->setRange(0, 0);  // busy: a script's progress is its output
  m_busy->setMaximumHeight(12);
  m_busy->setTextVisible(false);
  m_busy->hide();
  m_cancel->setEnabled(false);
  m_rerun->setEnabled(false);
  m_tree->setHeaderLabels({tr("Function"), tr("Calls")});
  m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_tree->header()->setStretchLastSection(false);
  auto* buttons = new QHBoxLayout();
  buttons->addWidget(m_busy, 1);
  buttons->addWidget(m_cancel);
  buttons->addWidget(m_rerun);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(m_status);
  layout->addLayout(buttons);
  layout->addWidget(m_tree, 1);
  connect(m_cancel, &QPushButton::clicked, this, &ScriptPanel::cancel);
  connect(m_rerun, &QPushButton::clicked, this, [this] { run(m_script); });
  connect(m_tree, &QTreeWidget::currentItemChanged, this, &ScriptPanel::onCurrentChanged);
  connect(m_runner, &ScriptRunner::output, this, &ScriptPanel::output);
  connect(m_runner, &ScriptRunner::progress, this, [this](const QString& line) { m_status->setText(line); });
  connect(m_runner, &ScriptRunner::finished, this, &ScriptPanel::onFinished);
  connect(m_runner, &ScriptRunner::failed, this, &ScriptPanel::onFailed);
}

ScriptPanel::~ScriptPanel() = default;

bool ScriptPanel::isRunning() const { return m_runner->isRunning(); }

qint64 ScriptPanel::processId() const { return m_runner->processId(); }

QString ScriptPanel::statusText() const { return m_status->text(); }

void ScriptPanel::run(const QString& script) {
  m_script = script;
  m_manifest.reset();
  m_tree->clear();
  m_status->setText(tr("Running %1 in a separate Python process...").arg(QFileInfo(script).fileName()));
  setRunning(true);
  emit started(script);
  m_runner->start(ScriptRequest{script, {}, {}, 0});
}

void ScriptPanel::cancel() { m_runner->cancel(); }

void ScriptPanel::setRunning(bool running) {
  m_busy->setVisible(running);
  m_cancel->setEnabled(running);
  m_rerun->setEnabled(!running && !m_script.isEmpty());
}

void ScriptPanel::onFailed(const QString& message) {
  setRunning(false);
  m_status->setText(tr("<b>%1</b>: %2").arg(QFileInfo(m_script).fileName().toHtmlEscaped(), message.toHtmlEscaped()));
  emit failed(tr("%1: %2").arg(QFileInfo(m_script).fileName(), message));
}

void ScriptPanel::onFinished(int exitCode) {
  setRunning(false);
  auto manifest = readScriptManifest(m_runner->outDir());
  if (!manifest) {
    const QString why = lastLine(m_runner->errorOutput());
    return onFailed(tr("the runner exited with code %1 (%2)")
                        .arg(exitCode)
                        .arg(why.isEmpty() ? QString::fromStdString(manifest.status().message()) : why));
  }
  m_manifest = std::make_unique<ScriptManifest>(std::move(manifest).value());
  fill();
  int concretes = 0;
  for (const auto& f : m_manifest->functions) concretes += static_cast<int>(f.concretes.size());
  QString text = tr("%1: %n tf.function(s)", nullptr, static_cast<int>(m_manifest->functions.size()))
                     .arg(QFileInfo(m_script).fileName().toHtmlEscaped()) +
                 tr(", %n concrete function(s)", nullptr, concretes);
  if (m_manifest->raised)
    text = tr("<b><font color=\"#c62828\">The script raised</font></b> %1<br>%2 (listed up to the error)")
               .arg(lastLine(m_manifest->error).toHtmlEscaped(), text);
  m_status->setText(text);
  emit listed();
}

void ScriptPanel::fill() {
  m_tree->clear();
  for (int f = 0; f < static_cast<int>(m_manifest->functions.size()); ++f) {
    const ScriptFunction& function = m_manifest->functions[f];
    auto* top = new QTreeWidgetItem(m_tree, {function.qualname, QString::number(function.callCount)});
    top->setData(0, kFunctionRole, f);
    top->setData(0, kConcreteRole, -1);
    top->setToolTip(
        0, tr("%1, line %2; traced %n time(s)", nullptr, function.tracingCount).arg(function.file).arg(function.line));
    if (function.concretes.empty()) top->setText(0, function.qualname + tr(" (never traced)"));
    for (int c = 0; c < static_cast<int>(function.concretes.size()); ++c) {
      const ScriptConcrete& concrete = function.concretes[c];
      auto* item = new QTreeWidgetItem(top, {concrete.name, QString::number(concrete.callCount)});
      item->setData(0, kFunctionRole, f);
      item->setData(0, kConcreteRole, c);
      item->setToolTip(0, concrete.signature);
    }
    top->setExpanded(true);
  }
  m_tree->resizeColumnToContents(1);
}

void ScriptPanel::choose(int function, int concrete) {
  QTreeWidgetItem* top = m_tree->topLevelItem(function);
  if (top && concrete >= 0 && concrete < top->childCount()) m_tree->setCurrentItem(top->child(concrete));
}

void ScriptPanel::onCurrentChanged() {
  QTreeWidgetItem* item = m_tree->currentItem();
  if (!item || !m_manifest) return;
  const int f = item->data(0, kFunctionRole).toInt();
  const int c = item->data(0, kConcreteRole).toInt();
  if (c >= 0) return emit concreteChosen(f, c);
  if (item->childCount() > 0) m_tree->setCurrentItem(item->child(0));  // a Function shows its first trace
}

}  // namespace flowscope
