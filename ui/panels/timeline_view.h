// TimelineView: one lane per thread, one box per node event (Perfetto-style), zoomable in time. Clicking an event
// selects its node; selecting a node elsewhere highlights its events here.
#pragma once

#include <QWidget>
#include <string>
#include <vector>

#include "profile/run_profile.h"

namespace flowscope {

class TimelineView : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineView(QWidget* parent = nullptr);
  void setEvents(std::vector<NodeEvent> events);
  /// Widens the time axis to at least this many nanoseconds (so that two timelines side by side share a scale).
  void setMinimumSpan(int64_t ns);
  int64_t span() const { return m_end - m_start; }
  void highlightNode(const std::string& name);
  const std::vector<NodeEvent>& events() const { return m_events; }
  /// The event under a widget point, or -1.
  int eventAt(const QPoint& p) const;
  QRectF eventRect(int index) const;

 signals:
  void nodeClicked(const QString& name);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  std::vector<NodeEvent> m_events;
  std::string m_highlight;
  int64_t m_start = 0, m_end = 1;
  int m_lanes = 1;
  double m_zoom = 1, m_scroll = 0;  // horizontal: fraction of the span shown, and its start
};

}  // namespace flowscope
