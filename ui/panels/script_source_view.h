// ScriptSourceView, the "Source" tab of a script's chosen concrete function: its signature and recorded calls on
// top, the Function's Python source beside what AutoGraph made of it (or why AutoGraph could not convert it).
#pragma once

#include <QWidget>

#include "script/script_manifest.h"

class QLabel;
class QPlainTextEdit;

namespace flowscope {

class ScriptSourceView : public QWidget {
  Q_OBJECT

 public:
  explicit ScriptSourceView(QWidget* parent = nullptr);
  void showFunction(const ScriptFunction& function, const ScriptConcrete& concrete);
  void clear();
  QPlainTextEdit* signature() const { return m_signature; }
  QPlainTextEdit* original() const { return m_original; }
  QPlainTextEdit* autograph() const { return m_autograph; }

 private:
  QPlainTextEdit* pane(const QString& placeholder);

  QPlainTextEdit* m_signature;
  QPlainTextEdit* m_original;
  QPlainTextEdit* m_autograph;
  QLabel* m_originalTitle;
  QLabel* m_autographTitle;
};

}  // namespace flowscope
