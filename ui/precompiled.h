// The Qt Widgets and engine headers most UI files include, parsed once for flowscope_ui: its precompiled header (see
// the top-level CMakeLists.txt for when they are on).
#pragma once

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QObject>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QString>
#include <QStringList>
#include <QVBoxLayout>
#include <QWidget>

#include "ir/precompiled.h"
