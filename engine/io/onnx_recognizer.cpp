// Recognizes ONNX ModelProto files so that users get a clear "not supported yet" instead of a parse error.
#include "io/loader.h"
#include "io/proto_parse.h"

namespace flowscope {
namespace {

class OnnxRecognizer : public Loader {
 public:
  std::string name() const override { return "ONNX"; }

  float match(const Source& source) const override {
    if (source.isDirectory() || source.head().empty()) return 0;
    bool complete = false;
    auto fields = scanWireFields(source.head(), 16, &complete);
    if (fields.empty() || fields[0].number != 1 || fields[0].wireType != 0) return 0;
    for (const auto& f : fields)
      if ((f.number == 7 || f.number == 8) && f.wireType == 2) return 0.95f;  // graph, opset_import
    return 0;
  }

  Expected<Model> load(const Source& source, const LoadOptions&) const override {
    return unimplemented(source.path() + ": this is an ONNX model; ONNX import is not supported yet (planned)");
  }
};

}  // namespace

std::unique_ptr<Loader> makeOnnxRecognizer() { return std::make_unique<OnnxRecognizer>(); }

}  // namespace flowscope
