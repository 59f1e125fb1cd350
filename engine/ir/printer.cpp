// The stable text printer.
#include "ir/printer.h"

#include "base/strings.h"

namespace flowscope {
namespace {

std::string printArgs(const std::vector<ArgDef>& args) {
  std::vector<std::string> parts;
  for (const auto& arg : args) {
    std::string type = !arg.typeListAttr.empty() ? arg.typeListAttr
                       : !arg.typeAttr.empty()   ? arg.typeAttr
                                                 : std::string(dtypeName(arg.type));
    if (!arg.numberAttr.empty()) type = arg.numberAttr + "*" + type;
    parts.push_back(arg.name + ": " + type);
  }
  return joinStrings(parts, ", ");
}

std::string printAttrMap(const AttrMap& attrs) {
  std::vector<std::string> parts;
  for (const auto& [key, value] : attrs) parts.push_back(key + "=" + value.toString());
  return "{" + joinStrings(parts, ", ") + "}";
}

void printBody(const Graph& graph, const std::string& indent, std::string& out) {
  for (size_t i = 0; i < graph.size(); ++i) out += indent + printNode(graph.node(i)) + "\n";
}

}  // namespace

std::string printNode(const Node& node) {
  std::vector<std::string> inputs;
  for (const auto& in : node.inputs) inputs.push_back(in.toString());
  for (const auto& c : node.controlInputs) inputs.push_back("^" + c);
  std::string line = node.name + " = " + node.op + "(" + joinStrings(inputs, ", ") + ")";
  if (!node.attrs.empty()) line += " " + printAttrMap(node.attrs);
  if (!node.device.empty()) line += " @" + node.device;
  return line;
}

std::string printFunction(const FunctionDef& f) {
  std::string out =
      "function " + f.name() + "(" + printArgs(f.signature.inputs) + ") -> (" + printArgs(f.signature.outputs) + ")";
  if (f.signature.isStateful) out += " stateful";
  out += "\n";
  if (!f.attrs.empty()) out += "  attrs " + printAttrMap(f.attrs) + "\n";
  for (const auto& [index, attrs] : f.argAttrs)
    out += "  arg_attr " + std::to_string(index) + " " + printAttrMap(attrs) + "\n";
  if (f.body) printBody(*f.body, "  ", out);
  for (const auto& [name, value] : f.ret) out += "  return " + name + " = " + value + "\n";
  for (const auto& [name, value] : f.controlRet) out += "  control_return " + name + " = " + value + "\n";
  return out;
}

std::string printGraph(const Graph& graph) {
  std::string out;
  if (graph.versions.present)
    out += "versions producer=" + std::to_string(graph.versions.producer) +
           " min_consumer=" + std::to_string(graph.versions.minConsumer) + "\n";
  printBody(graph, "", out);
  for (const auto& f : graph.library.functions()) out += printFunction(f);
  for (const auto& g : graph.library.gradients) out += "gradient " + g.functionName + " = " + g.gradientFunc + "\n";
  return out;
}

}  // namespace flowscope
