// ResourceManager: variables (live across runs of a session) and the per-run containers that resource and
// variant tensors refer to (TensorArrays, TensorLists). Handles are strings inside DT_RESOURCE / DT_VARIANT
// scalars, e.g. "var:a", "ta:3", "list:7".
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ir/tensor.h"

namespace flowscope {

struct TensorArray {
  DType dtype = DType::kInvalid;
  std::vector<Tensor> elements;
  bool dynamicSize = false;
};

class ResourceManager {
 public:
  /// A DT_RESOURCE scalar holding `handle`.
  static Tensor handleTensor(const std::string& handle);
  /// A DT_VARIANT scalar holding `handle`.
  static Tensor variantTensor(const std::string& handle);
  /// The handle string inside a resource or variant scalar; empty when `t` is not one.
  static std::string handleOf(const Tensor& t);

  bool readVariable(const std::string& handle, Tensor* out) const;
  void assignVariable(const std::string& handle, Tensor value);
  bool hasVariable(const std::string& handle) const;

  std::string newTensorArray(DType dtype, int64_t size, bool dynamicSize);
  std::shared_ptr<TensorArray> tensorArray(const std::string& handle) const;

  std::string newTensorList(std::vector<Tensor> elements);
  std::shared_ptr<const std::vector<Tensor>> tensorList(const std::string& handle) const;
  /// An ONNX optional: a list of no element (None) or one, whose handle says it is an optional ("opt:N").
  std::string newOptional(std::vector<Tensor> noneOrOne);
  static bool isOptional(const std::string& handle) { return handle.rfind("opt:", 0) == 0; }

  /// Drops per-run containers (TensorArrays, TensorLists); variables stay, and so do the lists that `outputs` (the
  /// run's fetched values) name, until the next run ends: a fetched sequence can be read.
  void endRun(const std::vector<Tensor>& outputs = {});

 private:
  std::string addList(const char* prefix, std::vector<Tensor> elements);

  mutable std::mutex m_mutex;
  std::map<std::string, Tensor> m_variables;
  std::map<std::string, std::shared_ptr<TensorArray>> m_arrays;
  std::map<std::string, std::shared_ptr<const std::vector<Tensor>>> m_lists;
  int64_t m_nextId = 0;
};

}  // namespace flowscope
