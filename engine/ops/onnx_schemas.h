// The ONNX op set's schemas, read from libonnx's op schema registry (ONNX 1.12: opset 17 and ai.onnx.ml 3), plus the
// Microsoft contrib ops that exported and optimized models use (ONNX Runtime's com.microsoft domain), which the
// library does not know.
#pragma once

#include <string_view>
#include <vector>

#include "ops/op_registry.h"

namespace flowscope {

/// Every ONNX op of the default and ai.onnx.ml domains (newest version) and the contrib ops, named "domain::Op".
std::vector<OpSchema> onnxSchemas();
/// The op set's generic signature, "inputs: _Tin" -> "outputs: _Tout" with those two list(type) attrs: ONNX arity
/// depends on the node (optional and variadic inputs, If's outputs), not on attributes.
void addOnnxSignature(OpDef& def);
/// ONNX Runtime's contrib ops that Flowscope reads, runs and writes (onnx_contrib_schemas.cpp).
std::vector<OpSchema> onnxContribSchemas();
/// The canvas category of an ONNX op type (kOther when the table does not list it).
OpCategory onnxCategory(std::string_view domain, std::string_view opType);
/// The newest opset version of a domain that the library knows ("" is the default domain); 0 when it knows none.
int onnxKnownOpsetVersion(std::string_view domain);

}  // namespace flowscope
