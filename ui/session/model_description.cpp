#include "session/model_description.h"

#include <QCoreApplication>
#include <QStringList>

namespace flowscope {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("ModelDescription", text); }

// "1 node" or "7 nodes": whole phrases, so a translation can word each form as its language does.
QString counted(size_t count, const char* one, const char* many) {
  return (count == 1 ? tr(one) : tr(many)).arg(count);
}

}  // namespace

QString describeModel(const Model& model, size_t opTypes) {
  QString format = QString::fromStdString(model.format);
  for (const auto& [key, value] : model.metadata)
    if (key == "opset ai.onnx") format = tr("%1 opset %2").arg(format, QString::fromStdString(value));
  QStringList parts{format, counted(model.graph.size(), "%1 node", "%1 nodes"),
                    counted(opTypes, "%1 op type", "%1 op types")};
  if (const size_t functions = model.graph.library.functions().size())
    parts << counted(functions, "%1 function", "%1 functions");
  if (!model.signatures.empty()) parts << counted(model.signatures.size(), "%1 signature", "%1 signatures");
  if (!model.variables.empty()) parts << counted(model.variables.size(), "%1 variable", "%1 variables");
  return parts.join(tr(", "));
}

}  // namespace flowscope
