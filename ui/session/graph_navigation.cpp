// Navigation into function bodies.
#include "session/graph_navigation.h"

#include <QFileInfo>

#include "ir/function_instantiation.h"
#include "ops/op_registry.h"

namespace flowscope {

void GraphNavigation::reset(std::shared_ptr<const Model> root) {
  m_levels.clear();
  if (root) m_levels.push_back({QFileInfo(QString::fromStdString(root->path)).fileName(), std::move(root)});
}

Status GraphNavigation::openFunction(const std::string& name) {
  if (m_levels.empty()) return invalidArgument("no graph is open");
  const Model& rootModel = *root();
  const FunctionDef* function = rootModel.graph.library.find(name);
  if (!function) return notFound("the graph's library has no function '" + name + "'");
  auto body =
      functionBodyGraph(*function, rootModel.graph.library, OpRegistry::global().lookupWith(&rootModel.graph.library));
  if (!body) return body.status();
  auto model = std::make_shared<Model>();
  model->path = rootModel.path;
  model->format = "function " + name + " of " + rootModel.format;
  model->graph = std::move(body).value();
  m_levels.push_back({QString::fromStdString(name), std::move(model)});
  return Status::ok();
}

void GraphNavigation::goTo(int depth) {
  if (depth >= 0 && depth < static_cast<int>(m_levels.size())) m_levels.resize(static_cast<size_t>(depth) + 1);
}

QStringList GraphNavigation::crumbs() const {
  QStringList labels;
  for (const auto& level : m_levels) labels << level.label;
  return labels;
}

}  // namespace flowscope
