// A panel's summary line with the button that fills the panel ("Compare with...", "Import profile..."), so an empty
// tab says what it is for and offers the way to use it.
#pragma once

class QLabel;
class QPushButton;
class QWidget;

namespace flowscope {

/// A row holding `summary` (stretched) and `button`, parented to `parent`.
QWidget* summaryRow(QWidget* parent, QLabel* summary, QPushButton* button);

}  // namespace flowscope
