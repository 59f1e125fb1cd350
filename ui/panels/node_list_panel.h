// NodeListPanel: the shown graph's nodes in a table, filtered by name, op or category (plain text or a regular
// expression); choosing a row selects the node everywhere, and a selection elsewhere selects its row.
#pragma once

#include <QWidget>

#include "session/session.h"

class QCheckBox;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace flowscope {

class NodeTableModel;

class NodeListPanel : public QWidget, public SessionViewer {
  Q_OBJECT

 public:
  NodeListPanel(Session* session, QWidget* parent = nullptr);
  ~NodeListPanel() override;
  QTableView* table() const { return m_table; }

  void documentChanged(const Session& session) override;
  void selectionChanged(const Session& session) override;
  void passChanged(const Session&) override {}
  void profileChanged(const Session&) override {}

 private:
  void applyFilter();

  Session* m_session;
  NodeTableModel* m_nodes;
  QSortFilterProxyModel* m_filter;
  QTableView* m_table;
  QLineEdit* m_search;
  QCheckBox* m_regex;
  bool m_syncing = false;  // selecting a row because the session said so
};

}  // namespace flowscope
