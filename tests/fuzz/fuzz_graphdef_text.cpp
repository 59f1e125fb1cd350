// libFuzzer target: the text GraphDef loader.
#include "fuzz_common.h"
#include "io/graph_writer.h"
#include "io/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flowscope;
  static const auto loader = makeGraphDefTextLoader();
  std::string path = fuzz::writeScratch("graph.pbtxt", {reinterpret_cast<const char*>(data), size});
  auto source = Source::open(path);
  if (!source) return 0;
  loader->match(*source);
  auto model = loader->load(*source, {});
  if (model) (void)serializeGraph(model->graph, GraphFormat::kText);
  return 0;
}
