// Eager execution.
#include "exec/eager.h"

#include <unordered_map>

#include "exec/backend.h"
#include "ir/verify.h"
#include "ops/op_registry.h"

namespace flowscope {

EagerContext::EagerContext() { m_exec.resources = &m_resources; }

EagerContext& EagerContext::global() {
  static EagerContext context;
  return context;
}

EagerOp::EagerOp(std::string op, AttrMap attrs) : m_op(std::move(op)), m_attrs(std::move(attrs)) {
  if (const OpSchema* schema = OpRegistry::global().find(m_op)) m_def = &schema->def;
}

Expected<EagerOp::Entry*> EagerOp::entryFor(const std::vector<Tensor>& inputs) {
  for (auto& e : m_cache) {
    if (e->types.size() != inputs.size()) continue;
    bool same = true;
    for (size_t i = 0; i < inputs.size() && same; ++i) same = e->types[i] == inputs[i].dtype();
    if (same) return e.get();
  }
  if (!m_def) return unimplemented("unknown op '" + m_op + "'");
  auto entry = std::make_unique<Entry>();
  for (const auto& t : inputs) entry->types.push_back(t.dtype());
  Node& node = entry->node;
  node.name = m_op;
  node.op = m_op;
  node.attrs = m_attrs;
  // Infer type and length attrs from the inputs, argument by argument.
  size_t fixed = 0;
  const ArgDef* listArg = nullptr;
  for (const auto& arg : m_def->inputs) {
    if (!arg.numberAttr.empty() || !arg.typeListAttr.empty())
      listArg = &arg;
    else
      ++fixed;
  }
  size_t listLength = listArg && inputs.size() >= fixed ? inputs.size() - fixed : 0;
  size_t at = 0;
  for (const auto& arg : m_def->inputs) {
    size_t count = &arg == listArg ? listLength : 1;
    if (!arg.numberAttr.empty() && !node.attrs.count(arg.numberAttr))
      node.attrs[arg.numberAttr] = AttrValue::fromInt(static_cast<int64_t>(count));
    if (!arg.typeListAttr.empty() && !node.attrs.count(arg.typeListAttr)) {
      AttrList types;
      for (size_t k = 0; k < count && at + k < inputs.size(); ++k) types.type.push_back(inputs[at + k].dtype());
      node.attrs[arg.typeListAttr] = AttrValue::fromList(types);
    }
    if (!arg.typeAttr.empty() && !node.attrs.count(arg.typeAttr) && at < inputs.size())
      node.attrs[arg.typeAttr] = AttrValue::fromType(inputs[at].dtype());
    at += count;
  }
  fillDefaultAttrs(node, *m_def);
  auto flat = flattenArgs(m_def->inputs, node.attrs);
  if (!flat) return flat.status().withContext(nodeLabel(node));
  if (flat->size() != inputs.size())
    return invalidArgument(nodeLabel(node) + "expects " + std::to_string(flat->size()) + " inputs, got " +
                           std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i)
    if ((*flat)[i].dtype != DType::kInvalid && (*flat)[i].dtype != inputs[i].dtype())
      return invalidArgument(nodeLabel(node) + "input " + std::to_string(i) + " must be " +
                             std::string(dtypeName((*flat)[i].dtype)) + ", got " +
                             std::string(dtypeName(inputs[i].dtype())));
  entry->numOutputs = static_cast<int>(outputTypesOf(node, m_def).size());
  static const FunctionLibrary kNoFunctions{};
  FS_ASSIGN_OR_RETURN(entry->kernel, fallbackBackend()->makeKernel(node, kNoFunctions));
  m_cache.push_back(std::move(entry));
  return m_cache.back().get();
}

Status EagerOp::run(std::vector<Tensor> inputs, std::vector<Tensor>* outputs) {
  FS_ASSIGN_OR_RETURN(Entry * e, entryFor(inputs));
  outputs->resize(static_cast<size_t>(e->numOutputs));
  for (auto& o : *outputs) o = Tensor();
  ExecContext& exec = EagerContext::global().exec();
  KernelContext ctx{e->node, inputs, *outputs, &exec};
  return fallbackBackend()->run(*e->kernel, ctx);
}

Expected<Tensor> EagerOp::operator()(std::vector<Tensor> inputs) {
  FS_RETURN_IF_ERROR(run(std::move(inputs), &m_outputs));
  if (m_outputs.empty()) return Tensor();
  return std::move(m_outputs[0]);
}

Expected<std::vector<Tensor>> eagerExecute(const std::string& op, std::vector<Tensor> inputs, const AttrMap& attrs) {
  thread_local std::unordered_map<std::string, std::unique_ptr<EagerOp>> cache;
  std::string key = op;
  for (const auto& [k, v] : attrs) key += "|" + k + "=" + v.toString();
  auto& slot = cache[key];
  if (!slot) slot = std::make_unique<EagerOp>(op, attrs);
  std::vector<Tensor> outputs;
  FS_RETURN_IF_ERROR(slot->run(std::move(inputs), &outputs));
  return outputs;
}

}  // namespace flowscope
