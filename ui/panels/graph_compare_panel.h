// Compare graphs: the opened graph beside another file's (File > Compare with...), nodes matched by name and then by
// structure (passes/graph_compare.h) on the worker; both canvases with synchronized viewports, removed nodes in red
// on the left, added in green and changed or renamed in amber on the right (the pass stepper's colours), a summary
// of the counts per kind, and a list of the differences that selects the node on both canvases.
#pragma once

#include <QWidget>
#include <memory>

#include "passes/graph_compare.h"
#include "session/session.h"

class QLabel;
class QListWidget;

namespace flowscope {

class GraphCanvas;

class GraphComparePanel : public QWidget {
  Q_OBJECT

 public:
  GraphComparePanel(Session* session, QWidget* parent = nullptr);
  /// Loads `path` on the worker and compares the opened graph with it; finished() or failed() follow.
  void compareWith(const QString& path);
  GraphCanvas* before() const { return m_before; }
  GraphCanvas* after() const { return m_after; }
  QListWidget* differences() const { return m_list; }
  QString summary() const;
  const GraphComparison* comparison() const { return m_result ? &m_result->comparison : nullptr; }

  struct Result {
    std::shared_ptr<const Graph> before, after;
    GraphComparison comparison;
    QString afterPath;
  };

 signals:
  void finished();
  void failed(const QString& message);
  /// The panel's "Compare with..." button: the window asks for the other graph.
  void compareRequested();

 private:
  void show(std::shared_ptr<const Result> result);
  void fillList(const Result& r);
  void selectRow(int row);

  Session* m_session;
  QLabel* m_summary;
  QListWidget* m_list;
  GraphCanvas* m_before;
  GraphCanvas* m_after;
  std::shared_ptr<const Result> m_result;
  std::vector<std::pair<std::string, std::string>> m_rows;  ///< per list row: node in before, node in after
};

}  // namespace flowscope
