// ONNX attributes.
#include "io/onnx_attrs.h"

#include "io/onnx_sparse.h"

namespace flowscope {
namespace {

using Attr = onnx::AttributeProto;

Expected<AttrList> tensorList(const Attr& proto, const ExternalDataRoot& root) {
  AttrList list;
  for (int i = 0; i < proto.tensors_size(); ++i) {
    auto t = tensorFromOnnx(proto.tensors(i), root);
    if (!t) return t.status().withContext("tensor " + std::to_string(i) + ": ");
    list.tensor.push_back(std::move(t).value());
  }
  return list;
}

Expected<AttrList> graphList(const Attr& proto, const SubgraphImporter& importSubgraph) {
  AttrList list;
  for (int i = 0; i < proto.graphs_size(); ++i) {
    FS_ASSIGN_OR_RETURN(std::string name, importSubgraph(proto.graphs(i), proto.name() + "_" + std::to_string(i)));
    list.func.push_back(FuncAttr{name, {}});
  }
  return list;
}

// The attribute's type: the declared one, or for files that leave it out (IR version 1), the field that is set.
Attr::AttributeType typeOf(const Attr& p) {
  if (p.type() != Attr::UNDEFINED) return p.type();
  if (p.has_f()) return Attr::FLOAT;
  if (p.has_i()) return Attr::INT;
  if (p.has_s()) return Attr::STRING;
  if (p.has_t()) return Attr::TENSOR;
  if (p.has_g()) return Attr::GRAPH;
  if (p.floats_size()) return Attr::FLOATS;
  if (p.ints_size()) return Attr::INTS;
  if (p.strings_size()) return Attr::STRINGS;
  if (p.tensors_size()) return Attr::TENSORS;
  if (p.graphs_size()) return Attr::GRAPHS;
  return Attr::UNDEFINED;
}

// Sparse tensors densified and type protos as text ("seq(tensor(float))"); the importer keeps the original too.
Expected<AttrValue> keptVerbatimFromOnnx(const Attr& proto, const ExternalDataRoot& root) {
  AttrList list;
  switch (proto.type()) {
    case Attr::SPARSE_TENSOR: {
      auto t = sparseTensorFromOnnx(proto.sparse_tensor(), root);
      if (!t) return t.status();
      return AttrValue::fromTensor(std::move(t).value());
    }
    case Attr::SPARSE_TENSORS:
      for (int i = 0; i < proto.sparse_tensors_size(); ++i) {
        auto t = sparseTensorFromOnnx(proto.sparse_tensors(i), root);
        if (!t) return t.status().withContext("sparse tensor " + std::to_string(i) + ": ");
        list.tensor.push_back(std::move(t).value());
      }
      return AttrValue::fromList(std::move(list));
    case Attr::TYPE_PROTO:
      return AttrValue::fromString(onnxTypeString(proto.tp()));
    case Attr::TYPE_PROTOS:
      for (const auto& type : proto.type_protos()) list.s.push_back(onnxTypeString(type));
      return AttrValue::fromList(std::move(list));
    default:
      return unimplemented("has type " + std::to_string(proto.type()) + ", which ONNX 1.12 does not define");
  }
}

}  // namespace

Expected<AttrValue> attrFromOnnx(const Attr& proto, const ExternalDataRoot& root,
                                 const SubgraphImporter& importSubgraph) {
  const std::string where = "attribute '" + proto.name() + "': ";
  if (!proto.ref_attr_name().empty())
    return unimplemented(where + "refers to the function attribute '" + proto.ref_attr_name() +
                         "' (only function bodies may)");
  AttrList list;
  switch (typeOf(proto)) {
    case Attr::FLOAT:
      return AttrValue::fromFloat(proto.f());
    case Attr::INT:
      return AttrValue::fromInt(proto.i());
    case Attr::STRING:
      return AttrValue::fromString(proto.s());
    case Attr::TENSOR: {
      auto t = tensorFromOnnx(proto.t(), root);
      if (!t) return t.status().withContext(where);
      return AttrValue::fromTensor(std::move(t).value());
    }
    case Attr::GRAPH: {
      auto name = importSubgraph(proto.g(), proto.name());
      if (!name) return name.status();
      return AttrValue::fromFunc(FuncAttr{*name, {}});
    }
    case Attr::FLOATS:
      list.f.assign(proto.floats().begin(), proto.floats().end());
      return AttrValue::fromList(std::move(list));
    case Attr::INTS:
      list.i.assign(proto.ints().begin(), proto.ints().end());
      return AttrValue::fromList(std::move(list));
    case Attr::STRINGS:
      list.s.assign(proto.strings().begin(), proto.strings().end());
      return AttrValue::fromList(std::move(list));
    case Attr::TENSORS: {
      auto tensors = tensorList(proto, root);
      if (!tensors) return tensors.status().withContext(where);
      return AttrValue::fromList(std::move(tensors).value());
    }
    case Attr::GRAPHS: {
      FS_ASSIGN_OR_RETURN(AttrList graphs, graphList(proto, importSubgraph));
      return AttrValue::fromList(std::move(graphs));
    }
    case Attr::UNDEFINED:
      return AttrValue::fromList(AttrList{});  // an empty list of an undeclared type
    default: {
      auto value = keptVerbatimFromOnnx(proto, root);
      if (!value) return value.status().withContext(where);
      return value;
    }
  }
}

bool onnxAttrIsKeptVerbatim(const Attr& proto) {
  const auto type = typeOf(proto);
  return type == Attr::SPARSE_TENSOR || type == Attr::SPARSE_TENSORS || type == Attr::TYPE_PROTO ||
         type == Attr::TYPE_PROTOS;
}

namespace {

Status listToOnnx(const AttrList& list, Attr::AttributeType listType, const SubgraphExporter& exportSubgraph,
                  Attr* proto) {
  if (list.size() == 0) {
    const bool isList = listType == Attr::FLOATS || listType == Attr::INTS || listType == Attr::STRINGS ||
                        listType == Attr::TENSORS || listType == Attr::GRAPHS;
    proto->set_type(isList ? listType : Attr::INTS);
  } else if (!list.f.empty()) {
    proto->set_type(Attr::FLOATS);
    for (float f : list.f) proto->add_floats(f);
  } else if (!list.i.empty()) {
    proto->set_type(Attr::INTS);
    for (int64_t i : list.i) proto->add_ints(i);
  } else if (!list.s.empty()) {
    proto->set_type(Attr::STRINGS);
    for (const auto& s : list.s) proto->add_strings(s);
  } else if (!list.tensor.empty()) {
    proto->set_type(Attr::TENSORS);
    for (const auto& t : list.tensor) FS_RETURN_IF_ERROR(tensorToOnnx(t, proto->add_tensors()));
  } else if (!list.func.empty()) {
    proto->set_type(Attr::GRAPHS);
    for (const auto& f : list.func) FS_RETURN_IF_ERROR(exportSubgraph(f.name, proto->add_graphs()));
  } else {
    return unimplemented("a list of types, shapes or bools has no ONNX attribute type");
  }
  return Status::ok();
}

}  // namespace

Status attrToOnnx(const std::string& name, const AttrValue& value, Attr::AttributeType listType,
                  const SubgraphExporter& exportSubgraph, Attr* proto) {
  proto->set_name(name);
  switch (value.kind()) {
    case AttrValue::Kind::kFloat:
      proto->set_type(Attr::FLOAT);
      proto->set_f(value.f());
      return Status::ok();
    case AttrValue::Kind::kInt:
      proto->set_type(Attr::INT);
      proto->set_i(value.i());
      return Status::ok();
    case AttrValue::Kind::kBool:
      proto->set_type(Attr::INT);
      proto->set_i(value.b() ? 1 : 0);
      return Status::ok();
    case AttrValue::Kind::kString:
      proto->set_type(Attr::STRING);
      proto->set_s(value.s());
      return Status::ok();
    case AttrValue::Kind::kTensor:
      proto->set_type(Attr::TENSOR);
      return tensorToOnnx(value.tensor(), proto->mutable_t());
    case AttrValue::Kind::kFunc:
      proto->set_type(Attr::GRAPH);
      return exportSubgraph(value.func().name, proto->mutable_g());
    case AttrValue::Kind::kList:
      return listToOnnx(value.list(), listType, exportSubgraph, proto).withContext("attribute '" + name + "': ");
    default:
      return unimplemented("attribute '" + name + "' (" + value.toString() + ") has no ONNX attribute type");
  }
}

}  // namespace flowscope
