// The Graph tab.
#include "panels/graph_view.h"

#include <QCursor>
#include <QMenu>
#include <QVBoxLayout>

#include "canvas/graph_canvas.h"
#include "ir/function_calls.h"
#include "panels/breadcrumb_bar.h"
#include "profile/node_times.h"

namespace flowscope {

GraphView::GraphView(Session* session, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_breadcrumb(new BreadcrumbBar(this)),
      m_canvas(new GraphCanvas(this, &session->worker())) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(m_breadcrumb);
  layout->addWidget(m_canvas, 1);
  connect(m_breadcrumb, &BreadcrumbBar::crumbClicked, this, [this](int depth) { m_session->goToLevel(depth); });
  connect(m_canvas, &GraphCanvas::itemSelected, this, &GraphView::onItemSelected);
  connect(m_canvas, &GraphCanvas::nodeActivated, this, &GraphView::onNodeActivated);
  session->addViewer(this);
}

GraphView::~GraphView() { m_session->removeViewer(this); }

void GraphView::documentChanged(const Session& session) {
  auto shown = session.shownModel();
  m_canvas->setGraph(shown ? std::shared_ptr<const Graph>(shown, &shown->graph) : nullptr);
  m_breadcrumb->setCrumbs(session.navigation().crumbs());
  profileChanged(session);
}

void GraphView::selectionChanged(const Session& session) {
  const Selection& s = session.selection();
  if (s.kind == Selection::Kind::kNode) {
    m_canvas->selectNode(s.node);
  } else if (s.kind == Selection::Kind::kGroup && m_canvas->layout()) {
    m_canvas->selectGroup(m_canvas->layout()->tree().find(s.group));
  }
}

void GraphView::profileChanged(const Session& session) {
  const ProfileView* profile = session.profileView();
  const bool atRoot = session.navigation().atRoot();  // profiles are of the opened graph
  m_canvas->setNodeTimes({});
  m_canvas->setNodeColors({});
  m_canvas->setNodeRoofline({}, {});
  m_canvas->setNodeFusedInto({});
  m_canvas->setNodeRatios({}, {});
  if (!profile || !atRoot) return;
  if (session.overlayMode() == OverlayMode::kRatio) {  // an imported profile against our own of the same graph
    const ProfileView* ours = session.ownProfileView();
    if (profile->imported && ours) m_canvas->setNodeRatios(ours->times.seconds, profile->times.seconds);
    return;
  }
  const NodeTimes& times = profile->times;
  if (session.overlayMode() == OverlayMode::kTime || session.overlayMode() == OverlayMode::kRoofline)
    m_canvas->setNodeFusedInto(times.fusedInto);
  if (session.overlayMode() == OverlayMode::kTime) return m_canvas->setNodeTimes(times.seconds);
  if (session.overlayMode() == OverlayMode::kRoofline)
    return m_canvas->setNodeRoofline(rooflineShares(times, profile->roofline), times.seconds);
  const Graph& graph = session.model()->graph;
  std::map<size_t, bool> onVulkan;
  for (const auto& e : profile->profile->events())
    for (size_t node : eventNodes(e, graph)) onVulkan[node] |= e.backend == "vulkan";
  std::vector<std::pair<size_t, QColor>> colours;
  for (const auto& [node, vulkan] : onVulkan) colours.emplace_back(node, vulkan ? vulkanColour() : cpuColour());
  m_canvas->setNodeColors(std::move(colours));
}

void GraphView::onItemSelected(int item) {
  auto scene = m_canvas->scene();
  if (!scene || item < 0) return m_session->select({});
  const SceneItem& it = scene->items[static_cast<size_t>(item)];
  if (it.kind == SceneItem::Kind::kNode) return m_session->select(Selection::ofNode(static_cast<size_t>(it.id)));
  m_session->select(Selection::ofGroup(std::string(m_canvas->layout()->tree().group(static_cast<int>(it.id)).path)));
}

void GraphView::onNodeActivated(size_t node) {
  auto shown = m_session->shownModel();
  if (!shown || node >= shown->graph.size()) return;
  const auto calls = calledFunctions(shown->graph.node(node), m_session->model()->graph.library);
  auto open = [this](const std::string& function) { m_session->openFunction(function); };
  if (calls.size() == 1) return open(calls.front().function);
  if (calls.empty()) return;
  auto* menu = new QMenu(this);  // If: then or else; While: cond or body
  menu->setAttribute(Qt::WA_DeleteOnClose);
  for (const auto& call : calls) {
    const std::string function = call.function;
    menu->addAction(tr("Open %1 (%2)").arg(QString::fromStdString(function), QString::fromStdString(call.attr)), this,
                    [open, function] { open(function); });
  }
  menu->popup(QCursor::pos());
}

}  // namespace flowscope
