// The Source tab.
#include "panels/script_source_view.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

namespace flowscope {
namespace {

QWidget* titled(QLabel* title, QWidget* body, QWidget* parent) {
  auto* box = new QWidget(parent);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(title);
  layout->addWidget(body, 1);
  return box;
}

}  // namespace

ScriptSourceView::ScriptSourceView(QWidget* parent)
    : QWidget(parent),
      m_signature(pane(tr("Open a Python script and choose a concrete function in the Functions panel."))),
      m_original(pane(tr("The Function's Python source."))),
      m_autograph(pane(tr("What AutoGraph converts it to."))),
      m_originalTitle(new QLabel(tr("<b>Python source</b>"), this)),
      m_autographTitle(new QLabel(tr("<b>AutoGraph</b> (autograph.to_code)"), this)) {
  setObjectName("scriptSourceView");
  auto* sources = new QSplitter(Qt::Horizontal, this);
  sources->addWidget(titled(m_originalTitle, m_original, sources));
  sources->addWidget(titled(m_autographTitle, m_autograph, sources));
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(titled(new QLabel(tr("<b>Concrete function</b>"), this), m_signature, split));
  split->addWidget(sources);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 3);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);
}

QPlainTextEdit* ScriptSourceView::pane(const QString& placeholder) {
  auto* edit = new QPlainTextEdit(this);
  edit->setReadOnly(true);
  edit->setLineWrapMode(QPlainTextEdit::NoWrap);
  edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  edit->setPlaceholderText(placeholder);
  return edit;
}

void ScriptSourceView::showFunction(const ScriptFunction& function, const ScriptConcrete& concrete) {
  QString text = concrete.name + "\n\n" + concrete.signature + "\n";
  if (!concrete.calls.isEmpty()) {
    text += tr("\nCalled %n time(s) with this trace; the first calls' arguments:\n", nullptr, concrete.callCount);
    for (const QString& call : concrete.calls) text += "  " + function.name + call + "\n";
  }
  if (!concrete.graphError.isEmpty()) text += tr("\nThe graph could not be written: %1\n").arg(concrete.graphError);
  m_signature->setPlainText(text);
  m_original->setPlainText(function.source);
  m_originalTitle->setText(
      tr("<b>Python source</b> %1:%2").arg(QFileInfo(function.file).fileName().toHtmlEscaped()).arg(function.line));
  m_autograph->setPlainText(function.autographSource);
  m_autographTitle->setText(function.autographFailed ? tr("<b>AutoGraph</b> could not convert it:")
                                                     : tr("<b>AutoGraph</b> (autograph.to_code)"));
}

void ScriptSourceView::clear() {
  m_signature->clear();
  m_original->clear();
  m_autograph->clear();
}

}  // namespace flowscope
