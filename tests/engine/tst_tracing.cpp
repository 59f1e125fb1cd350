// Tracing C++ functions into graphs with tf.function's semantics: the guide's outputs, polymorphism and
// dispatch, trace-time side effects, input_signature, reduce_retracing, control flow eagerly / traced / exported.
#include <QtTest>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "exec/model_runner.h"
#include "io/graph_writer.h"
#include "io/loader.h"
#include "ir/function_instantiation.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"
#include "trace/control_flow.h"
#include "trace/gallery.h"

using namespace flowscope;
using tf::Arg;

namespace {

std::string run1(tf::Function& f, const std::vector<Arg>& args) {
  auto out = f.call(args);
  if (!out) qFatal("%s", out.status().message().c_str());
  return (*out)[0].toString();
}

// Everything written to stdout (C stdio) while `fn` runs.
template <typename Fn>
std::string captureStdout(Fn fn) {
  std::fflush(stdout);
  char path[] = "/tmp/flowscope_stdout_XXXXXX";
  int file = mkstemp(path);
  int saved = dup(1);
  dup2(file, 1);
  fn();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(file);
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::remove(path);
  return s.str();
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const tf::GalleryEntry& entry(const char* name) { return *tf::findGalleryEntry(name); }

}  // namespace

class TestTracing : public QObject {
  Q_OBJECT

 private slots:
  void guideValues() {
    auto f = entry("a_regular_function").make();
    auto args = entry("a_regular_function").exampleArgs();
    QCOMPARE(QString::fromStdString((*f.call(args))[0].numpy()), QString("[[12.]]"));
    QCOMPARE(QString::fromStdString(entry("a_regular_function").eager(args)[0].numpy()), QString("[[12.]]"));
    auto outer = entry("outer_function").make();
    QCOMPARE(QString::fromStdString(run1(outer, entry("outer_function").exampleArgs())),
             QString("tf.Tensor(\n[[12.]], shape=(1, 1), dtype=float32)"));
    auto concrete = outer.getConcreteFunction(entry("outer_function").exampleArgs());
    QVERIFY(concrete.hasValue());
    auto ops = (*concrete)->graph().opHistogram();
    QCOMPARE(ops["MatMul"], size_t(1));  // inner_function traced into the same graph, no call op
    QCOMPARE(ops.count("PartitionedCall"), size_t(0));
    auto relu = entry("simple_relu").make();
    QCOMPARE(QString::fromStdString(relu(tf::Tensor(1)).numpy()), QString("1"));
    QCOMPARE(QString::fromStdString(relu(tf::Tensor(-1)).numpy()), QString("0"));
  }

  void polymorphismAndSignatures() {
    auto myRelu = entry("my_relu").make();
    QCOMPARE(QString::fromStdString(myRelu(tf::Tensor(5.5f)).toString()),
             QString("tf.Tensor(5.5, shape=(), dtype=float32)"));
    QCOMPARE(QString::fromStdString(myRelu(std::vector<int>{1, -1}).toString()),
             QString("tf.Tensor([1. 0.], shape=(2,), dtype=float32)"));
    QCOMPARE(QString::fromStdString(myRelu(tf::Tensor(std::vector<float>{3, -3})).toString()),
             QString("tf.Tensor([3. 0.], shape=(2,), dtype=float32)"));
    QCOMPARE(myRelu.concreteFunctions().size(), size_t(3));
    QCOMPARE(QString::fromStdString(myRelu(tf::Tensor(-2.5f)).toString()),
             QString("tf.Tensor(0.0, shape=(), dtype=float32)"));
    QCOMPARE(QString::fromStdString(myRelu(tf::Tensor(std::vector<float>{-1, 1})).toString()),
             QString("tf.Tensor([0. 1.], shape=(2,), dtype=float32)"));
    QCOMPARE(myRelu.concreteFunctions().size(), size_t(3));  // matching signatures: no new graph
    QCOMPARE(myRelu.tracingCount(), 3);
    const std::string expected =
        "my_relu(x)\n  Args:\n    x: float32 Tensor, shape=()\n  Returns:\n    float32 Tensor, shape=()\n\n"
        "my_relu(x=[1, -1])\n  Returns:\n    float32 Tensor, shape=(2,)\n\n"
        "my_relu(x)\n  Args:\n    x: float32 Tensor, shape=(2,)\n  Returns:\n    float32 Tensor, shape=(2,)\n";
    QCOMPARE(QString::fromStdString(myRelu.prettyPrintedConcreteSignatures()), QString::fromStdString(expected));
    for (const auto& c : myRelu.concreteFunctions()) {
      QVERIFY2(c->name().rfind("__inference_my_relu_", 0) == 0, c->name().c_str());
      QVERIFY(c->graph().library.find(c->name()));  // the inference function itself is in the library
      QVERIFY(c->graph().findNode("Identity"));     // outputs go through Identity
    }
  }

  void retracingRules() {
    auto f = entry("a_function_with_python_side_effect").make();
    std::string out = captureStdout([&] {
      QCOMPARE(QString::fromStdString(f(tf::Tensor(2)).toString()), QString("tf.Tensor(6, shape=(), dtype=int32)"));
      QCOMPARE(QString::fromStdString(f(tf::Tensor(3)).toString()), QString("tf.Tensor(11, shape=(), dtype=int32)"));
    });
    QCOMPARE(count(out, "Tracing!"), 1);  // a new tensor value does not retrace
    out = captureStdout([&] {
      f(2);
      f(3);
      f(3);
    });
    QCOMPARE(count(out, "Tracing!"), 2);  // each new Python value does, once
    QCOMPARE(f.tracingCount(), 3);
  }

  void sideEffectsRunOnlyWhileTracing() {
    int traced = 0;
    tf::FunctionOptions options;
    options.name = "counted";
    auto f = tf::function(
        [&traced](tf::Tensor x) {
          ++traced;                  // a C++ side effect: runs while tracing only
          tf::print({"value:", x});  // a graph op: runs on every call
          return x + tf::Tensor(1);
        },
        options);
    std::string out = captureStdout([&] {
      for (int i = 0; i < 3; ++i) f(tf::Tensor(i));
    });
    QCOMPARE(traced, 1);
    QCOMPARE(count(out, "value:"), 3);
    QVERIFY2(out.find("value: 2") != std::string::npos, out.c_str());
    auto concrete = f.concreteFunctions().front();
    QCOMPARE(concrete->graph().opHistogram()["PrintV2"], size_t(1));
    const FunctionDef* inference = concrete->graph().library.find(concrete->name());
    QVERIFY(inference && !inference->controlRet.empty());  // the print is a control output: never pruned
    config::runFunctionsEagerly(true);
    out = captureStdout([&] {
      for (int i = 0; i < 3; ++i) f(tf::Tensor(i));
    });
    config::runFunctionsEagerly(false);
    QCOMPARE(traced, 4);  // eagerly the callable runs on every call
    QCOMPARE(count(out, "value:"), 3);
  }

  void getMsePrintsOnceTracedThreeTimesEager() {
    auto f = entry("get_MSE").make();
    auto args = entry("get_MSE").exampleArgs();
    std::string graph = captureStdout([&] {
      for (int i = 0; i < 3; ++i) QVERIFY(f.call(args).hasValue());
    });
    QCOMPARE(count(graph, "Calculating MSE!"), 1);
    config::runFunctionsEagerly(true);
    std::string eager = captureStdout([&] {
      for (int i = 0; i < 3; ++i) QVERIFY(f.call(args).hasValue());
    });
    config::runFunctionsEagerly(false);
    QCOMPARE(count(eager, "Calculating MSE!"), 3);
  }

  void unusedGatherIsNonStrict() {
    std::vector<Arg> x{tf::Tensor(std::vector<float>{0.0f})};
    try {
      entry("unused_return_eager").eager(x);
      QFAIL("the eager gather should have raised");
    } catch (const tf::Error& e) {
      QCOMPARE(QString::fromStdString(e.typeName()), QString("InvalidArgumentError"));
      QCOMPARE(QString(e.what()), QString("indices[0] = 1 is not in [0, 1) [Op:GatherV2]"));
    }
    auto graph = entry("unused_return_graph").make();
    auto out = graph.call(x);
    QVERIFY2(out.hasValue(), out.status().message().c_str());
    QCOMPARE(QString::fromStdString((*out)[0].toString()), QString("tf.Tensor([0.], shape=(1,), dtype=float32)"));
  }

  void inputSignature() {
    tf::FunctionOptions options;
    options.name = "sig";
    options.inputSignature = std::vector<tf::TensorSpec>{{DType::kFloat, Shape{-1}, "x"}};
    auto f = tf::function([](tf::Tensor x) { return x * x; }, options);
    QVERIFY(f.call({tf::Tensor(std::vector<float>{1, 2})}).hasValue());
    QVERIFY(f.call({tf::Tensor(std::vector<float>{1, 2, 3})}).hasValue());
    QCOMPARE(f.concreteFunctions().size(), size_t(1));
    auto wrongType = f.call({tf::Tensor(std::vector<int>{1, 2})});
    QVERIFY(!wrongType.hasValue());
    QVERIFY2(wrongType.status().message().find("incompatible with input_signature") != std::string::npos,
             wrongType.status().message().c_str());
    QVERIFY(!f.call({tf::Tensor(2.0f)}).hasValue());  // rank 0 does not fit (None,)
    QVERIFY(!f.call({tf::Tensor(1.0f), tf::Tensor(2.0f)}).hasValue());
    QCOMPARE(f.concreteFunctions().size(), size_t(1));
  }

  void reduceRetracing() {
    tf::FunctionOptions options;
    options.name = "relaxed";
    options.reduceRetracing = true;
    auto f = tf::function([](tf::Tensor x) { return x + x; }, options);
    f(tf::Tensor(std::vector<float>{1, 2}));
    f(tf::Tensor(std::vector<float>{1, 2, 3}));  // differs in a dim: traced once more with shape (None,)
    QCOMPARE(f.tracingCount(), 2);
    QCOMPARE(f.concreteFunctions().back()->type()[0].spec.shape, Shape{-1});
    f(tf::Tensor(std::vector<float>{1, 2, 3, 4}));  // the (None,) trace accepts it
    QCOMPARE(f.tracingCount(), 2);
    f(tf::Tensor(std::vector<int>{1, 2}));  // another dtype has no common supertype: a new trace
    QCOMPARE(f.tracingCount(), 3);
    // Without reduce_retracing every new shape traces.
    auto plain = tf::function([](tf::Tensor x) { return x + x; });
    plain(tf::Tensor(std::vector<float>{1, 2}));
    plain(tf::Tensor(std::vector<float>{1, 2, 3}));
    plain(tf::Tensor(std::vector<float>{1, 2, 3, 4}));
    QCOMPARE(plain.tracingCount(), 3);
  }

  void jitCompileMarksTheFunction() {
    tf::FunctionOptions options;
    options.name = "jitted";
    options.jitCompile = true;
    auto f = tf::function([](tf::Tensor x) { return tf::relu(x); }, options);
    auto c = f.getConcreteFunction({tf::Tensor(1.0f)});
    QVERIFY(c.hasValue());
    const FunctionDef* def = (*c)->graph().library.find((*c)->name());
    QVERIFY(def && def->attrs.count("_XlaMustCompile") && def->attrs.at("_XlaMustCompile").b());
  }

  void controlFlowEagerTracedExported_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("op");
    QTest::newRow("whileLoop") << "sum_to"
                               << "StatelessWhile";
    QTest::newRow("cond true") << "signed_square"
                               << "StatelessIf";
    QTest::newRow("cond int") << "simple_relu"
                              << "StatelessIf";
  }
  void controlFlowEagerTracedExported() {
    QFETCH(QString, name);
    QFETCH(QString, op);
    const auto& e = entry(name.toUtf8().constData());
    std::vector<std::vector<Arg>> inputs = {e.exampleArgs()};
    if (name == "signed_square") inputs.push_back({tf::Tensor(std::vector<float>{-2, 1})});
    if (name == "simple_relu") inputs.push_back({tf::Tensor(-4)});
    if (name == "sum_to") inputs.push_back({tf::Tensor(0)});
    for (const auto& args : inputs) {
      const std::string eager = e.eager(args)[0].numpy();
      auto f = e.make();
      auto traced = f.call(args);
      QVERIFY2(traced.hasValue(), traced.status().message().c_str());
      QCOMPARE(QString::fromStdString((*traced)[0].numpy()), QString::fromStdString(eager));
      auto concrete = f.concreteFunctions().front();
      QCOMPARE(concrete->graph().opHistogram()[op.toStdString()], size_t(1));
      bool named = false;
      for (const auto& fn : concrete->graph().library.functions())
        named |= fn.name().rfind(op.contains("While") ? "while_body_" : "cond_true_", 0) == 0;
      QVERIFY(named);
      // Export, load back through the foundation's loader, run: the same answer.
      QTemporaryDir dir;
      const std::string path = dir.filePath("traced.pbtxt").toStdString();
      QVERIFY(writeGraph(concrete->graph(), path).isOk());
      auto model = loadModel(path);
      QVERIFY2(model.hasValue(), model.status().message().c_str());
      QVERIFY2(model->problems.empty(), model->problems.empty() ? "" : model->problems[0].c_str());
      ModelRunner session(std::make_shared<const Model>(std::move(model).value()));
      auto fed = session.run({{e.argNames[0] + ":0", args[0].toTensor().value()}}, {"Identity:0"});
      QVERIFY2(fed.hasValue(), fed.status().message().c_str());
      QCOMPARE(QString::fromStdString(tf::formatNumpy((*fed)[0])), QString::fromStdString(eager));
    }
  }

  void condBranchesMustAgree() {
    auto f = tf::function([](tf::Tensor x) {
      return tf::cond(tf::greater(x, tf::Tensor(0.0f)), std::function<tf::Tensor()>([x] { return x; }),
                      std::function<tf::Tensor()>([] { return tf::Tensor(0); }));
    });
    auto out = f.call({tf::Tensor(1.0f)});
    QVERIFY(!out.hasValue());
    QVERIFY2(out.status().message().find("false branch") != std::string::npos, out.status().message().c_str());
  }

  void galleryModelsTraceAndMatchEager() {
    for (const char* name : {"mlp", "small_convnet", "power"}) {
      const auto& e = entry(name);
      auto args = e.exampleArgs();
      auto f = e.make();
      auto traced = f.call(args);
      QVERIFY2(traced.hasValue(), traced.status().message().c_str());
      const flowscope::Tensor& g = (*traced)[0].value();
      const flowscope::Tensor eager = e.eager(args)[0].value();
      QCOMPARE(g.shape(), eager.shape());
      for (int64_t i = 0; i < g.numElements(); ++i)
        QVERIFY(std::fabs(g.elementAsDouble(i) - eager.elementAsDouble(i)) <= 1e-5);
    }
  }

  // A traced function records its arguments' shapes (arg attr _output_shapes, as TensorFlow does), so a body
  // opened for viewing shows them on its _Arg nodes.
  void functionBodiesKnowTheirArgumentShapes() {
    const auto& e = entry("sum_to");
    auto f = e.make();
    auto concrete = f.getConcreteFunction(e.exampleArgs());
    QVERIFY2(concrete.hasValue(), concrete.status().message().c_str());
    const Graph& g = (*concrete)->graph();
    const FunctionDef* body = nullptr;
    for (const auto& fn : g.library.functions())
      if (fn.name().rfind("while_body_", 0) == 0) body = &fn;
    QVERIFY(body);
    auto shown = functionBodyGraph(*body, g.library, OpRegistry::global().lookupWith(&g.library));
    QVERIFY2(shown.hasValue(), shown.status().message().c_str());
    const GraphShapes shapes = inferShapes(*shown);
    const auto arg = static_cast<size_t>(shown->find(body->signature.inputs[0].name));
    QCOMPARE(shown->node(arg).op, std::string("_Arg"));
    QCOMPARE(shapes.find(arg, 0)->shape.toString(), std::string("[]"));  // a scalar loop variable
  }
};

QTEST_APPLESS_MAIN(TestTracing)
#include "tst_tracing.moc"
