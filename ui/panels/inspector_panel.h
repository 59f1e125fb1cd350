// The node inspector: op and its one-line doc, device, attrs, inputs and outputs with dtype and shape, a preview of
// Const values, the functions a node calls; for a group, its path and op histogram.
#pragma once

#include <QTextBrowser>
#include <memory>

#include "io/model.h"
#include "layout/scene.h"
#include "ops/shape_inference.h"

namespace flowscope {

class ScopeTree;

class InspectorPanel : public QTextBrowser {
  Q_OBJECT

 public:
  explicit InspectorPanel(QWidget* parent = nullptr);
  void setModel(std::shared_ptr<const Model> model);
  void showNode(size_t node);
  void showGroup(const ScopeTree& tree, int group);
  void clearSelection();

 private:
  std::shared_ptr<const Model> m_model;
  GraphShapes m_shapes;
};

}  // namespace flowscope
