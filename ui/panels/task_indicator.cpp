// The status bar's task strip. A job shows from the moment it is queued (loading a file shows at once).
#include "panels/task_indicator.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace flowscope {

TaskIndicator::TaskIndicator(EngineWorker* worker, QWidget* parent)
    : QWidget(parent),
      m_worker(worker),
      m_label(new QLabel(this)),
      m_bar(new QProgressBar(this)),
      m_cancelButton(new QPushButton(tr("Cancel"), this)) {
  setObjectName("taskIndicator");
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_label);
  layout->addWidget(m_bar);
  layout->addWidget(m_cancelButton);
  m_bar->setMaximumWidth(120);
  m_bar->setMaximumHeight(14);
  m_tick.setInterval(500);
  connect(&m_tick, &QTimer::timeout, this, &TaskIndicator::refresh);
  connect(m_cancelButton, &QPushButton::clicked, this, [this] {
    if (!m_tasks.empty()) m_worker->cancel(m_tasks.rbegin()->first);
  });
  connect(worker, &EngineWorker::jobQueued, this, [this](JobId id, const QString&, const QString& title) {
    if (title.isEmpty()) return;  // housekeeping jobs stay out of the strip
    Task& task = m_tasks[id];
    task.title = title;
    task.elapsed.start();
    refresh();
  });
  connect(worker, &EngineWorker::jobStarted, this, [this](JobId id) {
    if (auto it = m_tasks.find(id); it != m_tasks.end()) it->second.elapsed.start();
  });
  connect(worker, &EngineWorker::jobProgress, this, [this](JobId id, double fraction, const QString& what) {
    auto it = m_tasks.find(id);
    if (it == m_tasks.end()) return;
    it->second.fraction = fraction;
    if (!what.isEmpty()) it->second.what = what;
    refresh();
  });
  auto drop = [this](JobId id) {
    if (m_tasks.erase(id)) refresh();
  };
  connect(worker, &EngineWorker::jobFinished, this, [drop](JobId id, const QString&, bool) { drop(id); });
  connect(worker, &EngineWorker::jobCancelled, this, drop);
  hide();
}

QString TaskIndicator::text() const {
  if (m_tasks.empty()) return {};
  const Task& task = m_tasks.rbegin()->second;
  QString text = task.what.isEmpty() ? task.title : tr("%1: %2").arg(task.title, task.what);
  const double seconds = static_cast<double>(task.elapsed.elapsed()) / 1000.0;
  if (seconds >= 1) text = tr("%1 (%2 s)").arg(text).arg(seconds, 0, 'f', 0);
  if (m_tasks.size() > 1) text += tr(" +%1 more").arg(m_tasks.size() - 1);
  return text;
}

void TaskIndicator::refresh() {
  if (m_tasks.empty()) {
    m_tick.stop();
    hide();
    return;
  }
  const Task& task = m_tasks.rbegin()->second;
  if (task.fraction < 0) {
    m_bar->setRange(0, 0);  // busy
  } else {
    m_bar->setRange(0, 1000);
    m_bar->setValue(static_cast<int>(task.fraction * 1000));
  }
  m_label->setText(text());
  if (!m_tick.isActive()) m_tick.start();
  show();
}

}  // namespace flowscope
