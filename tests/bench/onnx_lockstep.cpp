// Flowscope's side of the paired benchmark (onnx_paired.py): prepares MODEL as `flowscope profile` does (optimized,
// on the CPU, THREADS intra- and inter-op threads), warms it up, prints "ready", then for each number N it reads on
// stdin runs it N times back to back and prints the N runs' microseconds on one line. Its bursts of runs and ONNX
// Runtime's (ort_lockstep.mjs) then alternate, so that each pair of bursts meets the same load on a shared machine.
// Usage: onnx_lockstep MODEL THREADS [--input NAME=SPEC]...   (exits at the end of stdin)
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "exec/model_runner.h"
#include "io/loader.h"
#include "workflow/prepared_run.h"

using namespace flowscope;

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "onnx_lockstep: %s\n", message.c_str());
  return 1;
}

Expected<RunSetup> setupFrom(int argc, char** argv) {
  RunSetup setup;
  setup.threads = std::stoi(argv[2]);
  for (int i = 3; i < argc; ++i) {
    const std::string spec = i + 1 < argc && std::string(argv[i]) == "--input" ? argv[++i] : "";
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) return invalidArgument("expected --input NAME=SPEC");
    setup.inputs.inputs[spec.substr(0, eq)] = spec.substr(eq + 1);
  }
  return setup;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return fail("usage: onnx_lockstep MODEL THREADS [--input NAME=SPEC]...");
  auto setup = setupFrom(argc, argv);
  if (!setup) return fail(setup.status().message());
  auto model = loadModel(argv[1]);
  if (!model) return fail(model.status().message());
  auto prepared = prepareRun(std::make_shared<const Model>(std::move(model).value()), *setup);
  if (!prepared) return fail(prepared.status().message());
  const RunRequest& request = prepared->request;
  const auto runOnce = [&]() -> Expected<double> {
    const auto start = std::chrono::steady_clock::now();
    auto out = prepared->runner->run(request.feeds, request.fetches);
    if (!out) return out.status();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  };
  for (int i = 0; i < 3; ++i)  // warm-up: plans, kernels, caches
    if (auto t = runOnce(); !t) return fail(t.status().message());
  std::printf("ready\n");
  std::fflush(stdout);
  for (int runs = 0; std::cin >> runs;) {
    for (int i = 0; i < runs; ++i) {
      auto micros = runOnce();
      if (!micros) return fail(micros.status().message());
      std::printf(i ? " %.1f" : "%.1f", *micros);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
