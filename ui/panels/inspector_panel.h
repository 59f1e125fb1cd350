// The node inspector: op and its one-line doc, device, attrs, inputs and outputs with dtype and shape, a preview of
// Const values, the functions a node calls, its time in the profile (or the node whose fused kernel computed it); for
// a group, its path and op histogram.
#pragma once

#include <QTextBrowser>
#include <memory>

#include "ir/model.h"
#include "layout/scope_tree.h"
#include "ops/shape_inference.h"
#include "session/session.h"

namespace flowscope {

class InspectorPanel : public QTextBrowser, public SessionViewer {
  Q_OBJECT

 public:
  InspectorPanel(Session* session, QWidget* parent = nullptr);
  ~InspectorPanel() override;

  void documentChanged(const Session& session) override;
  void selectionChanged(const Session& session) override;
  void passChanged(const Session&) override {}
  void profileChanged(const Session&) override { render(); }

 private:
  // What the inspector infers about the shown graph in the background.
  struct Facts {
    GraphShapes shapes;
    ScopeTree tree;
  };
  void render();
  void renderNode(size_t index);
  void renderGroup(const std::string& path);
  QString profileHtml(size_t index) const;

  Session* m_session;
  std::shared_ptr<const Model> m_model;
  std::shared_ptr<const Facts> m_facts;
  GraphShapes m_noShapes;
};

}  // namespace flowscope
