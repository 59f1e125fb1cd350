// OpDef: an op's (or a function's) signature: arguments, attrs and flags. Shared by ops/ schemas and functions.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/attr_value.h"

namespace flowscope {

/// An input or output argument. Arity: 1, or attrs[numberAttr], or len(attrs[typeListAttr]).
struct ArgDef {
  std::string name;
  std::string description;
  DType type = DType::kInvalid;  ///< fixed type, when typeAttr and typeListAttr are empty
  std::string typeAttr;
  std::string numberAttr;
  std::string typeListAttr;
  bool isRef = false;
  std::vector<std::pair<DType, Shape>> handleData;
};

struct AttrDef {
  std::string name;
  std::string type;  ///< "int", "list(type)", "func", ...
  std::optional<AttrValue> defaultValue;
  std::string description;
  bool hasMinimum = false;
  int64_t minimum = 0;
  std::optional<AttrValue> allowedValues;
};

struct OpDef {
  std::string name;
  std::vector<ArgDef> inputs;
  std::vector<ArgDef> outputs;
  std::vector<AttrDef> attrs;
  std::vector<std::string> controlOutputs;
  std::string summary;
  std::string description;
  int deprecationVersion = 0;
  std::string deprecationExplanation;
  bool isCommutative = false;
  bool isAggregate = false;
  bool isStateful = false;
  bool allowsUninitializedInput = false;
  bool isDistributedCommunication = false;

  const AttrDef* findAttr(const std::string& attrName) const;
};

struct Node;

/// Whether `node`, of op `def` (null when unknown), draws randomness or changes state, so that no pass may merge,
/// fold or prune it for an equal one: its op is stateful, or this node of a stateless op may draw (ONNX's Dropout
/// given a training_mode input; without it the op is an identity).
bool isStatefulNode(const Node& node, const OpDef* def);

/// One flattened tensor of an argument list: its arg, position inside the arg, and dtype (kInvalid if unknown).
struct FlatArg {
  const ArgDef* arg = nullptr;
  int indexInArg = 0;
  DType dtype = DType::kInvalid;
};

/// Finds the signature for an op name; nullptr when unknown.
using OpLookup = std::function<const OpDef*(const std::string& op)>;

/// Expands args into flat tensors using a node's attrs (number_attr / type_list_attr / type_attr).
/// Fails when an attr needed for the arity is missing or of the wrong kind.
Expected<std::vector<FlatArg>> flattenArgs(const std::vector<ArgDef>& args, const AttrMap& attrs);
/// flattenArgs() into `flat` (cleared first; left partial on failure), reusing its storage.
Status flattenArgs(const std::vector<ArgDef>& args, const AttrMap& attrs, std::vector<FlatArg>* flat);
/// The dtypes of flattenArgs(), into `types` (cleared first; left partial on failure).
Status flattenArgTypes(const std::vector<ArgDef>& args, const AttrMap& attrs, std::vector<DType>* types);

}  // namespace flowscope
