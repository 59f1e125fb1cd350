// RunRequest: what to feed and fetch for one run of a model, from user-facing specs. Shared by the CLI's
// run/profile and the desktop app's profiler.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/model.h"

namespace flowscope {

struct RunRequest {
  std::vector<std::pair<std::string, Tensor>> feeds;
  std::vector<std::string> fetches;
  std::vector<std::string> fetchLabels;  ///< signature output keys, or the tensor names
};

struct RunSpecOptions {
  std::string signature;                      ///< empty: serving_default if present, else the only one, else none
  std::map<std::string, std::string> inputs;  ///< name (signature key or tensor name) -> SPEC
  std::vector<std::string> fetches;           ///< overrides the default outputs
  uint64_t seed = 0;
};

/// One input a run takes: a signature key or placeholder, its graph tensor, dtype and shape.
struct RunInput {
  std::string label;   ///< signature key or tensor name
  std::string tensor;  ///< graph tensor name
  DType dtype = DType::kInvalid;
  Shape shape = Shape::unknownRank();
};

/// The inputs a run of the model takes: the chosen signature's (empty: as makeRunRequest chooses), or else the
/// graph's placeholders.
Expected<std::vector<RunInput>> runInputs(const Model& model, const std::string& signature = "");

/// SPEC is a .npy path, "random" (values of the input's dtype), or a literal such as 3, [[1,2],[3,4]], [true,false],
/// with an optional ":int32"-style dtype suffix. Placeholders without a spec get "random" (unknown dims become 1).
Expected<RunRequest> makeRunRequest(const Model& model, const RunSpecOptions& options);

/// A literal like "[[1,2],[3,4]]:float32"; without a suffix the dtype is `hint` (or int32/float32 by syntax).
Expected<Tensor> parseTensorLiteral(const std::string& text, DType hint);
/// Seeded random values: floats uniform in [0, 1), integers in [0, 10), bools fair, strings empty. (Random string
/// inputs of a model that parses tf.Examples get Examples: workflow/example_inputs.h.)
Expected<Tensor> randomTensor(DType dtype, const Shape& shape, uint64_t seed);

}  // namespace flowscope
