// Shared setup of `run` and `profile`.
#include "cli/run_options.h"

#include "exec/vulkan/vulkan_device.h"

#include <cstdio>
#include <limits>

#include "base/strings.h"
#include "io/loader.h"
#include "passes/optimize_model.h"

namespace flowscope::cli {

const std::set<std::string> kRunValueOptions = {"--signature", "--input", "--fetch", "--seed", "--device", "--threads", "--tag"};

int prepareRun(const Args& args, const char* command, PreparedRun* out) {
  auto fail = [&](const std::string& message, int code) {
    std::fprintf(stderr, "flowscope %s: %s\n", command, message.c_str());
    return code;
  };
  const std::string device = args.value("--device").value_or("cpu");
  out->deviceName = "cpu";
  if (device != "cpu") {
    // vulkan or vulkan:INDEX. No Vulkan device: say so and run on the CPU.
    int64_t index = -1;
    if (device.rfind("vulkan", 0) != 0 || (device.size() > 6 && (device[6] != ':' || !parseInt64(device.substr(7), &index) || index < 0)))
      return fail("--device is cpu, vulkan or vulkan:INDEX (`flowscope devices` lists them), not '" + device + "'", kExitUsage);
    auto opened = vk::VulkanDevice::open(static_cast<int>(index));
    if (!opened) {
      if (opened.status().code() == ErrorCode::kNotFound) return fail(opened.status().message(), kExitUsage);
      std::fprintf(stderr, "flowscope %s: %s; running on the CPU\n", command, opened.status().message().c_str());
    } else {
      out->session.vulkan = *opened;
      out->deviceName = "vulkan:" + std::to_string((*opened)->info().index) + " (" + (*opened)->info().name + ")";
    }
  }
  int64_t threads = 1;
  if (auto t = args.value("--threads"); t && (!parseInt64(*t, &threads) || threads < 1 || threads > 256))
    return fail("--threads needs a number from 1 to 256", kExitUsage);
  out->session.intraOpThreads = out->session.interOpThreads = static_cast<int>(threads);
  RunSpecOptions spec;
  spec.signature = args.value("--signature").value_or("");
  spec.fetches = args.values("--fetch");
  int64_t seed = 0;
  if (auto s = args.value("--seed"); s && !parseInt64(*s, &seed)) return fail("--seed needs a number", kExitUsage);
  spec.seed = static_cast<uint64_t>(seed);
  out->session.seed = static_cast<uint64_t>(seed);
  for (const auto& input : args.values("--input")) {
    size_t eq = input.find('=');
    if (eq == std::string::npos || eq == 0) return fail("--input needs NAME=SPEC, got '" + input + "'", kExitUsage);
    spec.inputs[input.substr(0, eq)] = input.substr(eq + 1);
  }
  LoadOptions load;
  load.tag = args.value("--tag").value_or("");
  auto model = loadModel(args.positional()[0], load);
  if (!model) return fail(model.status().message(), kExitBadInput);
  out->model = std::make_shared<const Model>(std::move(model).value());
  auto request = makeRunRequest(*out->model, spec);
  if (!request) return fail(request.status().message(), kExitBadInput);
  out->request = std::move(request).value();
  if (!args.flag("--no-optimize")) {
    std::vector<std::string> feeds;
    for (const auto& [name, value] : out->request.feeds) feeds.push_back(name);
    auto optimized = optimizeModel(out->model, PipelineOptions{}, feeds, out->request.fetches);
    if (!optimized) return fail(optimized.status().message(), kExitBadInput);
    out->nodesBeforeOptimizing = out->model->graph.size();
    out->model = optimized->model;
    out->optimizeSeconds = optimized->pipeline.seconds;
  }
  return kExitOk;
}

std::string summarizeTensor(const std::string& name, const Tensor& t) {
  std::string line = name + ": " + std::string(dtypeName(t.dtype())) + " " + t.shape().toString();
  if (!t.isStringLike() && t.numElements() > 0 && t.dtype() != DType::kComplex64 && t.dtype() != DType::kComplex128) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
    for (int64_t i = 0; i < t.numElements(); ++i) {
      double v = t.elementAsDouble(i);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
    }
    line += "  min " + formatFloat(lo) + " mean " + formatFloat(sum / static_cast<double>(t.numElements())) + " max " + formatFloat(hi);
  }
  return line + "  " + t.preview(6);
}

}  // namespace flowscope::cli
