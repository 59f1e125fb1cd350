// Before/after comparison of optimized graphs.
#include "engine/semantics_checker.h"

#include <cmath>

#include "base/strings.h"
#include "exec/model_runner.h"

namespace flowscope {
namespace {

// Relative and absolute tolerance for floating types; rewrites such as batch-norm folding reassociate products.
std::pair<double, double> toleranceFor(DType dtype) {
  switch (dtype) {
    case DType::kHalf:
    case DType::kBFloat16:
      return {2e-2, 1e-2};
    case DType::kFloat:
      return {1e-3, 1e-4};
    case DType::kDouble:
      return {1e-9, 1e-12};
    default:
      return {0, 0};
  }
}

}  // namespace

Status compareTensors(const Tensor& a, const Tensor& b, const std::string& label) {
  if (a.dtype() != b.dtype() || !(a.shape() == b.shape()))
    return invalidArgument(label + ": " + std::string(dtypeName(a.dtype())) + " " + a.shape().toString() + " became " +
                           std::string(dtypeName(b.dtype())) + " " + b.shape().toString());
  if (a.isStringLike() || a.dtype() == DType::kComplex64 || a.dtype() == DType::kComplex128)
    return a.contentEquals(b) ? Status::ok() : invalidArgument(label + ": values differ");
  auto [rtol, atol] = toleranceFor(a.dtype());
  double scale = 0;
  for (int64_t i = 0; i < a.numElements(); ++i)
    if (std::isfinite(a.elementAsDouble(i))) scale = std::max(scale, std::fabs(a.elementAsDouble(i)));
  const double absolute = atol * std::max(1.0, scale);  // relative to the tensor's magnitude
  for (int64_t i = 0; i < a.numElements(); ++i) {
    double x = a.elementAsDouble(i), y = b.elementAsDouble(i);
    if (std::isnan(x) || std::isnan(y)) {
      if (std::isnan(x) != std::isnan(y))
        return invalidArgument(label + ": element " + std::to_string(i) + " NaN mismatch");
      continue;
    }
    if (x == y) continue;
    if (std::fabs(x - y) > absolute + rtol * std::max(std::fabs(x), std::fabs(y)))
      return invalidArgument(label + ": element " + std::to_string(i) + " was " + formatFloat(x) + ", now " +
                             formatFloat(y));
  }
  return Status::ok();
}

Expected<std::vector<Tensor>> runWithGraph(const Model& model, const Graph& graph, const RunRequest& request) {
  auto copy = std::make_shared<Model>(model);
  copy->graph = graph;
  ModelRunner session(copy);
  return session.run(request.feeds, request.fetches);
}

Status checkPipelineSemantics(const Model& model, const PipelineResult& pipeline, const RunRequest& request) {
  FS_ASSIGN_OR_RETURN(std::vector<Tensor> reference, runWithGraph(model, *pipeline.input, request));
  for (const auto& trace : pipeline.records) {
    if (!trace.changed || !trace.snapshot) continue;
    auto outputs = runWithGraph(model, *trace.snapshot, request);
    if (!outputs) return outputs.status().withContext("after " + trace.pass + ": ");
    for (size_t i = 0; i < reference.size(); ++i)
      FS_RETURN_IF_ERROR(
          compareTensors(reference[i], (*outputs)[i], "after " + trace.pass + ", " + request.fetches[i]));
  }
  return Status::ok();
}

}  // namespace flowscope
