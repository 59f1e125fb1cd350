// OutlinePanel: the name-scope tree beside the canvas, kept in step with it. Opening or closing a group in the
// tree (mouse or keyboard: arrows, Left/Right, +/-) expands or collapses it on the canvas and back; choosing a row
// selects its node or group on the canvas, and a selection on the canvas shows in the tree.
#pragma once

#include <QTreeView>
#include <set>
#include <string>

namespace flowscope {

class GraphCanvas;
class OutlineModel;

class OutlinePanel : public QTreeView {
  Q_OBJECT

 public:
  OutlinePanel(GraphCanvas* canvas, QWidget* parent = nullptr);
  OutlineModel* outline() const { return m_model; }

 signals:
  void nodeChosen(size_t node);
  void groupChosen(int group);

 private:
  void onSceneReady();
  void onCanvasSelection(int item);
  void onCurrentChanged(const QModelIndex& current);
  void onExpandedInTree(const QModelIndex& index, bool expanded);

  GraphCanvas* m_canvas;
  OutlineModel* m_model;
  std::set<std::string> m_shownExpansion;  // the canvas expansion the tree last mirrored
  bool m_syncing = false;
};

}  // namespace flowscope
