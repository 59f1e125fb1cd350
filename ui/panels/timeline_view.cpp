// Timeline painting and picking.
#include "panels/timeline_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>

namespace flowscope {
namespace {
constexpr int kLaneHeight = 22, kTop = 18, kLeft = 60;
}

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) { setMinimumHeight(80); }

void TimelineView::setEvents(std::vector<NodeEvent> events) {
  m_events = std::move(events);
  m_start = m_events.empty() ? 0 : m_events.front().startNs;
  m_end = m_start + 1;
  m_lanes = 1;
  for (const auto& e : m_events) {
    m_start = std::min(m_start, e.startNs);
    m_end = std::max(m_end, e.endNs);
    m_lanes = std::max(m_lanes, e.thread + 1);
  }
  m_zoom = 1;
  m_scroll = 0;
  setMinimumHeight(kTop + m_lanes * kLaneHeight + 6);
  update();
}

void TimelineView::setMinimumSpan(int64_t ns) {
  m_end = std::max(m_end, m_start + ns);
  update();
}

void TimelineView::highlightNode(const std::string& name) {
  m_highlight = name;
  update();
}

QRectF TimelineView::eventRect(int index) const {
  const NodeEvent& e = m_events[static_cast<size_t>(index)];
  const double span = static_cast<double>(m_end - m_start) * m_zoom;
  const double w = std::max(1, width() - kLeft - 4);
  auto x = [&](int64_t t) { return kLeft + (static_cast<double>(t - m_start) / span - m_scroll / m_zoom) * w; };
  return QRectF(x(e.startNs), kTop + e.thread * kLaneHeight + 2, std::max(1.0, x(e.endNs) - x(e.startNs)),
                kLaneHeight - 4);
}

int TimelineView::eventAt(const QPoint& p) const {
  for (int i = static_cast<int>(m_events.size()) - 1; i >= 0; --i)
    if (eventRect(i).adjusted(-1, 0, 1, 0).contains(p)) return i;
  return -1;
}

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  p.setPen(palette().text().color());
  p.drawText(QRect(4, 0, width(), kTop), Qt::AlignLeft | Qt::AlignVCenter,
             m_events.empty() ? tr("No profile yet")
                              : tr("%1 events, %2 us").arg(m_events.size()).arg((m_end - m_start) / 1000.0, 0, 'f', 1));
  for (int lane = 0; lane < (m_events.empty() ? 0 : m_lanes); ++lane)  // no lanes to name before a profile
    p.drawText(QRect(4, kTop + lane * kLaneHeight, kLeft - 8, kLaneHeight), Qt::AlignVCenter,
               tr("thread %1").arg(lane));
  for (size_t i = 0; i < m_events.size(); ++i) {
    QRectF r = eventRect(static_cast<int>(i));
    if (r.right() < kLeft || r.left() > width()) continue;
    const NodeEvent& e = m_events[i];
    const bool hot = !m_highlight.empty() && (e.name == m_highlight || std::find(e.fusedFrom.begin(), e.fusedFrom.end(),
                                                                                 m_highlight) != e.fusedFrom.end());
    QColor c = QColor::fromHsv(static_cast<int>(std::hash<std::string>{}(m_events[i].op) % 360), 90, 230);
    p.fillRect(r, hot ? QColor("#e53935") : c);
    if (r.width() > 40) {
      p.setPen(Qt::black);
      p.drawText(r.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, QString::fromStdString(m_events[i].op));
    }
  }
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
  int hit = eventAt(event->pos());
  if (hit < 0) return;
  const NodeEvent& e = m_events[static_cast<size_t>(hit)];
  m_highlight = e.name;
  update();
  QStringList names;
  for (const std::string& name : e.fusedFrom) names << QString::fromStdString(name);
  emit nodeClicked(names << QString::fromStdString(e.name));
}

void TimelineView::wheelEvent(QWheelEvent* event) {
  const double factor = std::pow(1.0015, -event->angleDelta().y());
  m_zoom = std::clamp(m_zoom * factor, 1e-4, 1.0);
  m_scroll = std::clamp(m_scroll, 0.0, 1.0 - m_zoom);
  update();
}

}  // namespace flowscope
