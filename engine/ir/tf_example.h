// tf.Example, the record TensorFlow Serving's classify and regress signatures parse: reading and writing its wire
// format (Example{features{feature: map<string, Feature{bytes_list | float_list | int64_list}>}}) without protoc.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace flowscope {

/// One feature: a list of one kind. An empty list keeps its kind when serialized.
struct ExampleFeature {
  enum class Kind { kBytes, kFloat, kInt64 };
  Kind kind = Kind::kFloat;
  std::vector<std::string> bytes;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  size_t size() const;
};

using Example = std::map<std::string, ExampleFeature>;

/// The serialized Example; features in key order, float and int64 lists packed.
std::string serializeExample(const Example& example);
/// Parses a serialized Example ("" is a valid Example with no features); packed and unpacked lists both read.
Expected<Example> parseExample(std::string_view bytes);

}  // namespace flowscope
