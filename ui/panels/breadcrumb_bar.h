// BreadcrumbBar: where the canvas is ("model.pb › cond_true_5 › ..."), one button per level; clicking a level goes
// back to it. Shown while a function body is open.
#pragma once

#include <QWidget>

class QHBoxLayout;

namespace flowscope {

class BreadcrumbBar : public QWidget {
  Q_OBJECT

 public:
  explicit BreadcrumbBar(QWidget* parent = nullptr);
  void setCrumbs(const QStringList& crumbs);

 signals:
  void crumbClicked(int depth);

 private:
  QHBoxLayout* m_layout;
};

}  // namespace flowscope
