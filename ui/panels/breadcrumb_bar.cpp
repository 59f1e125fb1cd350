// The breadcrumb above the canvas.
#include "panels/breadcrumb_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace flowscope {

BreadcrumbBar::BreadcrumbBar(QWidget* parent) : QWidget(parent), m_layout(new QHBoxLayout(this)) {
  setObjectName("breadcrumb");
  m_layout->setContentsMargins(4, 2, 4, 2);
  m_layout->setSpacing(2);
  hide();
}

void BreadcrumbBar::setCrumbs(const QStringList& crumbs) {
  while (QLayoutItem* item = m_layout->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  for (int i = 0; i < crumbs.size(); ++i) {
    if (i > 0) m_layout->addWidget(new QLabel(QString::fromUtf8("\u203a"), this));
    auto* button = new QToolButton(this);
    button->setText(crumbs[i]);
    button->setAutoRaise(true);
    button->setEnabled(i + 1 < crumbs.size());  // the current level is where you are
    button->setToolTip(i == 0 ? tr("Back to the opened graph") : tr("Back to the body of %1").arg(crumbs[i]));
    connect(button, &QToolButton::clicked, this, [this, i] { emit crumbClicked(i); });
    m_layout->addWidget(button);
  }
  m_layout->addStretch(1);
  setVisible(crumbs.size() > 1);
}

}  // namespace flowscope
