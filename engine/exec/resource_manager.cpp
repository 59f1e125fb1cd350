// Resource storage.
#include "exec/resource_manager.h"

namespace flowscope {

Tensor ResourceManager::handleTensor(const std::string& handle) {
  return Tensor::fromStrings(Shape{}, {handle}, DType::kResource);
}

Tensor ResourceManager::variantTensor(const std::string& handle) {
  return Tensor::fromStrings(Shape{}, {handle}, DType::kVariant);
}

std::string ResourceManager::handleOf(const Tensor& t) {
  if (!t.isValid() || (t.dtype() != DType::kResource && t.dtype() != DType::kVariant) || t.numElements() != 1)
    return {};
  return t.strings()[0];
}

bool ResourceManager::readVariable(const std::string& handle, Tensor* out) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_variables.find(handle);
  if (it == m_variables.end() || !it->second.isValid()) return false;
  *out = it->second;
  return true;
}

void ResourceManager::assignVariable(const std::string& handle, Tensor value) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_variables[handle] = std::move(value);
}

bool ResourceManager::hasVariable(const std::string& handle) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_variables.find(handle);
  return it != m_variables.end() && it->second.isValid();
}

std::string ResourceManager::newTensorArray(DType dtype, int64_t size, bool dynamicSize) {
  auto array = std::make_shared<TensorArray>();
  array->dtype = dtype;
  array->elements.resize(static_cast<size_t>(size));
  array->dynamicSize = dynamicSize;
  std::lock_guard<std::mutex> lock(m_mutex);
  std::string handle = "ta:" + std::to_string(m_nextId++);
  m_arrays[handle] = std::move(array);
  return handle;
}

std::shared_ptr<TensorArray> ResourceManager::tensorArray(const std::string& handle) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_arrays.find(handle);
  return it == m_arrays.end() ? nullptr : it->second;
}

std::string ResourceManager::addList(const char* prefix, std::vector<Tensor> elements) {
  auto list = std::make_shared<const std::vector<Tensor>>(std::move(elements));
  std::lock_guard<std::mutex> lock(m_mutex);
  std::string handle = prefix + std::to_string(m_nextId++);
  m_lists[handle] = std::move(list);
  return handle;
}

std::string ResourceManager::newTensorList(std::vector<Tensor> elements) {
  return addList("list:", std::move(elements));
}

std::string ResourceManager::newOptional(std::vector<Tensor> noneOrOne) {
  return addList("opt:", std::move(noneOrOne));
}

std::shared_ptr<const std::vector<Tensor>> ResourceManager::tensorList(const std::string& handle) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_lists.find(handle);
  return it == m_lists.end() ? nullptr : it->second;
}

void ResourceManager::endRun(const std::vector<Tensor>& outputs) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_arrays.clear();
  std::map<std::string, std::shared_ptr<const std::vector<Tensor>>> kept;
  std::vector<const Tensor*> reachable;  // the outputs, and the elements of the lists they keep (nested sequences)
  for (const Tensor& t : outputs) reachable.push_back(&t);
  while (!reachable.empty()) {
    const Tensor& t = *reachable.back();
    reachable.pop_back();
    if (t.dtype() != DType::kVariant) continue;
    auto it = m_lists.find(handleOf(t));
    if (it == m_lists.end() || !kept.insert(*it).second) continue;
    for (const Tensor& element : *it->second) reachable.push_back(&element);
  }
  m_lists = std::move(kept);
}

}  // namespace flowscope
