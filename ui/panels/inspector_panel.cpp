// Inspector rendering (rich text).
#include "panels/inspector_panel.h"

#include <QtConcurrent>

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

InspectorPanel::InspectorPanel(QWidget* parent) : QTextBrowser(parent) {
  setOpenLinks(false);
  connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.scheme() == "function") emit functionRequested(url.path());
  });
  setPlaceholderText(tr("Select a node or group on the canvas or in the node list."));
  connect(&m_shapesWatcher, &QFutureWatcherBase::finished, this, [this] {
    m_shapes = m_shapesWatcher.result();
    if (m_node >= 0) render();  // the shown node gains its dtypes and shapes
  });
}

InspectorPanel::~InspectorPanel() { m_shapesWatcher.waitForFinished(); }

void InspectorPanel::setModel(std::shared_ptr<const Model> model) {
  m_shapesWatcher.waitForFinished();
  m_model = std::move(model);
  m_shapes.reset();
  m_node = -1;
  clear();
  if (m_model) {
    auto shared = m_model;
    m_shapesWatcher.setFuture(QtConcurrent::run([shared] { return std::make_shared<const GraphShapes>(inferShapes(shared->graph)); }));
  }
}

void InspectorPanel::clearSelection() {
  m_node = -1;
  clear();
}

void InspectorPanel::showNode(size_t index) {
  if (!m_model || index >= m_model->graph.size()) return;
  m_node = static_cast<int64_t>(index);
  render();
}

void InspectorPanel::render() {
  const size_t index = static_cast<size_t>(m_node);
  const GraphShapes& shapes = m_shapes ? *m_shapes : m_noShapes;
  const Graph& g = m_model->graph;
  const Node& n = g.node(index);
  const OpSchema* schema = OpRegistry::global().find(n.op);
  QString html = "<h3>" + esc(n.name) + "</h3>";
  html += "<p><b>" + esc(n.op) + "</b> &mdash; " + esc(std::string(categoryName(OpRegistry::global().categoryOf(n.op, &g.library))));
  if (schema && !schema->def.summary.empty()) html += "<br><i>" + esc(schema->def.summary) + "</i>";
  else if (g.library.find(n.op)) html += "<br><i>calls the library function " + esc(n.op) + "</i>";
  else if (!schema) html += "<br><i>an op Flowscope does not know: shown, not run</i>";
  html += "</p>";
  if (!n.device.empty()) html += "<p>device: " + esc(n.device) + "</p>";
  html += "<h4>Inputs</h4><ul>";
  for (const auto& in : n.inputs) {
    int64_t p = g.find(in.node);
    html += "<li>" + esc(in.toString()) + ": " + tensorText(p >= 0 ? shapes.find(static_cast<size_t>(p), in.index) : nullptr) + "</li>";
  }
  for (const auto& c : n.controlInputs) html += "<li>^" + esc(c) + " (control)</li>";
  html += "</ul><h4>Outputs</h4><ul>";
  if (index < shapes.outputs.size())
    for (size_t k = 0; k < shapes.outputs[index].size(); ++k)
      html += "<li>" + esc(n.name) + ":" + QString::number(k) + ": " + tensorText(&shapes.outputs[index][k]) + "</li>";
  else if (!m_shapes)
    html += "<li><i>inferring shapes...</i></li>";
  html += "</ul><h4>Attributes</h4><table>";
  for (const auto& [key, value] : n.attrs) {
    std::string text = value.kind() == AttrValue::Kind::kTensor ? value.tensor().preview(16) : value.toString();
    html += "<tr><td><b>" + esc(key) + "</b></td><td>" + esc(text.size() > 400 ? text.substr(0, 400) + "..." : text) + "</td></tr>";
  }
  html += "</table>";
  const auto calls = calledFunctions(n, g.library);
  if (!calls.empty()) {
    html += "<h4>Calls</h4><ul>";
    for (const auto& call : calls) {
      const FunctionDef* def = g.library.find(call.function);
      const QString name = esc(call.function);
      html += "<li>" + esc(call.attr) + ": " +
              (def && def->body ? "<a href=\"function:" + name + "\">" + name + "</a> (" + QString::number(def->body->size()) + " nodes)"
                                : name + " (not in the library)") + "</li>";
    }
    html += "</ul><p><i>Click a function, or double-click the node, to open its body.</i></p>";
  }
  setHtml(html);
}

void InspectorPanel::showGroup(const ScopeTree& tree, int group) {
  if (!m_model || group < 0) return;
  m_node = -1;
  const ScopeGroup& sg = tree.group(group);
  std::map<std::string, size_t> ops;
  std::vector<int> work{group};
  while (!work.empty()) {
    const ScopeGroup& w = tree.group(work.back());
    work.pop_back();
    for (size_t n : w.nodes) ++ops[m_model->graph.node(n).op];
    work.insert(work.end(), w.groups.begin(), w.groups.end());
  }
  QString html = "<h3>" + esc(sg.path.empty() ? std::string("(root)") : sg.path) + "</h3><p>name scope, " +
                 QString::number(sg.totalNodes) + " nodes in " + QString::number(sg.groups.size()) + " sub-scopes and " +
                 QString::number(sg.nodes.size()) + " direct nodes. Double-click to expand or collapse.</p><h4>Ops</h4><table>";
  for (const auto& [op, count] : ops) html += "<tr><td>" + esc(op) + "</td><td align=right>" + QString::number(count) + "</td></tr>";
  setHtml(html + "</table>");
}

}  // namespace flowscope
