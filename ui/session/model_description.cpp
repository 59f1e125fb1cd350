#include "session/model_description.h"

#include <QCoreApplication>
#include <QStringList>

namespace flowscope {
namespace {

constexpr const char* kContext = "ModelDescription";

QString tr(const char* text) { return QCoreApplication::translate(kContext, text); }

// "1 node" or "7 nodes": whole phrases (marked for lupdate here), so a translation can word each form.
struct Counted {
  const char* one;
  const char* many;
  QString operator()(size_t count) const { return (count == 1 ? tr(one) : tr(many)).arg(count); }
};

constexpr Counted kNodes{QT_TRANSLATE_NOOP("ModelDescription", "%1 node"),
                         QT_TRANSLATE_NOOP("ModelDescription", "%1 nodes")};
constexpr Counted kOpTypes{QT_TRANSLATE_NOOP("ModelDescription", "%1 op type"),
                           QT_TRANSLATE_NOOP("ModelDescription", "%1 op types")};
constexpr Counted kFunctions{QT_TRANSLATE_NOOP("ModelDescription", "%1 function"),
                             QT_TRANSLATE_NOOP("ModelDescription", "%1 functions")};
constexpr Counted kSignatures{QT_TRANSLATE_NOOP("ModelDescription", "%1 signature"),
                              QT_TRANSLATE_NOOP("ModelDescription", "%1 signatures")};
constexpr Counted kVariables{QT_TRANSLATE_NOOP("ModelDescription", "%1 variable"),
                             QT_TRANSLATE_NOOP("ModelDescription", "%1 variables")};

}  // namespace

QString describeModel(const Model& model, size_t opTypes) {
  QString format = QString::fromStdString(model.format);
  for (const auto& [key, value] : model.metadata)
    if (key == "opset ai.onnx") format = tr("%1 opset %2").arg(format, QString::fromStdString(value));
  QStringList parts{format, kNodes(model.graph.size()), kOpTypes(opTypes)};
  if (const size_t functions = model.graph.library.functions().size()) parts << kFunctions(functions);
  if (!model.signatures.empty()) parts << kSignatures(model.signatures.size());
  if (!model.variables.empty()) parts << kVariables(model.variables.size());
  return parts.join(tr(", "));
}

}  // namespace flowscope
