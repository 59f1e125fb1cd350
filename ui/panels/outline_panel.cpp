// The outline dock.
#include "panels/outline_panel.h"

#include <QHeaderView>

#include "canvas/graph_canvas.h"
#include "models/outline_model.h"

namespace flowscope {

OutlinePanel::OutlinePanel(Session* session, GraphCanvas* canvas, QWidget* parent)
    : QTreeView(parent), m_session(session), m_canvas(canvas), m_model(new OutlineModel(this)) {
  setObjectName("outline");
  setModel(m_model);
  setUniformRowHeights(true);  // constant-time row geometry for very large trees
  setAlternatingRowColors(true);
  header()->setStretchLastSection(true);
  setColumnWidth(OutlineModel::kName, 200);
  connect(m_canvas, &GraphCanvas::sceneReady, this, &OutlinePanel::onSceneReady);
  connect(selectionModel(), &QItemSelectionModel::currentChanged, this, &OutlinePanel::onCurrentChanged);
  connect(this, &QTreeView::expanded, this, [this](const QModelIndex& index) { onExpandedInTree(index, true); });
  connect(this, &QTreeView::collapsed, this, [this](const QModelIndex& index) { onExpandedInTree(index, false); });
  session->addViewer(this);
}

OutlinePanel::~OutlinePanel() { m_session->removeViewer(this); }

void OutlinePanel::onSceneReady() {
  m_syncing = true;
  if (m_canvas->layout().get() != m_model->layout()) {
    m_model->setLayout(m_canvas->layout());
    m_shownExpansion.clear();
  }
  if (m_canvas->expanded() != m_shownExpansion) {
    // Mirror the canvas: a group is open in the tree when it and every group around it are expanded there.
    m_shownExpansion = m_canvas->expanded();
    const ScopeTree& tree = m_model->layout()->tree();
    collapseAll();
    for (const std::string& path : m_shownExpansion) {
      const int group = tree.find(path);
      bool open = group > ScopeTree::kRoot;
      for (int g = group; open && g > ScopeTree::kRoot; g = tree.group(g).parent)
        open = m_shownExpansion.count(std::string(tree.group(g).path)) > 0;
      if (open) setExpanded(m_model->groupIndex(group), true);
    }
  }
  m_syncing = false;
}

void OutlinePanel::onExpandedInTree(const QModelIndex& index, bool expanded) {
  const int group = m_model->groupAt(index);
  if (m_syncing || group <= 0) return;
  const std::string path(m_model->layout()->tree().group(group).path);
  std::set<std::string> wanted = m_canvas->expanded();
  if (expanded) {  // opening a group in the tree opens the groups around it on the canvas too
    const ScopeTree& tree = m_model->layout()->tree();
    for (int g = group; g > ScopeTree::kRoot; g = tree.group(g).parent) wanted.emplace(tree.group(g).path);
  } else {
    wanted.erase(path);
  }
  m_shownExpansion = wanted;
  m_canvas->setExpanded(std::move(wanted));
}

void OutlinePanel::onCurrentChanged(const QModelIndex& current) {
  if (m_syncing || !current.isValid()) return;
  const int64_t node = m_model->nodeAt(current);
  if (node >= 0) return m_session->select(Selection::ofNode(static_cast<size_t>(node)));
  m_session->select(Selection::ofGroup(std::string(m_model->layout()->tree().group(m_model->groupAt(current)).path)));
}

void OutlinePanel::documentChanged(const Session& session) {
  if (session.shownModel()) return;
  m_model->setLayout(nullptr);  // else the closed document's layout (graph, scopes, shapes) stays until the next one
  m_shownExpansion.clear();
}

void OutlinePanel::selectionChanged(const Session& session) {
  const Selection& s = session.selection();
  if (!m_model->layout() || s.kind == Selection::Kind::kNone) return;
  if (s.kind == Selection::Kind::kNode && s.node >= m_model->layout()->graph().size()) return;
  const QModelIndex index = s.kind == Selection::Kind::kNode
                                ? m_model->nodeIndex(s.node)
                                : m_model->groupIndex(m_model->layout()->tree().find(s.group));
  if (!index.isValid() || index == currentIndex()) return;
  m_syncing = true;  // revealing the row opens its parents in the tree only
  setCurrentIndex(index);
  scrollTo(index);
  m_syncing = false;
}

}  // namespace flowscope
