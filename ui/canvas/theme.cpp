// Loading the theme table.
#include "canvas/theme.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

// Resources compiled into a static library must be registered by name once.
static void initThemeResources() { Q_INIT_RESOURCE(resources); }

namespace flowscope {
namespace {

Theme load(const QString& name) {
  initThemeResources();
  Theme theme;
  theme.name = name;
  QFile file(":/theme/categories.json");
  file.open(QIODevice::ReadOnly);
  const QJsonObject t = QJsonDocument::fromJson(file.readAll()).object().value(name).toObject();
  auto color = [&](const char* key, const char* fallback) { return QColor(t.value(key).toString(fallback)); };
  theme.background = color("background", "#fafafa");
  theme.text = color("text", "#202124");
  theme.muted = color("muted", "#5f6368");
  theme.edge = color("edge", "#8a8f98");
  theme.groupFrame = color("group_frame", "#c4c9d0");
  theme.groupFill = color("group_fill", "#eef1f5");
  theme.selection = color("selection", "#1a73e8");
  const QJsonObject categories = t.value("categories").toObject();
  for (size_t i = 0; i < theme.categories.size(); ++i) {
    const auto key = QString::fromUtf8(categoryName(static_cast<OpCategory>(i)).data());
    theme.categories[i] = QColor(categories.value(key).toString("#cfd8dc"));
  }
  return theme;
}

}  // namespace

const Theme& Theme::named(const QString& name) {
  static const Theme light = load("light");
  static const Theme dark = load("dark");
  return name == "dark" ? dark : light;
}

}  // namespace flowscope
