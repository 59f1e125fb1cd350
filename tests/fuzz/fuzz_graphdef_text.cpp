// libFuzzer target: the text GraphDef loader (and the round trip of whatever it accepts).
#include "fuzz_common.h"
#include "io/graph_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto loader = flowscope::makeGraphDefTextLoader();
  return flowscope::fuzz::loadFromScratch(loader, "graph.pbtxt", data, size, [](const flowscope::Model& model) {
    (void)flowscope::serializeGraph(model.graph, flowscope::GraphFormat::kText);
  });
}
