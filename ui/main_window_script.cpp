// The main window's side of opened Python scripts: the Functions dock runs the script and lists its tf.functions;
// a chosen concrete function's graph opens on the canvas through the ordinary loading path (so its branches and loop
// bodies open as function subgraphs), its sources show in the Source tab and Eager vs Graph offers it.
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTabWidget>

#include "main_window.h"
#include "panels/compare_panel.h"
#include "panels/profile_panel.h"
#include "panels/script_panel.h"
#include "panels/script_source_view.h"

namespace flowscope {
namespace {

void raiseDock(QWidget* widget) {
  if (auto* dock = qobject_cast<QDockWidget*>(widget->parentWidget())) {
    dock->show();
    dock->raise();
  }
}

}  // namespace

void MainWindow::connectScript() {
  auto* profileDock = qobject_cast<QDockWidget*>(m_profile->parentWidget());
  auto* outputDock = qobject_cast<QDockWidget*>(m_scriptOutput->parentWidget());
  if (profileDock && outputDock) {
    tabifyDockWidget(profileDock, outputDock);  // the output below, as a tab
    profileDock->raise();                       // the profiler in front until a script runs
  }
  m_scriptOutput->setObjectName("scriptOutput");
  m_scriptOutput->setReadOnly(true);
  m_scriptOutput->setMaximumBlockCount(20000);
  m_scriptOutput->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_scriptOutput->setPlaceholderText(tr("An opened script's prints and errors show here as it runs."));
  connect(m_script, &ScriptPanel::started, this, [this](const QString& script) {
    m_scriptOutput->clear();
    m_source->clear();
    raiseDock(m_script);
    raiseDock(m_scriptOutput);
    m_header->setText(tr("<b>%1</b> &mdash; running in a separate Python process (Cancel in the Functions panel "
                         "stops it)")
                          .arg(script.toHtmlEscaped()));
    setWindowTitle(tr("%1 - Flowscope").arg(QFileInfo(script).fileName()));
    statusBar()->showMessage(tr("Running %1 ...").arg(script));
  });
  connect(m_script, &ScriptPanel::output, this, [this](const QString& text, bool) {
    m_scriptOutput->moveCursor(QTextCursor::End);
    m_scriptOutput->insertPlainText(text);
    m_scriptOutput->moveCursor(QTextCursor::End);
  });
  connect(m_script, &ScriptPanel::failed, this, [this](const QString& message) {
    m_header->setText(tr("<b>Could not run the script.</b><br>%1").arg(message.toHtmlEscaped()));
    statusBar()->showMessage(message);
  });
  connect(m_script, &ScriptPanel::listed, this, [this] {
    const ScriptManifest& m = *m_script->manifest();
    const QString name = QFileInfo(m.script).fileName().toHtmlEscaped();
    m_header->setText(m.raised ? tr("<b>%1 raised</b> (its traceback is in Script output); the Functions panel lists "
                                    "what it traced before.")
                                     .arg(name)
                               : tr("<b>%1</b> ran; choose a concrete function in the Functions panel.").arg(name));
    statusBar()->showMessage(m.raised ? tr("The script raised") : tr("The script ran"));
    for (int f = 0; f < static_cast<int>(m.functions.size()); ++f)
      if (!m.functions[f].concretes.empty()) return m_script->choose(f, 0);
  });
  connect(m_script, &ScriptPanel::concreteChosen, this, &MainWindow::onConcreteChosen);
}

void MainWindow::runScript(const QString& path) {
  rememberRecent(path);
  m_script->run(path);
}

void MainWindow::onConcreteChosen(int function, int concrete) {
  const ScriptFunction& f = m_script->manifest()->functions[function];
  const ScriptConcrete& c = f.concretes[concrete];
  m_source->showFunction(f, c);
  m_compare->setScriptFunction(m_script->script(), f, c);
  if (c.graphFile.isEmpty()) {
    statusBar()->showMessage(tr("%1 has no graph: %2").arg(c.name, c.graphError));
    return;
  }
  m_scriptGraph = c.graphFile;
  m_scriptGraphTitle = tr("%1 &mdash; %2: <b>%3</b>")
                           .arg(QFileInfo(m_script->script()).fileName().toHtmlEscaped(), f.qualname.toHtmlEscaped(),
                                c.name.toHtmlEscaped());
  statusBar()->showMessage(tr("Loading %1 ...").arg(c.name));
  m_session->open(c.graphFile);
}

void MainWindow::showScriptGraphHeader(size_t nodes, size_t functions) {
  m_header->setText(
      tr("%1, %2 nodes, %3 function bodies (double-click a cond or while node to open its branch or loop body)")
          .arg(m_scriptGraphTitle)
          .arg(nodes)
          .arg(functions));
}

}  // namespace flowscope
