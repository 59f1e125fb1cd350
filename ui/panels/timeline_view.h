// TimelineView: one lane per thread, one box per node event (Perfetto-style), zoomable in time. Clicking an event
// selects its node (a fused kernel's: the first node it computes); selecting a node elsewhere highlights its events
// here, a fused kernel's for any node it computes.
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
  /// Highlights the events of node `name`: those it ran as, and the fused kernels that computed it.
  void highlightNode(const std::string& name);
  const std::vector<NodeEvent>& events() const { return m_events; }
  /// The event under a widget point, or -1.
  int eventAt(const QPoint& p) const;
  QRectF eventRect(int index) const;

 signals:
  /// An event was clicked: the nodes it computed as a fused kernel (the first one first), then the node it ran as.
  void nodeClicked(const QStringList& names);

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
