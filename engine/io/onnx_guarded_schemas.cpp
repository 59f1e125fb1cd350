// ONNX schemas with guarded shape inference (see the header).
#include "io/onnx_guarded_schemas.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace flowscope {
namespace {

constexpr int kNotGuarded = -2, kNoWeight = -1;

// The weight's input position of the ops whose inference derives the kernel from the weight's shape; kNoWeight for
// the pooling ops (their window comes from attributes), kNotGuarded for the rest.
int weightInput(const std::string& domain, const std::string& op) {
  if (!domain.empty() && domain != "ai.onnx") return kNotGuarded;
  if (op == "Conv" || op == "ConvInteger" || op == "ConvTranspose") return 1;
  if (op == "QLinearConv") return 3;
  if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") return kNoWeight;
  if (op == "DepthToSpace" || op == "SpaceToDepth") return kNoWeight;
  return kNotGuarded;
}

// libonnx 1.12 divides by strides and dilations without checking them: a zero is a division by zero.
std::string nonPositiveWindowAttr(onnx::InferenceContext& ctx) {
  for (const char* name : {"strides", "dilations", "kernel_shape"}) {
    const onnx::AttributeProto* attr = ctx.getAttribute(name);
    if (!attr) continue;
    for (int64_t v : attr->ints())
      if (v <= 0) return "attribute '" + std::string(name) + "' has " + std::to_string(v) + "; each must be positive";
  }
  return "";
}

// libonnx 1.12 divides the channels by blocksize squared: a blocksize whose square is 0 in int64 (2^32) divides by
// zero.
std::string badBlocksize(onnx::InferenceContext& ctx) {
  const onnx::AttributeProto* attr = ctx.getAttribute("blocksize");
  if (!attr || (attr->i() > 0 && attr->i() <= 3037000499)) return "";
  return "attribute 'blocksize' has " + std::to_string(attr->i()) + "; it must be in [1, 3037000499]";
}

int knownRank(onnx::InferenceContext& ctx, size_t input) {
  if (input >= ctx.getNumInputs()) return -1;
  const onnx::TypeProto* type = ctx.getInputType(input);
  if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape()) return -1;
  return type->tensor_type().shape().dim_size();
}

thread_local std::vector<std::string> t_findings;

onnx::InferenceFunction guarded(onnx::InferenceFunction inner, int weight, std::string op) {
  return [inner, weight, op](onnx::InferenceContext& ctx) {
    std::string what = nonPositiveWindowAttr(ctx);
    if (what.empty()) what = badBlocksize(ctx);
    const int x = knownRank(ctx, 0), w = weight >= 0 ? knownRank(ctx, static_cast<size_t>(weight)) : -1;
    if (what.empty() && x >= 0 && w >= 0 && x != w)
      what = "the input has rank " + std::to_string(x) + " and the weight rank " + std::to_string(w) +
             "; they must be equal";
    if (!what.empty()) {
      t_findings.push_back("a " + op + " node: " + what);
      fail_shape_inference(what);
    }
    if (inner) inner(ctx);
  };
}

class GuardedRegistry : public onnx::ISchemaRegistry {
 public:
  const onnx::OpSchema* GetSchema(const std::string& key, const int maxInclusiveVersion,
                                  const std::string& domain) const override {
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Instance()->GetSchema(key, maxInclusiveVersion, domain);
    const int weight = weightInput(domain, key);
    if (!schema || weight == kNotGuarded) return schema;
    std::lock_guard<std::mutex> lock(m_mutex);
    auto& copy = m_guarded[schema];
    if (!copy) {
      copy = std::make_unique<onnx::OpSchema>(*schema);
      copy->TypeAndShapeInferenceFunction(guarded(schema->GetTypeAndShapeInferenceFunction(), weight, key));
    }
    return copy.get();
  }

 private:
  mutable std::mutex m_mutex;
  mutable std::map<const onnx::OpSchema*, std::unique_ptr<onnx::OpSchema>> m_guarded;
};

}  // namespace

const onnx::ISchemaRegistry* guardedOnnxSchemas() {
  static const GuardedRegistry registry;
  return &registry;
}

std::vector<std::string> takeOnnxGuardFindings() { return std::exchange(t_findings, {}); }

}  // namespace flowscope
