// ONNX LSTM, GRU and RNN (default activations; either layout), forward, reverse or bidirectional, in float32. The
// input projections of all steps are one matrix product per direction; the recurrence runs step by step.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <dnnl.h>

#include "exec/cpu/fast_math.h"
#include "exec/cpu/onnx_kernels.h"
#include "exec/cpu/strided_copy.h"

namespace flowscope {
namespace {

float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

// out[r][j] = sum_k a[r][k] * w[j][k] (+ bias[j]): w is [cols, k] as ONNX stores W and R. oneDNN's sgemm (a gemv
// for one row): a plain loop's chained sums took 65 us for Silero VAD's one 128-unit step, sgemm takes a few.
void matmulTransposed(const float* a, int64_t rows, int64_t k, const float* w, int64_t cols, const float* bias,
                      float* out) {
  if (rows == 0 || cols == 0) return;
  if (bias)
    for (int64_t r = 0; r < rows; ++r) std::memcpy(out + r * cols, bias, static_cast<size_t>(cols) * sizeof(float));
  // Shapes come from checked tensors, so sgemm's argument checks cannot fail here.
  [[maybe_unused]] const dnnl_status_t status =
      dnnl_sgemm('N', 'T', rows, cols, k, 1.0f, a, k, w, k, bias ? 1.0f : 0.0f, out, cols);
}

struct RnnShapes {
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, dirs = 1;
};

Expected<RnnShapes> rnnShapes(const KernelContext& ctx, int gates) {
  const Tensor &x = ctx.inputs[0], &w = ctx.inputs[1], &r = ctx.inputs[2];
  if (ctx.node.attr("activations")) return ctx.error("custom activations are not supported");
  if (x.dtype() != DType::kFloat || w.dtype() != DType::kFloat || r.dtype() != DType::kFloat || x.shape().rank() != 3 ||
      w.shape().rank() != 3 || r.shape().rank() != 3)
    return ctx.error("expects float32 X [seq, batch, input], W and R of rank 3");
  RnnShapes s{x.shape().dim(0), x.shape().dim(1), x.shape().dim(2), r.shape().dim(2), w.shape().dim(0)};
  if (w.shape().dim(1) != gates * s.hidden || w.shape().dim(2) != s.input || r.shape().dim(1) != gates * s.hidden ||
      r.shape().dim(0) != s.dirs)
    return ctx.error("W " + w.shape().toString() + " or R " + r.shape().toString() + " do not match X and hidden");
  if (const Tensor* b = onnxInput(ctx, 3);
      b && (b->dtype() != DType::kFloat || b->numElements() != s.dirs * 2 * gates * s.hidden))
    return ctx.error("B must be float32 [" + std::to_string(s.dirs) + ", " + std::to_string(2 * gates * s.hidden) +
                     "]");
  for (int position : {5, 6, 7})
    if (const Tensor* t = onnxInput(ctx, position); t && t->dtype() != DType::kFloat)
      return ctx.error("initial states and peepholes must be float32");
  if (const Tensor* p = onnxInput(ctx, 7); p && gates == 4 && p->numElements() != s.dirs * 3 * s.hidden)
    return ctx.error("P must be [" + std::to_string(s.dirs) + ", " + std::to_string(3 * s.hidden) + "]");
  const std::string direction = attrString(ctx.node, "direction", "forward");
  if ((direction == "bidirectional") != (s.dirs == 2)) return ctx.error("direction does not match W's first dim");
  if (const Tensor* lens = onnxInput(ctx, 4))
    for (int64_t v : intValues(*lens))
      if (v != s.seq) return ctx.error("sequence_lens shorter than the sequence are not supported");
  return s;
}

// One direction of an LSTM: gates i, o, f, c.
void lstmDirection(const KernelContext& ctx, const RnnShapes& s, int64_t d, bool reverse, float* y, float* h,
                   float* c) {
  const int64_t hs = s.hidden, g4 = 4 * hs;
  const float* w = ctx.inputs[1].data<float>() + d * g4 * s.input;
  const float* r = ctx.inputs[2].data<float>() + d * g4 * hs;
  const Tensor* bias = onnxInput(ctx, 3);
  const Tensor* peep = onnxInput(ctx, 7);
  const float clip = attrFloat(ctx.node, "clip", 0.0f);
  std::vector<float> b(static_cast<size_t>(g4), 0.0f);
  if (bias)
    for (int64_t j = 0; j < g4; ++j)
      b[static_cast<size_t>(j)] = bias->data<float>()[d * 2 * g4 + j] + bias->data<float>()[d * 2 * g4 + g4 + j];
  std::vector<float> xw(static_cast<size_t>(s.seq * s.batch * g4)), hr(static_cast<size_t>(s.batch * g4));
  matmulTransposed(ctx.inputs[0].data<float>(), s.seq * s.batch, s.input, w, g4, b.data(), xw.data());
  const float* p = peep ? peep->data<float>() + d * 3 * hs : nullptr;
  auto clipped = [clip](float v) { return clip > 0 ? std::clamp(v, -clip, clip) : v; };
  for (int64_t step = 0; step < s.seq; ++step) {
    const int64_t t = reverse ? s.seq - 1 - step : step;
    matmulTransposed(h, s.batch, hs, r, g4, nullptr, hr.data());
    for (int64_t n = 0; n < s.batch; ++n)
      for (int64_t j = 0; j < hs; ++j) {
        const float* gx = xw.data() + (t * s.batch + n) * g4;
        const float* gh = hr.data() + n * g4;
        float& cell = c[n * hs + j];
        const float gi = sigmoid(clipped(gx[j] + gh[j] + (p ? p[j] * cell : 0)));
        const float gf = sigmoid(clipped(gx[2 * hs + j] + gh[2 * hs + j] + (p ? p[2 * hs + j] * cell : 0)));
        const float gc = tanhFloat(clipped(gx[3 * hs + j] + gh[3 * hs + j]));
        cell = gf * cell + gi * gc;
        const float go = sigmoid(clipped(gx[hs + j] + gh[hs + j] + (p ? p[hs + j] * cell : 0)));
        h[n * hs + j] = go * tanhFloat(cell);
      }
    std::memcpy(y + (t * s.dirs + d) * s.batch * hs, h, static_cast<size_t>(s.batch * hs) * sizeof(float));
  }
}

// The initial state of direction d from input `position`, or zeros.
std::vector<float> initialState(const KernelContext& ctx, int position, const RnnShapes& s, int64_t d) {
  std::vector<float> state(static_cast<size_t>(s.batch * s.hidden), 0.0f);
  if (const Tensor* t = onnxInput(ctx, position); t && t->numElements() == s.dirs * s.batch * s.hidden)
    std::memcpy(state.data(), t->data<float>() + d * s.batch * s.hidden, state.size() * sizeof(float));
  return state;
}

Status lstm(KernelContext& ctx) {
  if (ctx.inputs.size() < 3) return ctx.error("needs X, W and R");
  FS_ASSIGN_OR_RETURN(RnnShapes s, rnnShapes(ctx, 4));
  if (attrInt(ctx.node, "input_forget", 0)) return ctx.error("input_forget=1 is not supported");
  const bool reverseOnly = attrString(ctx.node, "direction", "forward") == "reverse";
  Tensor y(DType::kFloat, Shape{s.seq, s.dirs, s.batch, s.hidden});
  Tensor yh(DType::kFloat, Shape{s.dirs, s.batch, s.hidden}), yc(DType::kFloat, Shape{s.dirs, s.batch, s.hidden});
  for (int64_t d = 0; d < s.dirs; ++d) {
    std::vector<float> h = initialState(ctx, 5, s, d), c = initialState(ctx, 6, s, d);
    lstmDirection(ctx, s, d, reverseOnly || d == 1, y.data<float>(), h.data(), c.data());
    std::memcpy(yh.data<float>() + d * s.batch * s.hidden, h.data(), h.size() * sizeof(float));
    std::memcpy(yc.data<float>() + d * s.batch * s.hidden, c.data(), c.size() * sizeof(float));
  }
  ctx.outputs[0] = std::move(y);
  if (ctx.outputs.size() > 1) ctx.outputs[1] = std::move(yh);
  if (ctx.outputs.size() > 2) ctx.outputs[2] = std::move(yc);
  return Status::ok();
}

// One direction of a GRU: gates z, r, h.
void gruDirection(const KernelContext& ctx, const RnnShapes& s, int64_t d, bool reverse, float* y, float* h) {
  const int64_t hs = s.hidden, g3 = 3 * hs;
  const float* w = ctx.inputs[1].data<float>() + d * g3 * s.input;
  const float* r = ctx.inputs[2].data<float>() + d * g3 * hs;
  const Tensor* bias = onnxInput(ctx, 3);
  const bool linearBeforeReset = attrInt(ctx.node, "linear_before_reset", 0) != 0;
  std::vector<float> wb(static_cast<size_t>(g3), 0.0f), rb(static_cast<size_t>(g3), 0.0f);
  if (bias)
    for (int64_t j = 0; j < g3; ++j) {
      wb[static_cast<size_t>(j)] = bias->data<float>()[d * 2 * g3 + j];
      rb[static_cast<size_t>(j)] = bias->data<float>()[d * 2 * g3 + g3 + j];
    }
  const auto bh = static_cast<size_t>(s.batch * hs);
  std::vector<float> xw(static_cast<size_t>(s.seq * s.batch * g3)), hr(static_cast<size_t>(s.batch * g3));
  std::vector<float> z(bh), reset(bh), rh(bh), hc(bh);
  matmulTransposed(ctx.inputs[0].data<float>(), s.seq * s.batch, s.input, w, g3, wb.data(), xw.data());
  for (int64_t step = 0; step < s.seq; ++step) {
    const int64_t t = reverse ? s.seq - 1 - step : step;
    matmulTransposed(h, s.batch, hs, r, g3, rb.data(), hr.data());  // H R^T + Rb, all three gates
    for (int64_t n = 0; n < s.batch; ++n)
      for (int64_t j = 0; j < hs; ++j) {
        const float* gx = xw.data() + (t * s.batch + n) * g3;
        const float* gh = hr.data() + n * g3;
        const auto i = static_cast<size_t>(n * hs + j);
        z[i] = sigmoid(gx[j] + gh[j]);
        reset[i] = sigmoid(gx[hs + j] + gh[hs + j]);
        rh[i] = reset[i] * h[n * hs + j];
        hc[i] = reset[i] * gh[2 * hs + j];  // linear_before_reset: r * (H Rh^T + Rbh)
      }
    if (!linearBeforeReset)  // (r * H) Rh^T + Rbh
      matmulTransposed(rh.data(), s.batch, hs, r + 2 * hs * hs, hs, rb.data() + 2 * hs, hc.data());
    for (int64_t n = 0; n < s.batch; ++n)
      for (int64_t j = 0; j < hs; ++j) {
        const auto i = static_cast<size_t>(n * hs + j);
        const float cand = tanhFloat(xw[static_cast<size_t>((t * s.batch + n) * g3 + 2 * hs + j)] + hc[i]);
        h[n * hs + j] = (1 - z[i]) * cand + z[i] * h[n * hs + j];
      }
    std::memcpy(y + (t * s.dirs + d) * s.batch * hs, h, bh * sizeof(float));
  }
}

using HiddenDirection = void (*)(const KernelContext&, const RnnShapes&, int64_t, bool, float*, float*);

// A recurrence whose only state is H (GRU, RNN) over every direction: Y and Y_h.
Status hiddenStateRecurrence(KernelContext& ctx, int gates, HiddenDirection direction) {
  if (ctx.inputs.size() < 3) return ctx.error("needs X, W and R");
  if (ctx.node.attr("clip")) return ctx.error("clip is supported for LSTM only");
  FS_ASSIGN_OR_RETURN(RnnShapes s, rnnShapes(ctx, gates));
  const bool reverseOnly = attrString(ctx.node, "direction", "forward") == "reverse";
  Tensor y(DType::kFloat, Shape{s.seq, s.dirs, s.batch, s.hidden});
  Tensor yh(DType::kFloat, Shape{s.dirs, s.batch, s.hidden});
  for (int64_t d = 0; d < s.dirs; ++d) {
    std::vector<float> h = initialState(ctx, 5, s, d);
    direction(ctx, s, d, reverseOnly || d == 1, y.data<float>(), h.data());
    std::memcpy(yh.data<float>() + d * s.batch * s.hidden, h.data(), h.size() * sizeof(float));
  }
  ctx.outputs[0] = std::move(y);
  if (ctx.outputs.size() > 1) ctx.outputs[1] = std::move(yh);
  return Status::ok();
}

Status gru(KernelContext& ctx) { return hiddenStateRecurrence(ctx, 3, gruDirection); }

// One direction of a simple RNN: H = tanh(X W^T + Wb + H R^T + Rb).
void rnnDirection(const KernelContext& ctx, const RnnShapes& s, int64_t d, bool reverse, float* y, float* h) {
  const int64_t hs = s.hidden;
  const float* w = ctx.inputs[1].data<float>() + d * hs * s.input;
  const float* r = ctx.inputs[2].data<float>() + d * hs * hs;
  std::vector<float> b(static_cast<size_t>(hs), 0.0f);
  if (const Tensor* bias = onnxInput(ctx, 3))
    for (int64_t j = 0; j < hs; ++j)
      b[static_cast<size_t>(j)] = bias->data<float>()[d * 2 * hs + j] + bias->data<float>()[d * 2 * hs + hs + j];
  std::vector<float> xw(static_cast<size_t>(s.seq * s.batch * hs)), hr(static_cast<size_t>(s.batch * hs));
  matmulTransposed(ctx.inputs[0].data<float>(), s.seq * s.batch, s.input, w, hs, b.data(), xw.data());
  for (int64_t step = 0; step < s.seq; ++step) {
    const int64_t t = reverse ? s.seq - 1 - step : step;
    matmulTransposed(h, s.batch, hs, r, hs, nullptr, hr.data());
    for (int64_t i = 0; i < s.batch * hs; ++i) h[i] = tanhFloat(xw[static_cast<size_t>(t * s.batch * hs + i)] + hr[i]);
    std::memcpy(y + (t * s.dirs + d) * s.batch * hs, h, static_cast<size_t>(s.batch * hs) * sizeof(float));
  }
}

Status rnn(KernelContext& ctx) { return hiddenStateRecurrence(ctx, 1, rnnDirection); }

// `t` (float32) with its axes in the order `perm`.
Tensor permuted(const Tensor& t, const std::vector<int64_t>& perm) {
  const std::vector<int64_t> from = stridesOf(t.shape());
  std::vector<int64_t> dims, strides;
  for (int64_t axis : perm) {
    dims.push_back(t.shape().dim(static_cast<int>(axis)));
    strides.push_back(from[static_cast<size_t>(axis)]);
  }
  Tensor out = Tensor::uninitialized(DType::kFloat, Shape(dims));
  if (t.numElements() > 0) stridedCopy(t.data<float>(), 0, strides, dims, out.data<float>());
  return out;
}

// layout=1 (batch first): X [batch, seq, input] and the initial states [batch, dirs, hidden] go to `run` in layout 0,
// and its outputs come back: Y [seq, dirs, batch, hidden] as [batch, seq, dirs, hidden], the final states
// [dirs, batch, hidden] as [batch, dirs, hidden].
template <Status (*Run)(KernelContext&)>
Status eitherLayout(KernelContext& ctx) {
  if (attrInt(ctx.node, "layout", 0) == 0) return Run(ctx);
  if (ctx.inputs.empty() || ctx.inputs[0].shape().rank() != 3 || ctx.inputs[0].dtype() != DType::kFloat)
    return ctx.error("expects a float32 X [batch, seq, input]");
  std::vector<Tensor> inputs = ctx.inputs;
  inputs[0] = permuted(inputs[0], {1, 0, 2});
  for (int position : {5, 6})
    if (const Tensor* state = onnxInput(ctx, position);
        state && state->shape().rank() == 3 && state->dtype() == DType::kFloat)
      inputs[static_cast<size_t>(state - ctx.inputs.data())] = permuted(*state, {1, 0, 2});
  Node node = ctx.node;
  node.attrs.erase("layout");
  std::vector<Tensor> outputs(ctx.outputs.size());
  KernelContext inner{node, inputs, outputs, ctx.exec};
  FS_RETURN_IF_ERROR(Run(inner));
  for (size_t k = 0; k < outputs.size(); ++k)
    if (outputs[k].isValid())
      ctx.outputs[k] = k == 0 ? permuted(outputs[k], {2, 0, 1, 3}) : permuted(outputs[k], {1, 0, 2});
  return Status::ok();
}

}  // namespace

void registerOnnxRecurrentKernels(KernelTable& r) {
  r.addFn("onnx::LSTM", eitherLayout<lstm>);
  r.addFn("onnx::GRU", eitherLayout<gru>);
  r.addFn("onnx::RNN", eitherLayout<rnn>);
}

}  // namespace flowscope
