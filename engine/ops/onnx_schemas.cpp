// ONNX op schemas from libonnx's OpSchemaRegistry, turned into OpSchemas of the op set "domain::Op".
#include "ops/onnx_schemas.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <set>

#include "base/strings.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

// Ops whose two inputs commute (CSE compares them as a set) and ops that draw random numbers (never merged, folded).
const std::set<std::string_view> kCommutative = {"Add",   "Mul", "And", "Or",  "Xor",
                                                 "Equal", "Max", "Min", "Sum", "Mean"};
const std::set<std::string_view> kStateful = {"RandomNormal",      "RandomUniform", "RandomNormalLike",
                                              "RandomUniformLike", "Multinomial",   "Bernoulli"};

std::string attrTypeName(onnx::AttributeProto::AttributeType type) {
  switch (type) {
    case onnx::AttributeProto::FLOAT:
      return "float";
    case onnx::AttributeProto::INT:
      return "int";
    case onnx::AttributeProto::STRING:
      return "string";
    case onnx::AttributeProto::TENSOR:
      return "tensor";
    case onnx::AttributeProto::GRAPH:
      return "func";
    case onnx::AttributeProto::FLOATS:
      return "list(float)";
    case onnx::AttributeProto::INTS:
      return "list(int)";
    case onnx::AttributeProto::STRINGS:
      return "list(string)";
    case onnx::AttributeProto::TENSORS:
      return "list(tensor)";
    case onnx::AttributeProto::GRAPHS:
      return "list(func)";
    case onnx::AttributeProto::SPARSE_TENSOR:
      return "sparse_tensor";
    default:
      return "other";
  }
}

// Schema defaults are scalars or lists of them.
std::optional<AttrValue> defaultOf(const onnx::AttributeProto& value) {
  switch (value.type()) {
    case onnx::AttributeProto::FLOAT:
      return AttrValue::fromFloat(value.f());
    case onnx::AttributeProto::INT:
      return AttrValue::fromInt(value.i());
    case onnx::AttributeProto::STRING:
      return AttrValue::fromString(value.s());
    case onnx::AttributeProto::FLOATS:
    case onnx::AttributeProto::INTS:
    case onnx::AttributeProto::STRINGS: {
      AttrList list;
      list.f.assign(value.floats().begin(), value.floats().end());
      list.i.assign(value.ints().begin(), value.ints().end());
      list.s.assign(value.strings().begin(), value.strings().end());
      return AttrValue::fromList(std::move(list));
    }
    default:
      return std::nullopt;
  }
}

OnnxFormal::Option optionOf(onnx::OpSchema::FormalParameterOption option) {
  if (option == onnx::OpSchema::Optional) return OnnxFormal::Option::kOptional;
  if (option == onnx::OpSchema::Variadic) return OnnxFormal::Option::kVariadic;
  return OnnxFormal::Option::kSingle;
}

std::vector<OnnxFormal> formalsOf(const std::vector<onnx::OpSchema::FormalParameter>& params) {
  std::vector<OnnxFormal> formals;
  for (const auto& p : params)
    formals.push_back({p.GetName(), p.GetTypeStr(), optionOf(p.GetOption()), trim(p.GetDescription())});
  return formals;
}

// The first sentence of the doc, on one line.
std::string summaryOf(const std::string& doc) {
  std::string text = trim(doc);
  std::replace(text.begin(), text.end(), '\n', ' ');
  size_t end = text.find(". ");
  return end == std::string::npos ? text : text.substr(0, end + 1);
}

}  // namespace

void addOnnxSignature(OpDef& def) {
  ArgDef in;
  in.name = "inputs";
  in.typeListAttr = kOnnxInTypesAttr;
  ArgDef out;
  out.name = "outputs";
  out.typeListAttr = kOnnxOutTypesAttr;
  def.inputs.push_back(in);
  def.outputs.push_back(out);
  for (const char* name : {kOnnxInTypesAttr, kOnnxOutTypesAttr}) {
    AttrDef attr;
    attr.name = name;
    attr.type = "list(type)";
    attr.description = "Flowscope: the dtypes of the node's tensors";
    def.attrs.push_back(attr);
  }
}

namespace {

OpSchema schemaFrom(const onnx::OpSchema& s) {
  OpSchema schema;
  schema.category = onnxCategory(s.domain(), s.Name());
  OpDef& def = schema.def;
  def.name = onnxOpName(s.domain(), s.Name());
  addOnnxSignature(def);
  for (const auto& [name, a] : s.attributes()) {
    AttrDef attr;
    attr.name = name;
    attr.type = attrTypeName(a.type);
    attr.description = a.description;
    if (!a.required && a.default_value.has_type()) attr.defaultValue = defaultOf(a.default_value);
    def.attrs.push_back(std::move(attr));
  }
  const std::string doc = s.doc() ? s.doc() : "";
  def.summary = summaryOf(doc);
  def.description = trim(doc);
  def.isCommutative = s.domain().empty() && kCommutative.count(s.Name());
  def.isStateful = s.domain().empty() && kStateful.count(s.Name());
  if (s.Deprecated()) def.deprecationExplanation = "deprecated in ONNX opset " + std::to_string(s.SinceVersion());
  auto info = std::make_shared<OnnxSchemaInfo>();
  info->domain = s.domain();
  info->opType = s.Name();
  info->sinceVersion = s.SinceVersion();
  info->inputs = formalsOf(s.inputs());
  info->outputs = formalsOf(s.outputs());
  for (const auto& tc : s.typeConstraintParams())
    info->typeConstraints.push_back(tc.type_param_str + ": " + joinStrings(tc.allowed_type_strs, ", ") + " - " +
                                    trim(tc.description));
  schema.onnx = std::move(info);
  return schema;
}

}  // namespace

std::vector<OpSchema> onnxSchemas() {
  std::vector<OpSchema> schemas;
  for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas())
    if (s.domain().empty() || s.domain() == "ai.onnx.ml") schemas.push_back(schemaFrom(s));
  for (auto& s : onnxContribSchemas()) schemas.push_back(std::move(s));
  return schemas;
}

int onnxKnownOpsetVersion(std::string_view domain) {
  const auto& map = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto it = map.find(std::string(domain == "ai.onnx" ? "" : domain));
  return it == map.end() ? 0 : it->second.second;
}

}  // namespace flowscope
