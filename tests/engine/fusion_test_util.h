// Checks shared by the tests of the CPU placement's fused pairs (tst_pointwise_depthwise, tst_conv_max_pool,
// tst_depthwise_pointwise).
#pragma once

#include <QtTest>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "exec/model_runner.h"
#include "kernel_test_util.h"
#include "onnx_test_util.h"
#include "profile/run_profile.h"
#include "vulkan_case.h"

namespace flowscope::testing {

/// The data of a test that runs each of `shapes` on one thread and on two: columns "index" and "threads", each row
/// named by `name(shape)` and its thread count.
template <class Shape, class Name>
void addShapeAndThreadRows(const std::vector<Shape>& shapes, Name name) {
  QTest::addColumn<int>("index");
  QTest::addColumn<int>("threads");
  for (size_t i = 0; i < shapes.size(); ++i)
    for (int threads : {1, 2})
      QTest::newRow(QString("%1, %2 threads").arg(name(shapes[i])).arg(threads).toUtf8())
          << static_cast<int>(i) << threads;
}

/// Adds `name`, a float Transpose of NCHW `input` to NHWC (perm "perm", a constant), as the channels-last pass
/// writes it before an ONNX model's first convolution.
inline void addToNhwc(vktest::Case& k, const std::string& name, const std::string& input) {
  Node t;
  t.name = name;
  t.op = "Transpose";
  t.inputs = {TensorRef{input, 0, ""}, TensorRef{k.ints("perm", {0, 2, 3, 1}), 0, ""}};
  t.attrs["T"] = AttrValue::fromType(DType::kFloat);
  t.attrs["Tperm"] = AttrValue::fromType(DType::kInt32);
  k.graph.addNode(std::move(t));
}

/// Adds "reader", a float ReLU of `input`'s first output: a second reader that keeps a pair apart.
inline void addReader(vktest::Case& k, const std::string& input) {
  Node reader;
  reader.name = "reader";
  reader.op = "Relu";
  reader.inputs.push_back(TensorRef{input, 0, ""});
  reader.attrs["T"] = AttrValue::fromType(DType::kFloat);
  k.graph.addNode(std::move(reader));
}

/// How many nodes of each op the CPU placement of k's graph has, for a run feeding `fed` and fetching `fetches`.
inline std::map<std::string, size_t> placedOps(const vktest::Case& k, std::vector<std::string> fetches,
                                               std::set<std::string> fed = {"x"}) {
  auto cpu = openBackend("cpu");
  if (!cpu) qFatal("%s", cpu.status().message().c_str());
  PlacementRequest request;
  request.fedNodes = std::move(fed);
  request.fetches = std::move(fetches);
  auto placement = (*cpu)->place(k.graph, request);
  if (!placement) qFatal("%s", placement.status().message().c_str());
  return placement->graph.opHistogram();
}

/// Runs k's graph fetching `second` alone, where its pair runs fused as `op` under its name, and fetching `first`
/// too, which keeps the pair apart: the values agree within 1e-5, and the fused node's FLOPs are the two nodes' and its
/// profile event names both.
inline void checkFusedRun(const vktest::Case& k, const std::string& first, const std::string& second,
                          const std::string& op) {
  auto model = std::make_shared<Model>();
  model->graph = k.graph;
  ModelRunner runner(model);
  RunProfile fused, apart;
  auto got = runner.run(k.feeds, {second + ":0"}, {}, &fused, 0);
  QVERIFY2(got, got.status().message().c_str());
  auto expected = runner.run(k.feeds, {second + ":0", first + ":0"}, {}, &apart, 0);
  QVERIFY2(expected, expected.status().message().c_str());
  const double error = relativeError(expected->at(0), got->at(0));
  QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
  int64_t fusedFlops = -1, apartFlops = 0;
  for (const auto& e : fused.events())
    if (e.name == second) {
      QCOMPARE(e.op, op);
      QCOMPARE(e.fusedFrom, (std::vector<std::string>{first, second}));  // a profile shows both nodes' time
      fusedFlops = e.flops;
    }
  for (const auto& e : apart.events())
    if (e.name == second || e.name == first) apartFlops += e.flops;
  QCOMPARE(fusedFlops, apartFlops);
}

}  // namespace flowscope::testing
