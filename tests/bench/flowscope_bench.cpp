// Flowscope's side of the benchmarks (tests/bench/run.sh runs the peers in the same run and prints ratios):
//   power      the tf.function guide's power(x, 100): 100 chained 10x10 int32 matmuls, 1000 calls,
//              eager (op by op) and graph (one plan), plus a plain C++ loop with sizes fixed at compile time
//   add        a 1-element float add, eager, per op
//   mlp        784-512-512-10 at batch 1 and 64 (graph with fused matmul+bias+relu)
//   convnet    three 3x3 convs 3->32->32->32 with bias+ReLU at 56x56, batch 1
// Prints one JSON object. Usage: flowscope_bench [--threads N] [--quick]; --cores prints the physical core count;
// --case NAME runs only that one.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/thread_pool.h"
#include "exec/backend.h"
#include "exec/eager.h"
#include "exec/executor.h"
#include "exec/plan.h"
#include "ops/op_registry.h"

using namespace flowscope;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

template <typename F>
double medianSeconds(int repeats, F&& body) {
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    auto start = Clock::now();
    body();
    times.push_back(seconds(start, Clock::now()));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

AttrValue typeAttr(DType t) { return AttrValue::fromType(t); }

Node makeNode(const std::string& name, const std::string& op, std::vector<std::string> inputs, AttrMap attrs) {
  Node n{name, op, "", {}, {}, std::move(attrs), {}};
  for (const auto& in : inputs) {
    TensorRef ref;
    parseTensorRef(in, false, &ref);
    n.inputs.push_back(ref);
  }
  return n;
}

Node constNode(const std::string& name, const Tensor& value) {
  return makeNode(name, "Const", {}, {{"dtype", typeAttr(value.dtype())}, {"value", AttrValue::fromTensor(value)}});
}

Node placeholder(const std::string& name, DType t) {
  return makeNode(name, "Placeholder", {}, {{"dtype", typeAttr(t)}});
}

Tensor randomFloats(Shape shape, uint32_t seed, float scale) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0, scale);
  Tensor t = Tensor::uninitialized(DType::kFloat, std::move(shape));
  for (int64_t i = 0; i < t.numElements(); ++i) t.data<float>()[i] = dist(gen);
  return t;
}

Tensor powerInput() {  // 10x10 int32 uniform in [-1, 2), as the guide's tf.random.uniform
  std::mt19937 gen(7);
  Tensor x = Tensor::uninitialized(DType::kInt32, Shape{10, 10});
  for (int i = 0; i < 100; ++i) x.data<int32_t>()[i] = static_cast<int32_t>(gen() % 3) - 1;
  return x;
}

Tensor identity10() {
  Tensor t(DType::kInt32, Shape{10, 10});
  for (int i = 0; i < 10; ++i) t.data<int32_t>()[i * 11] = 1;
  return t;
}

struct CompiledGraph {
  Graph graph;
  std::unique_ptr<Plan> plan;
  ExecContext ctx;
  ResourceManager resources;
  std::vector<Tensor> run(const std::vector<Tensor>& feeds) {
    std::vector<Tensor> out;
    Status s = executePlan(*plan, feeds, &out, ctx);
    if (!s.isOk()) {
      std::fprintf(stderr, "bench: %s\n", s.message().c_str());
      std::exit(1);
    }
    return out;
  }
};

std::unique_ptr<CompiledGraph> compile(Graph graph, std::vector<std::string> feeds, std::vector<std::string> fetches) {
  auto c = std::make_unique<CompiledGraph>();
  fillDefaultAttrs(graph);
  c->graph = std::move(graph);
  auto plan = Plan::build(c->graph, feeds, fetches, {}, OpRegistry::global().lookupWith(&c->graph.library),
                          kernelsFrom(*fallbackBackend(), c->graph.library));
  if (!plan) {
    std::fprintf(stderr, "bench: %s\n", plan.status().message().c_str());
    std::exit(1);
  }
  c->plan = std::move(plan).value();
  c->ctx.resources = &c->resources;
  return c;
}

// The floor: the same arithmetic with sizes known at compile time, no allocation; one call per power(), as the graph
// is one run per call. Never inlined (inlined into the timing loop, the compiler can hoist work out of calls whose
// input never changes) and aligned, so its speed does not move with the code around it; x is copied to the stack
// so it does not depend on where the caller's x lies either.
__attribute__((noinline, aligned(64))) void powerFloor(const int32_t* xIn, int32_t* out) {
  alignas(64) int32_t acc[100], tmp[100], x[100];
  std::memcpy(x, xIn, sizeof x);
  for (int i = 0; i < 100; ++i) acc[i] = (i % 11 == 0);
  for (int step = 0; step < 100; ++step) {
    std::memset(tmp, 0, sizeof tmp);
    for (int i = 0; i < 10; ++i)
      for (int k = 0; k < 10; ++k) {
        const int32_t a = acc[i * 10 + k];
        for (int j = 0; j < 10; ++j) tmp[i * 10 + j] += a * x[k * 10 + j];
      }
    std::memcpy(acc, tmp, sizeof acc);
  }
  std::memcpy(out, acc, sizeof acc);
}

nlohmann::json benchPower(int calls) {
  Tensor x = powerInput();
  EagerOp matmul("MatMul");
  Tensor eye = identity10();
  auto eagerPower = [&] {
    Tensor result = eye;
    for (int i = 0; i < 100; ++i) result = *matmul({result, x});
    return result;
  };
  Graph g;
  g.addNode(placeholder("x", DType::kInt32));
  g.addNode(constNode("eye", eye));
  std::string prev = "eye";
  for (int i = 0; i < 100; ++i) {
    std::string name = "matmul_" + std::to_string(i);
    g.addNode(makeNode(name, "MatMul", {prev, "x"}, {{"T", typeAttr(DType::kInt32)}}));
    prev = name;
  }
  auto graph = compile(std::move(g), {"x"}, {prev});
  // Same answer three ways before timing.
  Tensor e = eagerPower();
  Tensor gr = graph->run({x})[0];
  int32_t floorOut[100];
  powerFloor(x.data<int32_t>(), floorOut);
  if (std::memcmp(e.data<int32_t>(), gr.data<int32_t>(), 400) || std::memcmp(floorOut, gr.data<int32_t>(), 400)) {
    std::fprintf(stderr, "bench: power results differ between eager, graph and the C++ loop\n");
    std::exit(1);
  }
  double eager = medianSeconds(5, [&] {
    for (int c = 0; c < calls; ++c) eagerPower();
  });
  double graphT = medianSeconds(5, [&] {
    for (int c = 0; c < calls; ++c) graph->run({x});
  });
  volatile int32_t sink = 0;
  double floorT = medianSeconds(5, [&] {
    for (int c = 0; c < calls; ++c) {
      powerFloor(x.data<int32_t>(), floorOut);
      sink = sink + floorOut[c % 100];
    }
  });
  return {{"calls", calls}, {"eager_s", eager}, {"graph_s", graphT}, {"cpp_loop_s", floorT}};
}

nlohmann::json benchAdd(int ops) {
  EagerOp add("AddV2");
  Tensor a = Tensor::scalar<float>(DType::kFloat, 1.0f), b = Tensor::scalar<float>(DType::kFloat, 2.0f);
  double s = medianSeconds(5, [&] {
    for (int i = 0; i < ops; ++i) a = *add({a, b});
  });
  return {{"ops", ops}, {"ns_per_op", s / ops * 1e9}, {"check", a.data<float>()[0]}};
}

nlohmann::json benchMlp(int batch, int runs) {
  Graph g;
  g.addNode(placeholder("x", DType::kFloat));
  std::string prev = "x";
  const int sizes[] = {784, 512, 512, 10};
  for (int l = 0; l < 3; ++l) {
    std::string s = "dense" + std::to_string(l);
    g.addNode(constNode(s + "/w", randomFloats(Shape{sizes[l], sizes[l + 1]}, 10 + static_cast<uint32_t>(l), 0.05f)));
    g.addNode(constNode(s + "/b", randomFloats(Shape{sizes[l + 1]}, 20 + static_cast<uint32_t>(l), 0.1f)));
    AttrList ops;
    ops.s = l < 2 ? std::vector<std::string>{"BiasAdd", "Relu"} : std::vector<std::string>{"BiasAdd"};
    g.addNode(makeNode(s + "/fused", "_FusedMatMul", {prev, s + "/w", s + "/b"},
                       {{"T", typeAttr(DType::kFloat)},
                        {"num_args", AttrValue::fromInt(1)},
                        {"fused_ops", AttrValue::fromList(ops)}}));
    prev = s + "/fused";
  }
  auto graph = compile(std::move(g), {"x"}, {prev});
  Tensor x = randomFloats(Shape{batch, 784}, 1, 1.0f);
  graph->run({x});
  double s = medianSeconds(7, [&] {
    for (int r = 0; r < runs; ++r) graph->run({x});
  });
  return {{"batch", batch}, {"runs", runs}, {"us_per_run", s / runs * 1e6}};
}

nlohmann::json benchConvNet(int runs) {
  Graph g;
  g.addNode(placeholder("x", DType::kFloat));
  std::string prev = "x";
  int channels = 3;
  for (int l = 0; l < 3; ++l) {
    std::string s = "conv" + std::to_string(l);
    g.addNode(constNode(s + "/w", randomFloats(Shape{3, 3, channels, 32}, 30 + static_cast<uint32_t>(l), 0.1f)));
    g.addNode(constNode(s + "/b", randomFloats(Shape{32}, 40 + static_cast<uint32_t>(l), 0.1f)));
    AttrList ops, strides;
    ops.s = {"BiasAdd", "Relu"};
    strides.i = {1, 1, 1, 1};
    g.addNode(makeNode(s + "/fused", "_FusedConv2D", {prev, s + "/w", s + "/b"},
                       {{"T", typeAttr(DType::kFloat)},
                        {"num_args", AttrValue::fromInt(1)},
                        {"fused_ops", AttrValue::fromList(ops)},
                        {"strides", AttrValue::fromList(strides)},
                        {"padding", AttrValue::fromString("SAME")}}));
    prev = s + "/fused";
    channels = 32;
  }
  auto graph = compile(std::move(g), {"x"}, {prev});
  Tensor x = randomFloats(Shape{1, 56, 56, 3}, 2, 1.0f);
  graph->run({x});
  double s = medianSeconds(7, [&] {
    for (int r = 0; r < runs; ++r) graph->run({x});
  });
  return {{"runs", runs}, {"us_per_run", s / runs * 1e6}};
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 1;
  bool quick = false;
  std::string only;  // --case NAME: just that one (for profiling it)
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--case") && i + 1 < argc)
      only = argv[++i];
    else if (!std::strcmp(argv[i], "--cores"))
      return std::printf("%d\n", physicalCores()) < 0;  // for the scripts: the default thread count
  }
  setIntraOpThreads(threads);
  nlohmann::json out;
  out["threads"] = threads;
  auto wanted = [&](const char* name) { return only.empty() || only == name; };
  if (wanted("power")) out["power"] = benchPower(quick ? 100 : 1000);
  if (wanted("add")) out["add"] = benchAdd(quick ? 100000 : 1000000);
  if (wanted("mlp_b1")) out["mlp_b1"] = benchMlp(1, quick ? 50 : 500);
  if (wanted("mlp_b64")) out["mlp_b64"] = benchMlp(64, quick ? 10 : 100);
  if (wanted("convnet")) out["convnet"] = benchConvNet(quick ? 10 : 100);
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
