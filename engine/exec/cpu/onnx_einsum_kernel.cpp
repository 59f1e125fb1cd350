// ONNX Einsum: any equation of NumPy's einsum (explicit or implicit output, repeated labels for diagonals, an ellipsis
// for broadcast axes). Every label gets a stride per operand (the sum of its axes' strides, 0 where the operand
// lacks it or broadcasts it) and the product of the operands is summed over every combination of label values, in
// double. This is the definition, not a tuned contraction: a transformer's attention einsum of 1 x 12 x 128 x 128 x 64
// (bhid,bhjd->bhij) took 83-98 ms at 1 thread on a 2-core Zen 3, where a MatMul would take a few; the profiler holds
// it to the roofline for the products it does.
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <type_traits>

#include "exec/cpu/onnx_kernels.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

constexpr int kEllipsis = 1000;  // ellipsis axes: kEllipsis - width + k for the k-th axis of the broadcast ellipsis

// One term's labels, its ellipsis expanded to `axes` axes (right-aligned in the broadcast ellipsis).
Expected<std::vector<int>> termLabels(const std::string& term, int axes) {
  std::vector<int> labels;
  for (size_t i = 0; i < term.size(); ++i) {
    if (term.compare(i, 3, "...") == 0) {
      for (int k = 0; k < axes; ++k) labels.push_back(kEllipsis - axes + k);
      i += 2;
    } else if (std::isalpha(static_cast<unsigned char>(term[i]))) {
      labels.push_back(term[i]);
    } else {
      return invalidArgument("'" + std::string(1, term[i]) + "' is not a label");
    }
  }
  return labels;
}

int namedLabels(const std::string& term) {
  return static_cast<int>(
      std::count_if(term.begin(), term.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }));
}

struct Equation {
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;
};

Expected<Equation> parse(std::string equation, const std::vector<Tensor>& operands) {
  equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
  const size_t arrow = equation.find("->");
  const std::string lhs = equation.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != operands.size())
    return invalidArgument("the equation has " + std::to_string(terms.size()) + " terms for " +
                           std::to_string(operands.size()) + " inputs");
  Equation e;
  int width = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const int rank = operands[i].shape().rank(), axes = rank - namedLabels(terms[i]);
    const size_t dots = terms[i].find("...");
    if (dots != std::string::npos && terms[i].find("...", dots + 3) != std::string::npos)
      return invalidArgument("term '" + terms[i] + "' has more than one ellipsis");
    if (axes < 0 || (axes > 0 && dots == std::string::npos))
      return invalidArgument("term '" + terms[i] + "' does not have one label per axis of its input");
    width = std::max(width, axes);
    FS_ASSIGN_OR_RETURN(auto labels, termLabels(terms[i], axes));
    if (static_cast<int>(labels.size()) != rank)
      return invalidArgument("term '" + terms[i] + "' does not have one label per axis of its input");
    e.inputs.push_back(std::move(labels));
  }
  if (arrow != std::string::npos) {
    const std::string out = equation.substr(arrow + 2);
    const size_t dots = out.find("...");
    if (dots != std::string::npos && out.find("...", dots + 3) != std::string::npos)
      return invalidArgument("the output has more than one ellipsis");
    FS_ASSIGN_OR_RETURN(e.output, termLabels(out, width));
    return e;
  }
  std::map<int, int> count;  // implicit: the ellipsis, then the labels used once, alphabetically
  for (const auto& labels : e.inputs)
    for (int l : labels) ++count[l];
  for (int k = 0; k < width; ++k) e.output.push_back(kEllipsis - width + k);
  for (const auto& [label, n] : count)
    if (label < kEllipsis - width && n == 1) e.output.push_back(label);
  return e;
}

// The loop over every label: its sizes and, per operand (the output last), each label's stride.
struct LabelLoop {
  std::vector<int64_t> sizes;
  std::vector<std::vector<int64_t>> strides;
};

Expected<LabelLoop> labelLoop(const Equation& e, const std::vector<Tensor>& operands, Shape* outShape) {
  std::map<int, int64_t> size;
  for (size_t i = 0; i < operands.size(); ++i)
    for (size_t a = 0; a < e.inputs[i].size(); ++a) {
      const int l = e.inputs[i][a];
      const int64_t d = operands[i].shape().dim(static_cast<int>(a));
      auto [it, fresh] = size.emplace(l, d);
      if (!fresh && it->second != d && d != 1 && it->second != 1)
        return invalidArgument("label sizes differ: " + std::to_string(it->second) + " and " + std::to_string(d));
      if (it->second == 1) it->second = d;
    }
  std::vector<int> order = e.output;  // the output's labels first, then the summed ones
  for (const auto& [label, n] : size)
    if (std::find(order.begin(), order.end(), label) == order.end()) order.push_back(label);
  LabelLoop loop;
  std::vector<int64_t> outDims;
  for (int l : e.output) {
    if (!size.count(l)) return invalidArgument("an output label is in no input");
    if (std::count(e.output.begin(), e.output.end(), l) > 1) return invalidArgument("an output label repeats");
    outDims.push_back(size[l]);
  }
  *outShape = Shape(outDims);
  for (int l : order) loop.sizes.push_back(size[l]);
  auto stridesFor = [&](const std::vector<int>& labels, const Shape& shape) {
    const std::vector<int64_t> axisStrides = stridesOf(shape);
    std::vector<int64_t> strides(order.size(), 0);
    for (size_t a = 0; a < labels.size(); ++a)
      if (shape.dim(static_cast<int>(a)) != 1 || size[labels[a]] == 1)
        strides[static_cast<size_t>(std::find(order.begin(), order.end(), labels[a]) - order.begin())] +=
            axisStrides[a];
    return strides;
  };
  for (size_t i = 0; i < operands.size(); ++i) loop.strides.push_back(stridesFor(e.inputs[i], operands[i].shape()));
  loop.strides.push_back(stridesFor(e.output, *outShape));
  return loop;
}

// Sums the products into `out`; returns the arithmetic done (a multiply per further operand and an add per step).
template <typename T>
int64_t contract(const LabelLoop& loop, const std::vector<Tensor>& operands, Tensor& out) {
  std::vector<double> sums(static_cast<size_t>(out.numElements()), 0.0);
  const size_t n = operands.size(), labels = loop.sizes.size();
  int64_t total = 1;
  for (int64_t s : loop.sizes) total *= s;
  std::vector<int64_t> index(labels, 0), offset(n + 1, 0);
  for (int64_t step = 0; step < total; ++step) {
    double product = 1;
    for (size_t i = 0; i < n; ++i) product *= static_cast<double>(operands[i].data<T>()[offset[i]]);
    sums[static_cast<size_t>(offset[n])] += product;
    for (size_t l = labels; l-- > 0;) {  // odometer, the last label fastest
      for (size_t i = 0; i <= n; ++i) offset[i] += loop.strides[i][l];
      if (++index[l] < loop.sizes[l]) break;
      for (size_t i = 0; i <= n; ++i) offset[i] -= loop.strides[i][l] * loop.sizes[l];
      index[l] = 0;
    }
  }
  for (size_t i = 0; i < sums.size(); ++i) out.data<T>()[i] = static_cast<T>(sums[i]);
  return total * static_cast<int64_t>(n);
}

Status einsum(KernelContext& ctx) {
  if (ctx.inputs.empty()) return ctx.error("needs at least one input");
  const DType dtype = ctx.inputs[0].dtype();
  for (const Tensor& t : ctx.inputs)
    if (t.dtype() != dtype) return ctx.error("the inputs' dtypes differ");
  auto equation = parse(attrString(ctx.node, "equation", ""), ctx.inputs);
  if (!equation) return ctx.error(equation.status().message());
  Shape shape;
  auto loop = labelLoop(*equation, ctx.inputs, &shape);
  if (!loop) return ctx.error(loop.status().message());
  Tensor out(dtype, shape);
  const bool ok = dispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) ctx.flops = contract<T>(*loop, ctx.inputs, out);
  });
  if (!ok || dtype == DType::kBool) return ctx.error("cannot sum " + std::string(dtypeName(dtype)));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxEinsumKernel(KernelTable& r) { r.add("onnx::Einsum", withInputs(1, einsum)); }

}  // namespace flowscope
