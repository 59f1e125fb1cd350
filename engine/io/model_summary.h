// ModelSummary: what `flowscope info` and the UI's header show about a loaded model.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/model.h"

namespace flowscope {

struct GraphEndpoint {
  std::string name;  ///< tensor name, "x:0"
  std::string op;
  DType dtype = DType::kInvalid;
  Shape shape = Shape::unknownRank();
};

struct FunctionSummary {
  std::string name;
  size_t nodeCount = 0;
};

struct ModelSummary {
  size_t nodeCount = 0;
  size_t functionNodeCount = 0;
  std::map<std::string, size_t> opHistogram;
  std::vector<GraphEndpoint> inputs;   ///< Placeholder / PlaceholderWithDefault nodes
  std::vector<GraphEndpoint> outputs;  ///< sinks: nodes with outputs that nothing consumes
  std::vector<FunctionSummary> functions;
  std::vector<std::string> unknownOps;
};

ModelSummary summarizeModel(const Model& model);

}  // namespace flowscope
