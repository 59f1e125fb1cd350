// Two graph canvases side by side whose views move together, with a list beside them and a summary line above: the
// pass stepper's layout and the graph comparison's.
#pragma once

class QWidget;

namespace flowscope {

class GraphCanvas;

/// Lays out `panel`: `summary` on top, then `list` (about `listWidth` px) beside `before` and `after`; panning or
/// zooming either canvas moves the other.
void layOutTwinCanvases(QWidget* panel, QWidget* summary, QWidget* list, int listWidth, GraphCanvas* before,
                        GraphCanvas* after);
/// Gives the list laid out by layOutTwinCanvases `width` px, at most half the panel (a table whose columns grew).
void widenTwinList(QWidget* list, int width);

}  // namespace flowscope
