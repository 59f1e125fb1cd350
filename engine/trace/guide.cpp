// `flowscope guide`: the cells of TensorFlow's guide "Introduction to graphs and tf.function", in order, printing
// what each prints there. Python's print(x) of a tensor shows its repr; timing cells show seconds for N calls.
#include <chrono>
#include <cstdio>

#include "io/graph_writer.h"
#include "trace/gallery.h"

namespace flowscope::tf {
namespace {

void say(const std::string& text) {
  std::printf("%s\n", text.c_str());
  std::fflush(stdout);
}

void cell(const char* title) { say(std::string("\n>>> ") + title); }

const GalleryEntry& get(const char* name) { return *findGalleryEntry(name); }

std::vector<Arg> args(const char* name) { return get(name).exampleArgs(); }

template <typename T>
T must(Expected<T> value) {
  if (!value) throw Error(value.status().code(), value.status().message());
  return std::move(value).value();
}

template <typename Fn>
double seconds(int calls, Fn fn) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Status replayGuide(int powerCalls) {
  try {
    cell("Taking advantage of graphs: a_function_that_uses_a_graph = tf.function(a_regular_function)");
    Function aFunctionThatUsesAGraph = get("a_regular_function").make();
    auto x1y1b1 = args("a_regular_function");
    Tensor orig = get("a_regular_function").eager(x1y1b1)[0];
    Tensor traced = must(aFunctionThatUsesAGraph.call(x1y1b1))[0];
    say("orig_value: " + orig.numpy());
    say("tf_function_value: " + traced.numpy());
    say(std::string("assert(orig_value == tf_function_value): ") +
        (orig.numpy() == traced.numpy() ? "passed" : "FAILED"));

    cell("outer_function(tf.constant([[1.0, 2.0]])).numpy()");
    Function outer = get("outer_function").make();
    say(outer(args("outer_function")[0].tensor).numpy());

    cell("tf_simple_relu = tf.function(simple_relu)");
    Function tfSimpleRelu = get("simple_relu").make();
    say("First branch, with graph: " + tfSimpleRelu(Tensor(1)).numpy());
    say("Second branch, with graph: " + tfSimpleRelu(Tensor(-1)).numpy());

    cell("The graph itself: tf_simple_relu.get_concrete_function(tf.constant(1)).graph.as_graph_def()");
    auto simpleReluGraph = must(tfSimpleRelu.getConcreteFunction({Arg(Tensor(1))}));
    std::printf("%s", must(serializeGraph(simpleReluGraph->graph(), GraphFormat::kText)).c_str());

    cell("Polymorphism: one Function, several graphs (my_relu)");
    Function myRelu = get("my_relu").make();
    say(myRelu(Tensor(5.5f)).toString());
    say(myRelu(std::vector<int>{1, -1}).toString());
    say(myRelu(Tensor(std::vector<float>{3.0f, -3.0f})).toString());
    say("# These two calls do *not* create new graphs.");
    say(myRelu(Tensor(-2.5f)).toString());
    say(myRelu(Tensor(std::vector<float>{-1.0f, 1.0f})).toString());
    say("# Concrete functions: " + std::to_string(myRelu.concreteFunctions().size()));
    say(myRelu.prettyPrintedConcreteSignatures());

    cell(
        "Using tf.function: get_MSE, in graph mode (prints once) and with run_functions_eagerly(True) (prints each "
        "call)");
    Function getMse = get("get_MSE").make();
    auto yy = args("get_MSE");
    say(yy[0].tensor.toString());
    say(yy[1].tensor.toString());
    say(getMse(yy[0], yy[1]).toString());
    for (int i = 0; i < 3; ++i) getMse(yy[0], yy[1]);
    config::runFunctionsEagerly(true);
    say("# tf.config.run_functions_eagerly(True)");
    for (int i = 0; i < 3; ++i) getMse(yy[0], yy[1]);
    config::runFunctionsEagerly(false);
    say("# tf.config.run_functions_eagerly(False)");

    cell("Non-strict execution: an unused tf.gather fails eagerly and not in a graph");
    auto x = args("unused_return_eager");
    try {
      get("unused_return_eager").eager(x);
      say("(no error)");
    } catch (const Error& e) {
      say(e.typeName() + ": " + e.what());
    }
    Function unusedReturnGraph = get("unused_return_graph").make();
    say(unusedReturnGraph(x[0]).toString());

    cell("Seeing the speed-up: power(x, 100), eager vs graph");
    const GalleryEntry& powerEntry = get("power");
    auto powerArgs = args("power");
    Function powerAsGraph = powerEntry.make();
    must(powerAsGraph.call(powerArgs));  // trace once, outside the timing, as timeit's warm-up would
    double eager = seconds(powerCalls, [&] { powerEntry.eager(powerArgs); });
    double graph = seconds(powerCalls, [&] { must(powerAsGraph.call(powerArgs)); });
    char line[160];
    std::snprintf(line, sizeof line, "Eager execution: %.6f seconds", eager);
    say(line);
    std::snprintf(line, sizeof line, "Graph execution: %.6f seconds", graph);
    say(line);
    std::snprintf(line, sizeof line, "Graph is %.2fx the speed of eager over %d calls", eager / graph, powerCalls);
    say(line);

    cell("When is a Function tracing? a_function_with_python_side_effect");
    Function sideEffect = get("a_function_with_python_side_effect").make();
    say(sideEffect(Tensor(2)).toString());
    say(sideEffect(Tensor(3)).toString());
    say(sideEffect(2).toString());  // a new Python value: a new trace
    say(sideEffect(3).toString());
    say("# tracing count: " + std::to_string(sideEffect.tracingCount()));
  } catch (const Error& e) {
    return Status(e.code(), e.what());
  }
  return Status::ok();
}

}  // namespace flowscope::tf
