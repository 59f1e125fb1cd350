// Two synchronized canvases beside a list.
#include "panels/twin_canvases.h"

#include <QSplitter>
#include <QVBoxLayout>

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

}  // namespace flowscope
