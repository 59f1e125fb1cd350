// ParseExample and ParseExampleV2: tf.Example records into dense and sparse tensors, as TensorFlow's parser does.
// Ragged features (V2's ragged_keys) are not supported.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "exec/cpu/cpu_kernels.h"
#include "exec/kernel_util.h"
#include "ir/tf_example.h"

namespace flowscope {
namespace {

// The op's inputs and outputs by role; V1 and V2 lay them out differently.
struct ParseLayout {
  std::vector<std::string> sparseKeys, denseKeys;
  std::vector<DType> sparseTypes, denseTypes;
  std::vector<Shape> denseShapes;
  std::vector<const Tensor*> defaults;
  size_t sparseOut = 0, denseOut = 0;  ///< index of the first sparse_indices / dense_values output
};

ExampleFeature::Kind kindOf(DType t) {
  return t == DType::kFloat   ? ExampleFeature::Kind::kFloat
         : t == DType::kInt64 ? ExampleFeature::Kind::kInt64
                              : ExampleFeature::Kind::kBytes;
}

const char* kindName(ExampleFeature::Kind k) {
  return k == ExampleFeature::Kind::kFloat ? "float" : k == ExampleFeature::Kind::kInt64 ? "int64" : "string";
}

std::vector<std::string> keysOf(const std::vector<Tensor>& inputs, size_t first, size_t count) {
  std::vector<std::string> keys;
  for (size_t i = first; i < first + count; ++i)
    for (const auto& s : inputs[i].strings()) keys.push_back(s);
  return keys;
}

Status checkKeys(const KernelContext& ctx, size_t first, size_t count) {
  for (size_t i = first; i < first + count; ++i)
    if (i >= ctx.inputs.size() || !ctx.inputs[i].isStringLike()) return ctx.error("keys must be string tensors");
  return Status::ok();
}

Expected<ParseLayout> layoutOf(const KernelContext& ctx, bool v2) {
  ParseLayout l;
  const AttrValue* shapes = ctx.node.attr("dense_shapes");
  const AttrValue* tdense = ctx.node.attr("Tdense");
  const AttrValue* tsparse = ctx.node.attr("sparse_types");
  if (tdense && tdense->kind() == AttrValue::Kind::kList) l.denseTypes = tdense->list().type;
  if (tsparse && tsparse->kind() == AttrValue::Kind::kList) l.sparseTypes = tsparse->list().type;
  if (shapes && shapes->kind() == AttrValue::Kind::kList) l.denseShapes = shapes->list().shape;
  const size_t nDense = l.denseTypes.size(), nSparse = l.sparseTypes.size();
  if (l.denseShapes.size() != nDense) return ctx.error("dense_shapes and Tdense differ in length");
  if (v2 && attrInt(ctx.node, "num_sparse", 0) != static_cast<int64_t>(nSparse))
    return ctx.error("num_sparse and sparse_types differ");
  const size_t keysAt = 2, denseKeysAt = v2 ? 3 : 2 + nSparse, defaultsAt = v2 ? 5 : 2 + nSparse + nDense;
  FS_RETURN_IF_ERROR(checkKeys(ctx, keysAt, v2 ? 3 : nSparse + nDense));
  if (ctx.inputs.size() != defaultsAt + nDense) return ctx.error("wrong number of inputs for the attrs");
  l.sparseKeys = keysOf(ctx.inputs, keysAt, v2 ? 1 : nSparse);
  l.denseKeys = keysOf(ctx.inputs, denseKeysAt, v2 ? 1 : nDense);
  if (v2 && ctx.inputs[4].numElements() > 0) return ctx.error("ragged features are not supported");
  if (l.sparseKeys.size() != nSparse || l.denseKeys.size() != nDense)
    return ctx.error("the number of keys does not match the attrs");
  if (ctx.outputs.size() < 3 * nSparse + nDense) return ctx.error("fewer outputs than the attrs call for");
  for (size_t i = 0; i < nDense; ++i) l.defaults.push_back(&ctx.inputs[defaultsAt + i]);
  l.denseOut = 3 * nSparse;
  return l;
}

// Appends a feature's values (already checked to be of `t`'s kind) to the flat output at `offset`.
void copyValues(const ExampleFeature& f, Tensor& out, int64_t offset) {
  const auto o = static_cast<size_t>(offset);
  if (f.kind == ExampleFeature::Kind::kFloat)
    std::copy(f.floats.begin(), f.floats.end(), out.data<float>() + o);
  else if (f.kind == ExampleFeature::Kind::kInt64)
    std::copy(f.ints.begin(), f.ints.end(), out.data<int64_t>() + o);
  else
    std::copy(f.bytes.begin(), f.bytes.end(), out.mutableStrings().begin() + static_cast<std::ptrdiff_t>(o));
}

void copyDefault(const Tensor& def, Tensor& out, int64_t offset, int64_t count) {
  if (out.isStringLike()) {
    std::copy(def.strings().begin(), def.strings().end(),
              out.mutableStrings().begin() + static_cast<std::ptrdiff_t>(offset));
    return;
  }
  const size_t size = static_cast<size_t>(dtypeSize(out.dtype()));
  std::memcpy(out.mutableBytes().data() + static_cast<size_t>(offset) * size, def.bytes().data(),
              static_cast<size_t>(count) * size);
}

Status wrongType(const KernelContext& ctx, const std::string& key, int64_t index, ExampleFeature::Kind got,
                 DType want) {
  return ctx.error("Key: " + key + ", Index: " + std::to_string(index) + ".  Data types don't match. Data type: " +
                   kindName(got) + " but expected type: " + kindName(kindOf(want)));
}

Status fillDense(const KernelContext& ctx, const ParseLayout& l, size_t d, const std::vector<Example>& examples,
                 Tensor& out) {
  const int64_t per = l.denseShapes[d].numElements();
  const Tensor& def = *l.defaults[d];
  const std::string& key = l.denseKeys[d];
  for (size_t b = 0; b < examples.size(); ++b) {
    const auto index = static_cast<int64_t>(b);
    auto it = examples[b].find(key);
    if (it == examples[b].end()) {
      if (def.numElements() == 0)
        return ctx.error("Name: <unknown>, Feature: " + key + " (data type: " + kindName(kindOf(l.denseTypes[d])) +
                         ") is required but could not be found.");
      copyDefault(def, out, index * per, per);
      continue;
    }
    const ExampleFeature& f = it->second;
    if (f.kind != kindOf(l.denseTypes[d])) return wrongType(ctx, key, index, f.kind, l.denseTypes[d]);
    if (static_cast<int64_t>(f.size()) != per)
      return ctx.error("Key: " + key + ", Index: " + std::to_string(index) + ".  Number of " + kindName(f.kind) +
                       " values != expected.  Values size: " + std::to_string(f.size()) +
                       " but output shape: " + l.denseShapes[d].toString());
    copyValues(f, out, index * per);
  }
  return Status::ok();
}

Status denseOutputs(KernelContext& ctx, const ParseLayout& l, const std::vector<Example>& examples,
                    const Shape& batch) {
  for (size_t d = 0; d < l.denseTypes.size(); ++d) {
    const Shape& shape = l.denseShapes[d];
    if (!shape.isFullyDefined()) return ctx.error("variable-length dense feature '" + l.denseKeys[d] + "'");
    const int64_t per = shape.numElements();
    const Tensor& def = *l.defaults[d];
    if (def.dtype() != l.denseTypes[d] || (def.numElements() != 0 && def.numElements() != per))
      return ctx.error("dense_defaults[" + std::to_string(d) + "] must be empty or hold " + std::to_string(per) +
                       " values of " + std::string(dtypeName(l.denseTypes[d])));
    std::vector<int64_t> dims = batch.dims();
    dims.insert(dims.end(), shape.dims().begin(), shape.dims().end());
    Tensor out(l.denseTypes[d], Shape(dims));
    FS_RETURN_IF_ERROR(fillDense(ctx, l, d, examples, out));
    ctx.outputs[l.denseOut + d] = std::move(out);
  }
  return Status::ok();
}

// Sparse feature s: indices [nnz, rank+1] (example, position), values [nnz], dense shape [batch..., longest].
Status sparseOutput(KernelContext& ctx, const ParseLayout& l, size_t s, const std::vector<Example>& examples,
                    const Shape& batch) {
  const size_t n = l.sparseTypes.size();
  int64_t nnz = 0, longest = 0;
  for (size_t b = 0; b < examples.size(); ++b) {
    auto it = examples[b].find(l.sparseKeys[s]);
    if (it == examples[b].end()) continue;
    if (it->second.kind != kindOf(l.sparseTypes[s]))
      return wrongType(ctx, l.sparseKeys[s], static_cast<int64_t>(b), it->second.kind, l.sparseTypes[s]);
    nnz += static_cast<int64_t>(it->second.size());
    longest = std::max(longest, static_cast<int64_t>(it->second.size()));
  }
  const int64_t rank = batch.rank() + 1;
  Tensor indices(DType::kInt64, Shape{nnz, rank}), values(l.sparseTypes[s], Shape{nnz});
  int64_t at = 0;
  for (size_t b = 0; b < examples.size(); ++b) {
    auto it = examples[b].find(l.sparseKeys[s]);
    if (it == examples[b].end()) continue;
    copyValues(it->second, values, at);
    for (size_t j = 0; j < it->second.size(); ++j, ++at) {
      int64_t* row = indices.data<int64_t>() + at * rank;
      if (rank == 2) row[0] = static_cast<int64_t>(b);
      row[rank - 1] = static_cast<int64_t>(j);
    }
  }
  Tensor shape(DType::kInt64, Shape{rank});
  if (rank == 2) shape.data<int64_t>()[0] = static_cast<int64_t>(examples.size());
  shape.data<int64_t>()[rank - 1] = longest;
  ctx.outputs[s] = std::move(indices);
  ctx.outputs[n + s] = std::move(values);
  ctx.outputs[2 * n + s] = std::move(shape);
  return Status::ok();
}

template <bool V2>
Status parseExampleOp(KernelContext& ctx) {
  if (ctx.inputs.size() < 2 || !ctx.inputs[0].isStringLike()) return ctx.error("serialized must be a string tensor");
  const Tensor& serialized = ctx.inputs[0];
  if (serialized.shape().rank() > 1 || (!V2 && serialized.shape().rank() != 1))
    return ctx.error(std::string("serialized must be a vector") + (V2 ? " or a scalar" : "") + ", got " +
                     serialized.shape().toString());
  FS_ASSIGN_OR_RETURN(ParseLayout layout, layoutOf(ctx, V2));
  std::vector<Example> examples;
  for (size_t b = 0; b < serialized.strings().size(); ++b) {
    auto example = parseExample(serialized.strings()[b]);
    if (!example)
      return ctx.error("could not parse example input " + std::to_string(b) + ": " + example.status().message());
    examples.push_back(std::move(example).value());
  }
  for (size_t s = 0; s < layout.sparseTypes.size(); ++s)
    FS_RETURN_IF_ERROR(sparseOutput(ctx, layout, s, examples, serialized.shape()));
  return denseOutputs(ctx, layout, examples, serialized.shape());
}

}  // namespace

void registerParseExampleKernels(KernelTable& r) {
  r.addFn("ParseExample", parseExampleOp<false>);
  r.addFn("ParseExampleV2", parseExampleOp<true>);
}

}  // namespace flowscope
