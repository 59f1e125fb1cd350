// Theirs vs ours: an imported profile beside our engine's profile of the same graph, per node (theirs, ours, ratio;
// a row sums the nodes either side fused into one kernel). Shown when the session's profile is imported and our engine
// has profiled the document too; a row selects its node on the canvas, which shows the imported profile's overlay.
#pragma once

#include <QWidget>

#include "session/session.h"

class QLabel;
class QTableWidget;

namespace flowscope {

class SideBySidePanel : public QWidget, public SessionViewer {
  Q_OBJECT

 public:
  SideBySidePanel(Session* session, QWidget* parent = nullptr);
  ~SideBySidePanel() override;
  QTableWidget* table() const { return m_table; }
  QString summary() const;

  void documentChanged(const Session&) override {}
  void selectionChanged(const Session&) override {}
  void passChanged(const Session&) override {}
  void profileChanged(const Session& session) override;

 signals:
  /// The panel's "Import profile..." button: the window asks for the profile.
  void importRequested();

 private:
  void fill(const Graph& graph, const ProfileView& theirs, const ProfileView& ours);

  Session* m_session;
  QLabel* m_summary;
  QTableWidget* m_table;
  std::vector<size_t> m_rowNodes;
};

}  // namespace flowscope
