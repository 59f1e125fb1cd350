// Flattening of OpDef argument lists into per-tensor entries.
#include "ir/op_def.h"

namespace flowscope {

const AttrDef* OpDef::findAttr(const std::string& attrName) const {
  for (const auto& attr : attrs)
    if (attr.name == attrName) return &attr;
  return nullptr;
}

Expected<std::vector<FlatArg>> flattenArgs(const std::vector<ArgDef>& args, const AttrMap& attrs) {
  std::vector<FlatArg> flat;
  for (const ArgDef& arg : args) {
    if (!arg.typeListAttr.empty()) {
      auto it = attrs.find(arg.typeListAttr);
      if (it == attrs.end())
        return invalidArgument("missing attr '" + arg.typeListAttr + "' for argument '" + arg.name + "'");
      if (it->second.kind() != AttrValue::Kind::kList)
        return invalidArgument("attr '" + arg.typeListAttr + "' for argument '" + arg.name +
                               "' must be list(type), got " + it->second.toString());
      const auto& types = it->second.list().type;
      for (size_t k = 0; k < types.size(); ++k) flat.push_back({&arg, static_cast<int>(k), types[k]});
      continue;
    }
    int count = 1;
    if (!arg.numberAttr.empty()) {
      auto it = attrs.find(arg.numberAttr);
      if (it == attrs.end())
        return invalidArgument("missing attr '" + arg.numberAttr + "' for argument '" + arg.name + "'");
      if (it->second.kind() != AttrValue::Kind::kInt || it->second.i() < 0 || it->second.i() > 1000000)
        return invalidArgument("attr '" + arg.numberAttr + "' for argument '" + arg.name + "' must be a count, got " +
                               it->second.toString());
      count = static_cast<int>(it->second.i());
    }
    DType dtype = arg.type;
    if (!arg.typeAttr.empty()) {
      auto it = attrs.find(arg.typeAttr);
      dtype = (it != attrs.end() && it->second.kind() == AttrValue::Kind::kType) ? it->second.type() : DType::kInvalid;
    }
    for (int k = 0; k < count; ++k) flat.push_back({&arg, k, dtype});
  }
  return flat;
}

}  // namespace flowscope
