// Shared setup of `run` and `profile`.
#include "cli/run_options.h"

#include <cstdio>
#include <limits>

#include "base/strings.h"
#include "exec/model_runner.h"
#include "io/loader.h"

namespace flowscope::cli {

const std::set<std::string> kRunValueOptions = {"--signature", "--input",   "--fetch",     "--seed",
                                                "--device",    "--threads", "--precision", "--tag"};

namespace {

int fail(const char* command, const std::string& message, int code) {
  std::fprintf(stderr, "flowscope %s: %s\n", command, message.c_str());
  return code;
}

}  // namespace

Expected<RunSetup> setupFromArgs(const Args& args) {
  RunSetup setup;
  setup.device = args.value("--device").value_or("cpu");
  if (auto precision = args.value("--precision")) {
    FS_ASSIGN_OR_RETURN(setup.precision, parsePrecision(*precision));
  }
  int64_t threads = 0;  // every physical core
  if (auto t = args.value("--threads"); t && (!parseInt64(*t, &threads) || threads < 1 || threads > 256))
    return invalidArgument("--threads needs a number from 1 to 256");
  setup.threads = static_cast<int>(threads);
  setup.inputs.signature = args.value("--signature").value_or("");
  setup.inputs.fetches = args.values("--fetch");
  int64_t seed = 0;
  if (auto s = args.value("--seed"); s && !parseInt64(*s, &seed)) return invalidArgument("--seed needs a number");
  setup.inputs.seed = static_cast<uint64_t>(seed);
  for (const auto& input : args.values("--input")) {
    size_t eq = input.find('=');
    if (eq == std::string::npos || eq == 0) return invalidArgument("--input needs NAME=SPEC, got '" + input + "'");
    setup.inputs.inputs[input.substr(0, eq)] = input.substr(eq + 1);
  }
  setup.optimize = !args.flag("--no-optimize");
  return setup;
}

int prepareRunFromArgs(const Args& args, const char* command, PreparedRun* out) {
  auto setup = setupFromArgs(args);
  if (!setup) return fail(command, setup.status().message(), kExitUsage);
  std::vector<std::string> notes;
  auto backend = openBackendOrFallback(setup->device, &notes);
  if (!backend) return fail(command, "--device: " + backend.status().message(), kExitUsage);
  if (setup->precision != Precision::kFp32)
    notes.push_back("precision " + (*backend)->precisionSummary(setup->precision));
  for (const auto& note : notes) std::fprintf(stderr, "flowscope %s: %s\n", command, note.c_str());
  setup->backend = *backend;
  LoadOptions load;
  load.tag = args.value("--tag").value_or("");
  auto model = loadModel(args.positional()[0], load);
  if (!model) return fail(command, model.status().message(), kExitBadInput);
  auto prepared = prepareRun(std::make_shared<const Model>(std::move(model).value()), *setup);
  if (!prepared) return fail(command, prepared.status().message(), kExitBadInput);
  *out = std::move(prepared).value();
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
    line += "  min " + formatFloat(lo) + " mean " + formatFloat(sum / static_cast<double>(t.numElements())) + " max " +
            formatFloat(hi);
  }
  return line + "  " + t.preview(6);
}

std::string summarizeValue(ModelRunner& runner, const std::string& name, const Tensor& value) {
  const auto elements = runner.sequenceOf(value);
  if (!elements) return summarizeTensor(name, value);
  std::string text = name + ": ";
  if (ModelRunner::isOptional(value))
    text += elements->empty() ? "optional, no value" : "optional with a value";
  else
    text += "sequence of " + std::to_string(elements->size());
  for (size_t i = 0; i < elements->size(); ++i) {
    std::string element = summarizeValue(runner, "[" + std::to_string(i) + "]", (*elements)[i]);
    for (size_t at = 0; (at = element.find('\n', at)) != std::string::npos; at += 3) element.replace(at, 1, "\n  ");
    text += "\n  " + element;
  }
  return text;
}

}  // namespace flowscope::cli
