// The gallery's functions.
#include "trace/gallery.h"

#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <tuple>

#include "trace/control_flow.h"

namespace flowscope::tf {
namespace {

Tensor matrix(std::vector<std::vector<float>> rows) {
  flowscope::Tensor t(DType::kFloat, Shape{static_cast<int64_t>(rows.size()), static_cast<int64_t>(rows[0].size())});
  size_t k = 0;
  for (const auto& r : rows)
    for (float v : r) t.data<float>()[k++] = v;
  return Tensor(t);
}

// Fixed pseudo-random weights (the same in every process), scaled like a Glorot init.
// Made once per (shape, seed, scale) and kept, like weights a model holds outside its function: an eager call
// then costs its ops, not regenerating its weights, so eager and graph timings compare execution.
Tensor weights(Shape shape, uint32_t seed, float scale) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, uint32_t, float>, flowscope::Tensor> made;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, fresh] = made.try_emplace({shape.toString(), seed, scale});
  if (fresh) {
    flowscope::Tensor t(DType::kFloat, shape);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-scale, scale);
    for (int64_t i = 0; i < t.numElements(); ++i) t.data<float>()[i] = u(rng);
    it->second = t;
  }
  return Tensor(it->second);
}

Tensor seededUniform(Shape shape, uint32_t seed, int lo, int hi) {
  flowscope::Tensor t(DType::kInt32, shape);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(lo, hi - 1);
  for (int64_t i = 0; i < t.numElements(); ++i) t.data<int32_t>()[i] = u(rng);
  return Tensor(t);
}

Tensor aRegularFunction(Tensor x, Tensor y, Tensor b) {
  x = matmul(x, y);
  x = x + b;
  return x;
}

Tensor innerFunction(Tensor x, Tensor y, Tensor b) { return matmul(x, y) + b; }

Tensor outerFunction(Tensor x) {
  Tensor y = matrix({{2.0f}, {3.0f}});
  Tensor b(4.0f);
  return innerFunction(x, y, b);
}

Tensor simpleRelu(Tensor x) {
  return cond(greater(x, 0), std::function<Tensor()>([x] { return x; }),
              std::function<Tensor()>([x] { return cast(Tensor(0), x.dtype()); }));
}

Tensor myRelu(Tensor x) { return maximum(Tensor(0.0f), x); }

Tensor getMse(Tensor yTrue, Tensor yPred) {
  std::printf("Calculating MSE!\n");
  std::fflush(stdout);
  Tensor sqDiff = pow(yTrue - yPred, 2);
  return reduceMean(sqDiff);
}

Tensor unusedReturn(Tensor x) {
  gather(x, Tensor(std::vector<int>{1}));  // unused: an error eagerly, pruned away in a graph
  return x;
}

Tensor power(Tensor x, int y) {
  Tensor result = eye(10, DType::kInt32);
  for (int i = 0; i < y; ++i) result = matmul(x, result);
  return result;
}

Tensor aFunctionWithPythonSideEffect(Tensor x) {
  std::printf("Tracing!\n");  // runs only while tracing
  std::fflush(stdout);
  return x * x + Tensor(2);
}

Tensor mlp(Tensor x) {
  Tensor h = relu(biasAdd(matmul(x, weights(Shape{64, 32}, 1, 0.25f)), weights(Shape{32}, 2, 0.1f)));
  return softmax(biasAdd(matmul(h, weights(Shape{32, 10}, 3, 0.35f)), weights(Shape{10}, 4, 0.1f)));
}

Tensor smallConvnet(Tensor image) {
  Tensor c = relu(
      biasAdd(conv2d(image, weights(Shape{3, 3, 1, 8}, 5, 0.4f), {1, 1, 1, 1}, "SAME"), weights(Shape{8}, 6, 0.1f)));
  Tensor p = maxPool(c, {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID");
  Tensor flat = reshape(p, {-1, 14 * 14 * 8});
  return softmax(biasAdd(matmul(flat, weights(Shape{14 * 14 * 8, 10}, 7, 0.03f)), weights(Shape{10}, 8, 0.1f)));
}

// Sum of 1..n with whileLoop: the loop runs eagerly or as a StatelessWhile.
Tensor sumTo(Tensor n) {
  auto out = whileLoop([n](const std::vector<Tensor>& v) { return less(v[0], n + Tensor(1)); },
                       [](const std::vector<Tensor>& v) {
                         return std::vector<Tensor>{v[0] + Tensor(1), v[1] + v[0]};
                       },
                       {Tensor(1), Tensor(0)});
  return out[1];
}

// Two-way branch on the sign of the sum.
Tensor signedSquare(Tensor x) {
  return cond(greater(reduceSum(x), Tensor(0.0f)), std::function<Tensor()>([x] { return square(x); }),
              std::function<Tensor()>([x] { return negative(square(x)); }));
}

template <typename F>
GalleryEntry entry(const char* name, const char* summary, std::vector<std::string> argNames, F f,
                   std::function<std::vector<Arg>()> exampleArgs) {
  FunctionOptions options;
  options.name = name;
  options.argNames = argNames;
  Function plain = function(f, options);
  auto eager = [plain](const std::vector<Arg>& args) mutable {
    auto out = plain.callEagerly(args);
    if (!out) throw Error(out.status().code(), out.status().message());
    return *out;
  };
  return GalleryEntry{
      name, summary, std::move(argNames), [f, options] { return function(f, options); }, std::move(exampleArgs), eager};
}

}  // namespace

const std::vector<GalleryEntry>& gallery() {
  static const std::vector<GalleryEntry> table = {
      entry("a_regular_function", "x = matmul(x, y); x = x + b", {"x", "y", "b"}, aRegularFunction,
            [] {
              return std::vector<Arg>{matrix({{1.0f, 2.0f}}), matrix({{2.0f}, {3.0f}}), Tensor(4.0f)};
            }),
      entry("outer_function", "calls inner_function(x, y, b): traced into the same graph", {"x"}, outerFunction,
            [] {
              return std::vector<Arg>{matrix({{1.0f, 2.0f}})};
            }),
      entry("simple_relu", "if greater(x, 0): x else 0, as a cond", {"x"}, simpleRelu,
            [] { return std::vector<Arg>{Tensor(1)}; }),
      entry("my_relu", "maximum(0., x)", {"x"}, myRelu, [] { return std::vector<Arg>{Tensor(5.5f)}; }),
      entry("get_MSE", "reduce_mean(pow(y_true - y_pred, 2)); prints 'Calculating MSE!' (a C++ side effect)",
            {"y_true", "y_pred"}, getMse,
            [] {
              return std::vector<Arg>{seededUniform(Shape{5}, 11, 0, 10), seededUniform(Shape{5}, 12, 0, 10)};
            }),
      entry("unused_return_eager", "gather(x, [1]) unused; return x (fails eagerly on a 1-element x)", {"x"},
            unusedReturn, [] { return std::vector<Arg>{Tensor(std::vector<float>{0.0f})}; }),
      entry("unused_return_graph", "the same as a graph: the unused gather is pruned", {"x"}, unusedReturn,
            [] { return std::vector<Arg>{Tensor(std::vector<float>{0.0f})}; }),
      entry("power", "y matmuls of a 10x10 int32 matrix (the guide's eager vs graph benchmark)", {"x", "y"}, power,
            [] {
              return std::vector<Arg>{seededUniform(Shape{10, 10}, 13, -1, 2), Arg(100)};
            }),
      entry("a_function_with_python_side_effect", "prints 'Tracing!' while tracing; returns x * x + 2", {"x"},
            aFunctionWithPythonSideEffect, [] { return std::vector<Arg>{Tensor(2)}; }),
      entry("mlp", "two dense layers (64 -> 32 -> 10), relu, softmax", {"x"}, mlp,
            [] {
              return std::vector<Arg>{weights(Shape{8, 64}, 21, 1.0f)};
            }),
      entry("small_convnet", "conv 3x3x8 + relu, max pool, dense 10, softmax on a 28x28 image", {"image"}, smallConvnet,
            [] {
              return std::vector<Arg>{weights(Shape{1, 28, 28, 1}, 22, 1.0f)};
            }),
      entry("sum_to", "1 + 2 + ... + n with whileLoop", {"n"}, sumTo, [] { return std::vector<Arg>{Tensor(10)}; }),
      entry("signed_square", "x*x or -x*x by the sign of sum(x), with cond", {"x"}, signedSquare,
            [] {
              return std::vector<Arg>{Tensor(std::vector<float>{1.0f, -3.0f})};
            }),
  };
  return table;
}

const GalleryEntry* findGalleryEntry(const std::string& name) {
  for (const auto& e : gallery())
    if (name == e.name) return &e;
  return nullptr;
}

}  // namespace flowscope::tf
