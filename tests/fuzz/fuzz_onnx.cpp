// libFuzzer target: the ONNX loader (and writing back whatever it accepts).
#include "fuzz_common.h"
#include "io/onnx_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto loader = flowscope::makeOnnxLoader();
  return flowscope::fuzz::loadFromScratch(loader, "model.onnx", data, size,
                                          [](const flowscope::Model& model) { (void)flowscope::serializeOnnx(model); });
}
