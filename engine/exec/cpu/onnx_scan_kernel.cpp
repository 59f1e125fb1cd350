// ONNX Scan: the body runs once per slice of the scan inputs along their scan axes (forward or reversed), carrying
// the state variables; each scan output stacks the body's value of every iteration along its own axis (forward or
// reversed). Opset 8's form, with a batch axis first and optional sequence lengths, runs one such scan per batch entry.
// stackIterations, shared with Loop's scan outputs, is here too.
#include <algorithm>
#include <cstring>

#include "exec/cpu/onnx_kernels.h"
#include "exec/exec_context.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

struct ScanSpec {
  std::string body;
  size_t states = 0, scans = 0, scanOutputs = 0;
  std::vector<int64_t> inAxes, inReverse, outAxes, outReverse;  // per scan input, per scan output (0 when unset)
};

int64_t at(const std::vector<int64_t>& v, size_t k) { return k < v.size() ? v[k] : 0; }

// The bytes of `t` seen as [outer, length, inner] around `axis`.
struct Around {
  int64_t outer = 1, length = 1, inner = 1;  // inner in bytes
};
Around around(const Shape& shape, int64_t axis, size_t elementBytes) {
  Around a;
  a.inner = static_cast<int64_t>(elementBytes);
  for (int64_t d = 0; d < shape.rank(); ++d) (d < axis ? a.outer : d == axis ? a.length : a.inner) *= shape.dim(d);
  return a;
}

Tensor sliceAlong(const Tensor& t, int64_t axis, int64_t index) {
  std::vector<int64_t> dims = t.shape().dims();
  dims.erase(dims.begin() + axis);
  Tensor out = Tensor::uninitialized(t.dtype(), Shape(dims));
  const Around a = around(t.shape(), axis, static_cast<size_t>(dtypeSize(t.dtype())));
  for (int64_t o = 0; o < a.outer; ++o)
    std::memcpy(out.mutableBytes().data() + o * a.inner, t.bytes().data() + (o * a.length + index) * a.inner,
                static_cast<size_t>(a.inner));
  return out;
}

// The parts, each of one shape, stacked along a new `axis`.
Tensor stackAlong(const std::vector<Tensor>& parts, int64_t axis) {
  std::vector<int64_t> dims = parts[0].shape().dims();
  dims.insert(dims.begin() + axis, static_cast<int64_t>(parts.size()));
  Tensor out = Tensor::uninitialized(parts[0].dtype(), Shape(dims));
  const Around a = around(out.shape(), axis, static_cast<size_t>(dtypeSize(out.dtype())));
  for (size_t i = 0; i < parts.size(); ++i)
    for (int64_t o = 0; o < a.outer; ++o)
      std::memcpy(out.mutableBytes().data() + (o * a.length + static_cast<int64_t>(i)) * a.inner,
                  parts[i].bytes().data() + o * a.inner, static_cast<size_t>(a.inner));
  return out;
}

// An axis in [-rank, rank) as a non-negative one, or an error naming what it belongs to.
Expected<int64_t> normalAxis(const KernelContext& ctx, int64_t axis, int64_t rank, const std::string& what) {
  if (axis < -rank || axis >= rank)
    return ctx.error(what + " axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

// One scan over `scanInputs`: the states and the stacked scan outputs.
Expected<std::vector<Tensor>> runScan(KernelContext& ctx, const ScanSpec& spec, std::vector<Tensor> states,
                                      const std::vector<Tensor>& scanInputs, const std::vector<Tensor>& outer) {
  std::vector<int64_t> axes;
  int64_t length = -1;
  for (size_t k = 0; k < scanInputs.size(); ++k) {
    const Tensor& t = scanInputs[k];
    if (t.isStringLike()) return ctx.error("scan input " + std::to_string(k) + " is a string tensor");
    FS_ASSIGN_OR_RETURN(int64_t axis, normalAxis(ctx, at(spec.inAxes, k), t.shape().rank(), "scan input"));
    if (length >= 0 && t.shape().dim(axis) != length)
      return ctx.error("scan inputs differ in length: " + std::to_string(length) + " and " +
                       std::to_string(t.shape().dim(axis)) + " (input " + std::to_string(k) + ")");
    length = t.shape().dim(axis);
    axes.push_back(axis);
  }
  if (length == 0 && spec.scanOutputs > 0)
    return ctx.error("scans zero slices, so the shapes of its scan outputs are unknown");
  std::vector<std::vector<Tensor>> scanned(spec.scanOutputs);
  for (int64_t i = 0; i < length; ++i) {
    if (ctx.exec->isCancelled()) return cancelled("run cancelled in scan '" + ctx.node.name + "'");
    std::vector<Tensor> args = states;
    for (size_t k = 0; k < scanInputs.size(); ++k)
      args.push_back(sliceAlong(scanInputs[k], axes[k], at(spec.inReverse, k) ? length - 1 - i : i));
    args.insert(args.end(), outer.begin(), outer.end());
    auto out = ctx.exec->functions->call(spec.body, {}, std::move(args), *ctx.exec);
    if (!out) return out.status().withContext(nodeLabel(ctx.node));
    if (out->size() != spec.states + spec.scanOutputs)
      return ctx.error("body returned " + std::to_string(out->size()) + " values, expected " +
                       std::to_string(spec.states) + " states and " + std::to_string(spec.scanOutputs) +
                       " scan outputs");
    for (size_t k = 0; k < spec.states; ++k) states[k] = std::move((*out)[k]);
    for (size_t k = 0; k < scanned.size(); ++k) scanned[k].push_back(std::move((*out)[spec.states + k]));
  }
  std::vector<Tensor> results = std::move(states);
  for (size_t k = 0; k < scanned.size(); ++k) {
    std::vector<Tensor>& parts = scanned[k];
    if (at(spec.outReverse, k)) std::reverse(parts.begin(), parts.end());
    FS_ASSIGN_OR_RETURN(int64_t axis, normalAxis(ctx, at(spec.outAxes, k), parts[0].shape().rank() + 1, "scan output"));
    FS_ASSIGN_OR_RETURN(Tensor stacked, stackIterations(ctx, parts, axis, k));
    results.push_back(std::move(stacked));
  }
  return results;
}

// Opset 8: every input has the batch first, scan inputs have their sequence second; one scan per batch entry.
Status scanBatched(KernelContext& ctx, ScanSpec spec, const std::vector<Tensor>& formal,
                   const std::vector<Tensor>& outer, const Tensor* lengths) {
  const int64_t batch = formal.empty() || formal[0].shape().rank() == 0 ? 0 : formal[0].shape().dim(0);
  for (const Tensor& t : formal)
    if (t.shape().rank() == 0 || t.shape().dim(0) != batch || t.isStringLike())
      return ctx.error("opset 8 needs every input batched along axis 0 with the same batch size");
  if (lengths && lengths->numElements() > 0) {
    const int64_t full = formal[spec.states].shape().rank() > 1 ? formal[spec.states].shape().dim(1) : 0;
    for (int64_t b = 0; b < lengths->numElements(); ++b)
      if (lengths->data<int64_t>()[b] != full)
        return ctx.error("sequence_lens shorter than the sequence (" + std::to_string(full) + ") are not supported");
  }
  std::vector<std::vector<Tensor>> perBatch;
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Tensor> states, scans;
    for (size_t k = 0; k < formal.size(); ++k)
      (k < spec.states ? states : scans).push_back(sliceAlong(formal[k], 0, b));
    FS_ASSIGN_OR_RETURN(std::vector<Tensor> results, runScan(ctx, spec, std::move(states), scans, outer));
    perBatch.push_back(std::move(results));
  }
  if (perBatch.empty()) return ctx.error("opset 8 with an empty batch is not supported");
  for (size_t k = 0; k < ctx.outputs.size(); ++k) {
    std::vector<Tensor> parts;
    for (auto& results : perBatch) parts.push_back(std::move(results[k]));
    FS_ASSIGN_OR_RETURN(ctx.outputs[k], stackIterations(ctx, parts, 0, k));
  }
  return Status::ok();
}

Status scan(KernelContext& ctx) {
  const AttrValue* body = ctx.node.attr("body");
  if (!body || body->kind() != AttrValue::Kind::kFunc) return ctx.error("needs a body");
  if (!ctx.exec || !ctx.exec->functions) return ctx.error("needs a function runtime");
  const bool batched = onnxOpset(ctx.node, 9) < 9;
  const size_t captures = onnxCaptureCount(ctx.node);
  const std::vector<int> positions = onnxFormalPositions(ctx.node);
  const std::vector<Tensor> outer(ctx.inputs.end() - static_cast<std::ptrdiff_t>(captures), ctx.inputs.end());
  const Tensor* lengths = nullptr;
  std::vector<Tensor> formal;
  for (size_t k = 0; k < positions.size(); ++k) {
    if (batched && positions[k] == 0)
      lengths = &ctx.inputs[k];
    else
      formal.push_back(ctx.inputs[k]);
  }
  ScanSpec spec;
  spec.body = body->func().name;
  const int64_t scans = attrInt(ctx.node, "num_scan_inputs", -1);
  if (scans < 1 || static_cast<size_t>(scans) > formal.size())
    return ctx.error("num_scan_inputs must be between 1 and the " + std::to_string(formal.size()) + " inputs");
  spec.scans = static_cast<size_t>(scans);
  spec.states = formal.size() - spec.scans;
  if (ctx.outputs.size() < spec.states) return ctx.error("has fewer outputs than state variables");
  spec.scanOutputs = ctx.outputs.size() - spec.states;
  if (batched) {
    spec.inReverse = attrInts(ctx.node, "directions");
    for (size_t k = 0; k < spec.scans; ++k) spec.inAxes.push_back(0);  // after the batch axis is taken off
    return scanBatched(ctx, std::move(spec), formal, outer, lengths);
  }
  spec.inAxes = attrInts(ctx.node, "scan_input_axes");
  spec.inReverse = attrInts(ctx.node, "scan_input_directions");
  spec.outAxes = attrInts(ctx.node, "scan_output_axes");
  spec.outReverse = attrInts(ctx.node, "scan_output_directions");
  std::vector<Tensor> states(formal.begin(), formal.begin() + static_cast<std::ptrdiff_t>(spec.states));
  std::vector<Tensor> scanInputs(formal.begin() + static_cast<std::ptrdiff_t>(spec.states), formal.end());
  FS_ASSIGN_OR_RETURN(std::vector<Tensor> results, runScan(ctx, spec, std::move(states), scanInputs, outer));
  for (size_t k = 0; k < results.size(); ++k) ctx.outputs[k] = std::move(results[k]);
  return Status::ok();
}

}  // namespace

Expected<Tensor> stackIterations(const KernelContext& ctx, const std::vector<Tensor>& parts, int64_t axis,
                                 size_t output) {
  if (parts.empty()) return Tensor(DType::kFloat, Shape{0});
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].shape() != parts[0].shape() || parts[i].dtype() != parts[0].dtype() || parts[i].isStringLike())
      return ctx.error("scan output " + std::to_string(output) + " of iteration " + std::to_string(i) +
                       " differs in shape or dtype from the first iteration's");
  return stackAlong(parts, axis);
}

void registerOnnxScanKernel(KernelTable& r) { r.addFn("onnx::Scan", scan); }

}  // namespace flowscope
