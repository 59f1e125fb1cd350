// OutlinePanel: the name-scope tree of the graph canvas, kept in step with it (it is the canvas's twin, as the minimap
// is: it reads the canvas's layout). Opening or closing a group in the tree (mouse or keyboard: arrows, Left/Right,
// +/-) expands or collapses it on the canvas and back; choosing a row selects its node or group in the session, and
// the session's selection shows in the tree.
#pragma once

#include <QTreeView>
#include <set>
#include <string>

#include "session/session.h"

namespace flowscope {

class GraphCanvas;
class OutlineModel;

class OutlinePanel : public QTreeView, public SessionViewer {
  Q_OBJECT

 public:
  OutlinePanel(Session* session, GraphCanvas* canvas, QWidget* parent = nullptr);
  ~OutlinePanel() override;
  OutlineModel* outline() const { return m_model; }

  /// Empties the tree when the document closes; otherwise the canvas's next scene brings the new tree.
  void documentChanged(const Session& session) override;
  void selectionChanged(const Session& session) override;
  void passChanged(const Session&) override {}
  void profileChanged(const Session&) override {}

 protected:
  using QTreeView::selectionChanged;  // the view's own overload, beside SessionViewer's

 private:
  void onSceneReady();
  void onCurrentChanged(const QModelIndex& current);
  void onExpandedInTree(const QModelIndex& index, bool expanded);

  Session* m_session;
  GraphCanvas* m_canvas;
  OutlineModel* m_model;
  std::set<std::string> m_shownExpansion;  // the canvas expansion the tree last mirrored
  bool m_syncing = false;
};

}  // namespace flowscope
