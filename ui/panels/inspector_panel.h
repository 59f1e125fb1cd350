// The node inspector: op and its one-line doc, device, attrs, inputs and outputs with dtype and shape, a preview of
// Const values, the functions a node calls; for a group, its path and op histogram.
#pragma once

#include <QFutureWatcher>
#include <QTextBrowser>
#include <memory>

#include "ir/model.h"
#include "layout/scene.h"
#include "ops/shape_inference.h"

namespace flowscope {

class ScopeTree;

class InspectorPanel : public QTextBrowser {
  Q_OBJECT

 public:
  explicit InspectorPanel(QWidget* parent = nullptr);
  ~InspectorPanel() override;
  void setModel(std::shared_ptr<const Model> model);
  void showNode(size_t node);
  void showGroup(const ScopeTree& tree, int group);
  void clearSelection();

 signals:
  /// A function name in the node's "Calls" list was clicked.
  void functionRequested(const QString& function);

 private:
  void render();

  std::shared_ptr<const Model> m_model;
  QFutureWatcher<std::shared_ptr<const GraphShapes>> m_shapesWatcher;  // shape inference runs in the background
  std::shared_ptr<const GraphShapes> m_shapes;
  GraphShapes m_noShapes;
  int64_t m_node = -1;
};

}  // namespace flowscope
