// The status bar's task strip.
#include "panels/task_indicator.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace flowscope {

TaskIndicator::TaskIndicator(QWidget* parent)
    : QWidget(parent), m_label(new QLabel(this)), m_bar(new QProgressBar(this)), m_cancelButton(new QPushButton(tr("Cancel"), this)) {
  setObjectName("taskIndicator");
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_label);
  layout->addWidget(m_bar);
  layout->addWidget(m_cancelButton);
  m_bar->setRange(0, 0);  // busy
  m_bar->setMaximumWidth(120);
  m_bar->setMaximumHeight(14);
  m_tick.setInterval(500);
  connect(&m_tick, &QTimer::timeout, this, [this] { m_label->setText(text()); });
  connect(m_cancelButton, &QPushButton::clicked, this, [this] {
    auto cancel = m_cancel;
    finish(m_key);
    if (cancel) cancel();
  });
  hide();
}

void TaskIndicator::start(const QString& key, const QString& what, std::function<void()> cancel) {
  m_key = key;
  m_what = what;
  m_cancel = std::move(cancel);
  m_elapsed.start();
  m_label->setText(text());
  m_tick.start();
  show();
}

void TaskIndicator::finish(const QString& key) {
  if (key != m_key) return;
  m_key.clear();
  m_cancel = nullptr;
  m_tick.stop();
  hide();
}

QString TaskIndicator::text() const {
  if (m_key.isEmpty()) return {};
  const double seconds = static_cast<double>(m_elapsed.elapsed()) / 1000.0;
  return seconds < 1 ? m_what : tr("%1 (%2 s)").arg(m_what).arg(seconds, 0, 'f', 0);
}

}  // namespace flowscope
