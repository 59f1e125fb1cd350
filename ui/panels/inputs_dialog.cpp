// The profiler's inputs dialog.
#include "panels/inputs_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace flowscope {

InputsDialog::InputsDialog(const std::vector<RunInput>& inputs, const std::map<std::string, std::string>& specs,
                           QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Profiler inputs"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(tr("Each input is fed random values unless you give a .npy file or a literal "
                                  "(3, [[1,2],[3,4]], [true,false], optionally with :int32 and the like)."),
                               this));
  auto* form = new QFormLayout();
  for (const RunInput& input : inputs) {
    auto* field = new QLineEdit(this);
    field->setObjectName(QString::fromStdString("input:" + input.label));
    field->setPlaceholderText(tr("random"));
    if (auto it = specs.find(input.label); it != specs.end()) field->setText(QString::fromStdString(it->second));
    auto* browse = new QPushButton(tr("Browse..."), this);
    connect(browse, &QPushButton::clicked, this, [this, field] {
      const QString path = QFileDialog::getOpenFileName(this, tr("Input values"), {}, tr("NumPy arrays (*.npy)"));
      if (!path.isEmpty()) field->setText(path);
    });
    auto* row = new QHBoxLayout();
    row->addWidget(field, 1);
    row->addWidget(browse);
    const QString label =
        QString::fromStdString(input.label) + "  <small>" +
        QString::fromStdString(std::string(dtypeName(input.dtype)) + " " + input.shape.toString()).toHtmlEscaped() +
        "</small>";
    form->addRow(label, row);
    m_fields.emplace_back(input.label, field);
  }
  if (inputs.empty()) form->addRow(new QLabel(tr("The graph takes no inputs."), this));
  layout->addLayout(form);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
}

std::map<std::string, std::string> InputsDialog::specs() const {
  std::map<std::string, std::string> out;
  for (const auto& [label, field] : m_fields) {
    const std::string text = field->text().trimmed().toStdString();
    if (!text.empty() && text != "random") out[label] = text;
  }
  return out;
}

}  // namespace flowscope
