// Inspector rendering (rich text).
#include "panels/inspector_panel.h"

#include <map>

#include "ir/function_calls.h"
#include "layout/scope_tree.h"
#include "ops/op_registry.h"

namespace flowscope {
namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString tensorText(const TensorInfo* info) {
  if (!info) return "?";
  return esc(std::string(dtypeName(info->dtype)) + " " + info->shape.toString());
}

}  // namespace

InspectorPanel::InspectorPanel(Session* session, QWidget* parent) : QTextBrowser(parent), m_session(session) {
  setOpenLinks(false);
  connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.scheme() == "function") m_session->openFunction(url.path().toStdString());
  });
  setPlaceholderText(tr("Select a node or group on the canvas or in the node list."));
  session->addViewer(this);
}

InspectorPanel::~InspectorPanel() { m_session->removeViewer(this); }

void InspectorPanel::documentChanged(const Session& session) {
  m_model = session.shownModel();
  m_facts.reset();
  clear();
  if (!m_model) return;
  auto model = m_model;
  session.worker().submit<std::shared_ptr<const Facts>>(
      "inspector", {}, this,
      [model](JobControl&) {
        return std::make_shared<const Facts>(Facts{inferShapes(model->graph), ScopeTree(model->graph)});
      },
      [this, model](std::shared_ptr<const Facts> facts) {
        if (model != m_model) return;
        m_facts = std::move(facts);
        render();  // the shown node gains its dtypes and shapes
      });
}

void InspectorPanel::selectionChanged(const Session&) { render(); }

void InspectorPanel::render() {
  const Selection& s = m_session->selection();
  if (!m_model || s.kind == Selection::Kind::kNone) return clear();
  if (s.kind == Selection::Kind::kNode && s.node < m_model->graph.size()) return renderNode(s.node);
  if (s.kind == Selection::Kind::kGroup) return renderGroup(s.group);
}

void InspectorPanel::renderNode(size_t index) {
  const GraphShapes& shapes = m_facts ? m_facts->shapes : m_noShapes;
  const Graph& g = m_model->graph;
  const Node& n = g.node(index);
  const OpSchema* schema = OpRegistry::global().find(n.op);
  QString html = "<h3>" + esc(n.name) + "</h3>";
  html += "<p><b>" + esc(n.op) + "</b> &mdash; " +
          esc(std::string(categoryName(OpRegistry::global().categoryOf(n.op, &g.library))));
  if (schema && !schema->def.summary.empty())
    html += "<br><i>" + esc(schema->def.summary) + "</i>";
  else if (g.library.find(n.op))
    html += "<br><i>calls the library function " + esc(n.op) + "</i>";
  else if (!schema)
    html += "<br><i>an op Flowscope does not know: shown, not run</i>";
  html += "</p>";
  if (!n.device.empty()) html += "<p>device: " + esc(n.device) + "</p>";
  html += profileHtml(index);  // first after the op: what a user profiling selects the node for
  html += "<h4>Inputs</h4><ul>";
  for (const auto& in : n.inputs) {
    int64_t p = g.find(in.node);
    html += "<li>" + esc(in.toString()) + ": " +
            tensorText(p >= 0 ? shapes.find(static_cast<size_t>(p), in.index) : nullptr) + "</li>";
  }
  for (const auto& c : n.controlInputs) html += "<li>^" + esc(c) + " (control)</li>";
  html += "</ul><h4>Outputs</h4><ul>";
  if (index < shapes.outputs.size())
    for (size_t k = 0; k < shapes.outputs[index].size(); ++k)
      html += "<li>" + esc(n.name) + ":" + QString::number(k) + ": " + tensorText(&shapes.outputs[index][k]) + "</li>";
  else if (!m_facts)
    html += "<li><i>inferring shapes...</i></li>";
  html += "</ul><h4>Attributes</h4><table>";
  for (const auto& [key, value] : n.attrs) {
    std::string text = value.kind() == AttrValue::Kind::kTensor ? value.tensor().preview(16) : value.toString();
    html += "<tr><td><b>" + esc(key) + "</b></td><td>" + esc(text.size() > 400 ? text.substr(0, 400) + "..." : text) +
            "</td></tr>";
  }
  html += "</table>";
  const auto calls = calledFunctions(n, g.library);
  if (!calls.empty()) {
    html += "<h4>Calls</h4><ul>";
    for (const auto& call : calls) {
      const FunctionDef* def = g.library.find(call.function);
      const QString name = esc(call.function);
      html += "<li>" + esc(call.attr) + ": " +
              (def && def->body ? "<a href=\"function:" + name + "\">" + name + "</a> (" +
                                      QString::number(def->body->size()) + " nodes)"
                                : name + " (not in the library)") +
              "</li>";
    }
    html += "</ul><p><i>Click a function, or double-click the node, to open its body.</i></p>";
  }
  setHtml(html);
}

// The node's time per run in the profile of the opened graph, and the nodes fused into its kernel; or the node whose
// fused kernel computed it.
QString InspectorPanel::profileHtml(size_t index) const {
  const ProfileView* view = m_session->profileView();
  if (!view || m_model != m_session->model() || index >= view->times.seconds.size()) return {};
  const NodeTimes& times = view->times;
  const Graph& g = m_model->graph;
  if (const int64_t anchor = times.fusedInto[index]; anchor >= 0)
    return "<h4>Profile</h4><p>Ran inside the fused kernel of " + esc(g.node(static_cast<size_t>(anchor)).name) +
           ", which shows the time.</p>";
  if (times.seconds[index] <= 0) return {};
  QString html = "<h4>Profile</h4><p>" + QString::number(times.seconds[index] * 1e6, 'f', 1) + " us per run";
  if (times.flops[index] > 0)
    html += ", " + QString::number(times.flops[index] / times.seconds[index] * 1e-9, 'f', 1) + " GFLOP/s";
  QStringList fused;
  for (size_t k = 0; k < times.fusedInto.size(); ++k)
    if (times.fusedInto[k] == static_cast<int64_t>(index)) fused << esc(g.node(k).name);
  if (!fused.isEmpty()) html += "<br>one fused kernel with " + fused.join(", ") + ": the time is theirs too";
  return html + "</p>";
}

void InspectorPanel::renderGroup(const std::string& path) {
  if (!m_facts) return setHtml("<h3>" + esc(path) + "</h3><p><i>reading the name scopes...</i></p>");
  const ScopeTree& tree = m_facts->tree;
  const int group = tree.find(path);
  if (group < 0) return clear();
  const ScopeGroup& sg = tree.group(group);
  std::map<std::string, size_t> ops;
  std::vector<int> work{group};
  while (!work.empty()) {
    const ScopeGroup& w = tree.group(work.back());
    work.pop_back();
    for (size_t n : w.nodes) ++ops[m_model->graph.node(n).op];
    work.insert(work.end(), w.groups.begin(), w.groups.end());
  }
  QString html = "<h3>" + esc(sg.path.empty() ? std::string("(root)") : std::string(sg.path)) + "</h3><p>name scope, " +
                 QString::number(sg.totalNodes) + " nodes in " + QString::number(sg.groups.size()) +
                 " sub-scopes and " + QString::number(sg.nodes.size()) +
                 " direct nodes. Double-click to expand or collapse.</p><h4>Ops</h4><table>";
  for (const auto& [op, count] : ops)
    html += "<tr><td>" + esc(op) + "</td><td align=right>" + QString::number(count) + "</td></tr>";
  setHtml(html + "</table>");
}

}  // namespace flowscope
