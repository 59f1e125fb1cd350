// The summary row.
#include "panels/summary_row.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace flowscope {

QWidget* summaryRow(QWidget* parent, QLabel* summary, QPushButton* button) {
  auto* row = new QWidget(parent);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(summary, 1);
  layout->addWidget(button);
  return row;
}

}  // namespace flowscope
