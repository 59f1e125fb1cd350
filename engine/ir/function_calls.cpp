// Functions a node calls.
#include "ir/function_calls.h"

namespace flowscope {

std::vector<FunctionCall> calledFunctions(const Node& node, const FunctionLibrary& library) {
  std::vector<FunctionCall> calls;
  for (const auto& [key, value] : node.attrs) {
    if (value.kind() == AttrValue::Kind::kFunc) calls.push_back({key, value.func().name});
    if (value.kind() == AttrValue::Kind::kList)
      for (size_t i = 0; i < value.list().func.size(); ++i)
        calls.push_back({key + "[" + std::to_string(i) + "]", value.list().func[i].name});
  }
  if (library.find(node.op)) calls.push_back({node.op, node.op});
  return calls;
}

}  // namespace flowscope
