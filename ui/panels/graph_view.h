// GraphView: the Graph tab. The canvas with the breadcrumb above it, showing the session's shown graph (the opened
// model or a function body), its selection, and the profile's overlay (heat by time, or colours by device) on the
// opened graph. Double-clicking a node that calls functions opens the body (a menu when it calls several).
#pragma once

#include <QWidget>

#include "session/session.h"

namespace flowscope {

class BreadcrumbBar;
class GraphCanvas;

class GraphView : public QWidget, public SessionViewer {
  Q_OBJECT

 public:
  GraphView(Session* session, QWidget* parent = nullptr);
  ~GraphView() override;
  GraphCanvas* canvas() const { return m_canvas; }
  BreadcrumbBar* breadcrumb() const { return m_breadcrumb; }
  /// Device colours: Vulkan purple, CPU slate.
  static QColor vulkanColour() { return QColor("#8e24aa"); }
  static QColor cpuColour() { return QColor("#78909c"); }

  void documentChanged(const Session& session) override;
  void selectionChanged(const Session& session) override;
  void passChanged(const Session&) override {}
  void profileChanged(const Session& session) override;

 private:
  void onItemSelected(int item);
  void onNodeActivated(size_t node);

  Session* m_session;
  BreadcrumbBar* m_breadcrumb;
  GraphCanvas* m_canvas;
};

}  // namespace flowscope
