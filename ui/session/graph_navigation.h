// GraphNavigation: the path from the opened model into the function bodies the user has opened (an If's branch,
// a While's body, a called function, and functions called inside those), as the breadcrumb shows it. Each level is
// a Model the canvas, node list and inspector show; a function body is instantiated with `_Arg`/`_Retval` nodes.
#pragma once

#include <QStringList>
#include <memory>
#include <vector>

#include "base/status.h"
#include "ir/model.h"

namespace flowscope {

class GraphNavigation {
 public:
  void reset(std::shared_ptr<const Model> root);
  /// Opens a library function of the root model one level below the current one.
  Status openFunction(const std::string& name);
  /// Goes back to a level (0 is the opened model).
  void goTo(int depth);
  std::shared_ptr<const Model> current() const { return m_levels.empty() ? nullptr : m_levels.back().model; }
  std::shared_ptr<const Model> root() const { return m_levels.empty() ? nullptr : m_levels.front().model; }
  bool atRoot() const { return m_levels.size() <= 1; }
  int depth() const { return static_cast<int>(m_levels.size()) - 1; }
  /// One label per level: the file name, then the function names.
  QStringList crumbs() const;

 private:
  struct Level {
    QString label;
    std::shared_ptr<const Model> model;
  };
  std::vector<Level> m_levels;
};

}  // namespace flowscope
