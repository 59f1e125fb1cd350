// Canvas themes (light, dark): colours from resources/theme/categories.json, compiled into the binary.
#pragma once

#include <QColor>
#include <QString>
#include <array>

#include "ops/op_category.h"

namespace flowscope {

struct Theme {
  QString name;
  QColor background, text, muted, edge, groupFrame, groupFill, selection;
  std::array<QColor, static_cast<size_t>(OpCategory::kOther) + 1> categories;

  QColor category(OpCategory c) const { return categories[static_cast<size_t>(c)]; }
  /// "light" or "dark" (anything else gives light).
  static const Theme& named(const QString& name);
};

}  // namespace flowscope
