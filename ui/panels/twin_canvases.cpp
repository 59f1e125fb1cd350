// Two synchronized canvases beside a list.
#include "panels/twin_canvases.h"

#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>

#include "canvas/graph_canvas.h"

namespace flowscope {

void layOutTwinCanvases(QWidget* panel, QWidget* summary, QWidget* list, int listWidth, GraphCanvas* before,
                        GraphCanvas* after) {
  auto* canvases = new QSplitter(Qt::Horizontal, panel);
  canvases->addWidget(before);
  canvases->addWidget(after);
  auto* split = new QSplitter(Qt::Horizontal, panel);
  split->addWidget(list);
  split->addWidget(canvases);
  split->setStretchFactor(1, 4);
  split->setSizes({listWidth, 1000});
  auto* layout = new QVBoxLayout(panel);
  layout->addWidget(summary);
  layout->addWidget(split, 1);
  QObject::connect(before, &GraphCanvas::viewChanged, after, &GraphCanvas::setView);
  QObject::connect(after, &GraphCanvas::viewChanged, before, &GraphCanvas::setView);
}

void widenTwinList(QWidget* list, int width) {
  auto* split = qobject_cast<QSplitter*>(list->parentWidget());
  if (!split || split->count() != 2) return;
  const QList<int> sizes = split->sizes();
  const int total = sizes[0] + sizes[1];
  if (total <= 0) return;
  const int wanted = std::min(width, total / 2);
  if (wanted > sizes[0]) split->setSizes({wanted, total - wanted});
}

}  // namespace flowscope
