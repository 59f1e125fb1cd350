// Flattening of OpDef argument lists into per-tensor entries, and which nodes are stateful.
#include "ir/op_def.h"

#include "ir/node.h"

namespace flowscope {

bool isStatefulNode(const Node& node, const OpDef* def) {
  if (def && def->isStateful) return true;
  return node.op == "onnx::Dropout" && node.inputs.size() >= 3;
}

const AttrDef* OpDef::findAttr(const std::string& attrName) const {
  for (const auto& attr : attrs)
    if (attr.name == attrName) return &attr;
  return nullptr;
}

namespace {

// Calls emit(arg, indexInArg, dtype) for each flat tensor of `args`. Consecutive args that share a type attr
// (most ops: every "T") look it up once.
template <typename Emit>
Status forEachFlatArg(const std::vector<ArgDef>& args, const AttrMap& attrs, Emit&& emit) {
  const std::string* lastTypeAttr = nullptr;
  DType lastType = DType::kInvalid;
  for (const ArgDef& arg : args) {
    if (!arg.typeListAttr.empty()) {
      auto it = attrs.find(arg.typeListAttr);
      if (it == attrs.end())
        return invalidArgument("missing attr '" + arg.typeListAttr + "' for argument '" + arg.name + "'");
      if (it->second.kind() != AttrValue::Kind::kList)
        return invalidArgument("attr '" + arg.typeListAttr + "' for argument '" + arg.name +
                               "' must be list(type), got " + it->second.toString());
      const auto& types = it->second.list().type;
      for (size_t k = 0; k < types.size(); ++k) emit(arg, static_cast<int>(k), types[k]);
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
      if (!lastTypeAttr || *lastTypeAttr != arg.typeAttr) {
        auto it = attrs.find(arg.typeAttr);
        lastType =
            (it != attrs.end() && it->second.kind() == AttrValue::Kind::kType) ? it->second.type() : DType::kInvalid;
        lastTypeAttr = &arg.typeAttr;
      }
      dtype = lastType;
    }
    for (int k = 0; k < count; ++k) emit(arg, k, dtype);
  }
  return Status::ok();
}

}  // namespace

Status flattenArgs(const std::vector<ArgDef>& args, const AttrMap& attrs, std::vector<FlatArg>* flat) {
  flat->clear();
  flat->reserve(args.size());
  return forEachFlatArg(args, attrs, [&](const ArgDef& arg, int k, DType dtype) { flat->push_back({&arg, k, dtype}); });
}

Expected<std::vector<FlatArg>> flattenArgs(const std::vector<ArgDef>& args, const AttrMap& attrs) {
  std::vector<FlatArg> flat;
  if (Status status = flattenArgs(args, attrs, &flat); !status) return status;
  return flat;
}

Status flattenArgTypes(const std::vector<ArgDef>& args, const AttrMap& attrs, std::vector<DType>* types) {
  types->clear();
  types->reserve(args.size());
  return forEachFlatArg(args, attrs, [&](const ArgDef&, int, DType dtype) { types->push_back(dtype); });
}

}  // namespace flowscope
