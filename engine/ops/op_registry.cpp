// Builds the registry from op_table.inc, parsing TensorFlow's REGISTER_OP-style notation.
#include "ops/op_registry.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "base/strings.h"
#include "base/thread_pool.h"
#include "ops/onnx_schemas.h"

namespace flowscope {
namespace {

struct OpRow {
  const char* name;
  OpCategory category;
  const char* inputs;
  const char* outputs;
  const char* attrs;
  const char* flags;
  const char* summary;
};

constexpr OpRow kOpTable[] = {
#include "ops/op_table.inc"
};

// Splits at `separator` outside brackets, braces and quotes.
std::vector<std::string> splitTopLevel(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  bool quoted = false;
  for (char c : text) {
    if (c == '\'') quoted = !quoted;
    if (!quoted && (c == '[' || c == '{' || c == '(')) ++depth;
    if (!quoted && (c == ']' || c == '}' || c == ')')) --depth;
    if (c == separator && depth == 0 && !quoted) {
      parts.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty()) parts.push_back(trim(current));
  return parts;
}

std::string unquote(const std::string& text) {
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') return text.substr(1, text.size() - 2);
  throw std::logic_error("expected a quoted string: " + text);
}

DType requireDType(const std::string& text) {
  auto dtype = parseDType(text);
  if (!dtype) throw std::logic_error("unknown dtype in op table: " + text);
  return *dtype;
}

AttrValue parseScalarDefault(const std::string& type, const std::string& text) {
  if (type == "bool") return AttrValue::fromBool(text == "true");
  if (type == "int") return AttrValue::fromInt(std::stoll(text));
  if (type == "float") return AttrValue::fromFloat(std::stof(text));
  if (type == "string") return AttrValue::fromString(unquote(text));
  if (type == "type") return AttrValue::fromType(requireDType(text));
  if (type == "shape") {
    if (text == "<unknown>") return AttrValue::fromShape(Shape::unknownRank());
    std::vector<int64_t> dims;
    for (const auto& d : splitTopLevel(text.substr(1, text.size() - 2), ',')) dims.push_back(std::stoll(d));
    return AttrValue::fromShape(Shape(dims));
  }
  throw std::logic_error("no default syntax for attr type " + type);
}

AttrValue parseDefault(const std::string& type, const std::string& text) {
  if (!startsWith(type, "list(")) return parseScalarDefault(type, text);
  std::string element = type.substr(5, type.size() - 6);
  AttrList list;
  for (const auto& item : splitTopLevel(text.substr(1, text.size() - 2), ',')) {
    AttrValue v = parseScalarDefault(element, item);
    if (element == "int")
      list.i.push_back(v.i());
    else if (element == "string")
      list.s.push_back(v.s());
    else if (element == "float")
      list.f.push_back(v.f());
    else if (element == "type")
      list.type.push_back(v.type());
    else
      throw std::logic_error("no list default syntax for " + element);
  }
  return AttrValue::fromList(std::move(list));
}

AttrDef parseAttr(const std::string& spec) {
  AttrDef attr;
  size_t colon = spec.find(':');
  attr.name = trim(spec.substr(0, colon));
  std::string rest = trim(spec.substr(colon + 1));
  std::string defaultText;
  if (size_t eq = rest.find(" = "); eq != std::string::npos) {
    defaultText = trim(rest.substr(eq + 3));
    rest = trim(rest.substr(0, eq));
  }
  if (size_t ge = rest.find(">="); ge != std::string::npos) {
    attr.hasMinimum = true;
    attr.minimum = std::stoll(trim(rest.substr(ge + 2)));
    rest = trim(rest.substr(0, ge));
  }
  if (!rest.empty() && rest.front() == '{') {
    AttrList allowed;
    bool strings = rest.find('\'') != std::string::npos;
    for (const auto& item : splitTopLevel(rest.substr(1, rest.size() - 2), ',')) {
      if (strings)
        allowed.s.push_back(unquote(item));
      else
        allowed.type.push_back(requireDType(item));
    }
    attr.allowedValues = AttrValue::fromList(std::move(allowed));
    rest = strings ? "string" : "type";
  }
  attr.type = rest;
  if (!defaultText.empty()) attr.defaultValue = parseDefault(attr.type, defaultText);
  return attr;
}

std::vector<ArgDef> parseArgs(const std::string& spec, const std::vector<AttrDef>& attrs) {
  std::vector<ArgDef> args;
  for (const auto& part : splitTopLevel(spec, ',')) {
    ArgDef arg;
    size_t colon = part.find(':');
    arg.name = trim(part.substr(0, colon));
    std::string type = trim(part.substr(colon + 1));
    if (size_t star = type.find('*'); star != std::string::npos) {
      arg.numberAttr = trim(type.substr(0, star));
      type = trim(type.substr(star + 1));
    }
    if (startsWith(type, "Ref(")) {
      arg.isRef = true;
      type = type.substr(4, type.size() - 5);
    }
    auto declared = std::find_if(attrs.begin(), attrs.end(), [&](const AttrDef& a) { return a.name == type; });
    if (declared == attrs.end())
      arg.type = requireDType(type);
    else if (declared->type == "list(type)")
      arg.typeListAttr = type;
    else
      arg.typeAttr = type;
    args.push_back(std::move(arg));
  }
  return args;
}

OpSchema buildSchema(const OpRow& row) {
  OpSchema schema;
  schema.category = row.category;
  OpDef& def = schema.def;
  def.name = row.name;
  for (const auto& spec : splitTopLevel(row.attrs, ';')) def.attrs.push_back(parseAttr(spec));
  def.inputs = parseArgs(row.inputs, def.attrs);
  def.outputs = parseArgs(row.outputs, def.attrs);
  std::string flags = row.flags;
  def.isStateful = flags.find('S') != std::string::npos;
  def.isCommutative = flags.find('C') != std::string::npos;
  def.isAggregate = flags.find('A') != std::string::npos;
  def.allowsUninitializedInput = def.name == "Assign";
  def.summary = row.summary;
  return schema;
}

}  // namespace

OpRegistry::OpRegistry() {
  for (const auto& row : kOpTable) m_schemas.push_back(buildSchema(row));
  for (auto& schema : onnxSchemas()) m_schemas.push_back(std::move(schema));
  m_byName.reserve(m_schemas.size());
  for (size_t i = 0; i < m_schemas.size(); ++i) m_byName.emplace(m_schemas[i].def.name, i);
}

const OpRegistry& OpRegistry::global() {
  static const OpRegistry registry;
  return registry;
}

const OpSchema* OpRegistry::find(const std::string& op) const {
  auto it = m_byName.find(op);
  return it == m_byName.end() ? nullptr : &m_schemas[it->second];
}

OpLookup OpRegistry::lookupWith(const FunctionLibrary* library) const {
  return [this, library](const std::string& op) -> const OpDef* {
    if (library)
      if (const FunctionDef* f = library->find(op)) return &f->signature;
    const OpSchema* schema = find(op);
    return schema ? &schema->def : nullptr;
  };
}

OpCategory OpRegistry::categoryOf(const std::string& op, const FunctionLibrary* library) const {
  if (library && library->find(op)) return OpCategory::kFunctionCall;
  const OpSchema* schema = find(op);
  return schema ? schema->category : OpCategory::kUnknown;
}

std::vector<std::string> OpRegistry::unknownOpsIn(const Graph& graph) const {
  std::vector<std::string> unknown;
  std::mutex unknownMutex;
  auto scan = [&](const Graph& g) {  // on the intra-op threads: a large graph is a walk over a million nodes
    parallelFor(static_cast<int64_t>(g.size()), 200, [&](int64_t begin, int64_t end) {
      std::vector<std::string> found;
      std::unordered_set<std::string_view> seen;  // a few distinct ops: one lookup each per chunk
      for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
        const std::string& op = g.node(i).op;
        if (seen.insert(op).second && categoryOf(op, &graph.library) == OpCategory::kUnknown) found.push_back(op);
      }
      std::lock_guard<std::mutex> lock(unknownMutex);
      unknown.insert(unknown.end(), found.begin(), found.end());
    });
  };
  scan(graph);
  for (const auto& f : graph.library.functions())
    if (f.body) scan(*f.body);
  std::sort(unknown.begin(), unknown.end());
  unknown.erase(std::unique(unknown.begin(), unknown.end()), unknown.end());
  return unknown;
}

int fillDefaultAttrs(Node& node, const OpDef& def) {
  int added = 0;
  for (const auto& attr : def.attrs) {
    if (attr.defaultValue && !node.attrs.count(attr.name)) {
      node.attrs.emplace(attr.name, *attr.defaultValue);
      ++added;
    }
  }
  return added;
}

namespace {
// The schema whose defaults `node` lacks, or null.
const OpDef* missingDefaults(const Node& node, const FunctionLibrary& library) {
  if (library.find(node.op) || isOnnxOp(node.op)) return nullptr;  // functions and ONNX nodes carry no defaults
  const OpSchema* schema = OpRegistry::global().find(node.op);
  if (!schema) return nullptr;
  const auto& attrs = schema->def.attrs;
  bool missing = std::any_of(attrs.begin(), attrs.end(),
                             [&](const AttrDef& a) { return a.defaultValue && !node.attrs.count(a.name); });
  return missing ? &schema->def : nullptr;
}

// On the intra-op threads: which nodes lack defaults, then (once the graph has made them its own) filling them.
void fillDefaultsIn(Graph& graph, const FunctionLibrary& library) {
  const auto n = static_cast<int64_t>(graph.size());
  std::vector<const OpDef*> defs(graph.size());
  parallelFor(n, 200, [&](int64_t begin, int64_t end) {
    for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i)
      defs[i] = missingDefaults(graph.node(i), library);
  });
  std::vector<Node*> nodes(graph.size(), nullptr);
  for (size_t i = 0; i < graph.size(); ++i)
    if (defs[i]) nodes[i] = &graph.mutableNode(i);
  parallelFor(n, 200, [&](int64_t begin, int64_t end) {
    for (auto i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i)
      if (nodes[i]) fillDefaultAttrs(*nodes[i], *defs[i]);
  });
}
}  // namespace

void fillDefaultAttrs(Graph& graph) {
  fillDefaultsIn(graph, graph.library);
  for (auto& f : graph.library.mutableFunctions())
    if (f.body) fillDefaultsIn(*f.body, graph.library);
}

}  // namespace flowscope
