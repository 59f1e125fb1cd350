// InputsDialog: what the profiler feeds each input of the open graph: "random" (the default), a .npy file
// (Browse...), or a literal such as [[1,2],[3,4]]:float32. One row per signature input or placeholder, with its
// dtype and shape.
#pragma once

#include <QDialog>
#include <map>
#include <string>

#include "workflow/run_request.h"

class QLineEdit;

namespace flowscope {

class InputsDialog : public QDialog {
  Q_OBJECT

 public:
  InputsDialog(const std::vector<RunInput>& inputs, const std::map<std::string, std::string>& specs,
               QWidget* parent = nullptr);
  /// The specs the user entered (inputs left empty or "random" are omitted).
  std::map<std::string, std::string> specs() const;

 private:
  std::vector<std::pair<std::string, QLineEdit*>> m_fields;
};

}  // namespace flowscope
