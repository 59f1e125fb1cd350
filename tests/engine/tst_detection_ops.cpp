// Non-max suppression with TensorFlow's semantics, on answers worked out by hand: NonMaxSuppression V1..V5 (score
// threshold, padding, soft-NMS scores) and CombinedNonMaxSuppression (per class, clipping, padding per class).
#include "engine/kernel_test_util.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

Tensor floats(Shape shape, const std::vector<double>& v) { return tensorOf(DType::kFloat, std::move(shape), v); }
Tensor f32(float v) { return Tensor::scalar<float>(DType::kFloat, v); }
Tensor i32(int32_t v) { return Tensor::scalar<int32_t>(DType::kInt32, v); }

// TensorFlow's three clusters: boxes 0-2 overlap (IoU(0,1) = IoU(0,2) = 0.9 / 1.1 = 9/11, IoU(1,2) = 2/3), boxes 3
// and 4 overlap (9/11), box 5 stands alone. Scores .9 .75 .6 .95 .5 .3.
Tensor clusterBoxes() {
  return floats({6, 4}, {0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, -0.1, 1, 0.9, 0, 10, 1, 11, 0, 10.1, 1, 11.1, 0, 100, 1, 101});
}
Tensor clusterScores() { return floats({6}, {.9, .75, .6, .95, .5, .3}); }

std::vector<Tensor> run(const std::string& op, std::vector<Tensor> inputs, const AttrMap& attrs = {}) {
  auto out = eagerExecute(op, std::move(inputs), attrs);
  if (!out) qFatal("%s: %s", op.c_str(), out.status().message().c_str());
  return std::move(out).value();
}

// Combined: 4 boxes shared by 2 classes (q = 1). Class 0 keeps box 0 (.9) and box 2 (.2; box 1 overlaps box 0 by
// 0.25 / 0.275 = 0.91); box 3 (.05) is under the .15 threshold. Class 1 keeps box 3 (.95) and box 1 (.7, disjoint
// from box 3) and then has its 2 per class. All: 3/.95/c1, 0/.9/c0, 1/.7/c1, 2/.2/c0.
Tensor combinedBoxes() {
  return floats({1, 4, 1, 4}, {0, 0, 0.5, 0.5, 0, 0, 0.5, 0.55, 0.5, 0.5, 1.2, 1.0, -0.1, 0.6, 0.3, 0.9});
}
Tensor combinedScores() { return floats({1, 4, 2}, {0.9, 0.1, 0.8, 0.7, 0.2, 0.6, 0.05, 0.95}); }
std::vector<Tensor> combined(Tensor boxes, int total, bool padPerClass, bool clip) {
  return run("CombinedNonMaxSuppression", {std::move(boxes), combinedScores(), i32(2), i32(total), f32(0.5), f32(0.15)},
             {{"pad_per_class", AttrValue::fromBool(padPerClass)}, {"clip_boxes", AttrValue::fromBool(clip)}});
}

}  // namespace

class TestDetectionOps : public QObject {
  Q_OBJECT

 private slots:
  void v1AndV2SelectOnePerCluster() {
    auto v1 = run("NonMaxSuppression", {clusterBoxes(), clusterScores(), i32(3)},
                  {{"iou_threshold", AttrValue::fromFloat(0.5f)}});
    QVERIFY(closeTo(v1[0], Shape{3}, {3, 0, 5}));
    auto v2 = run("NonMaxSuppressionV2", {clusterBoxes(), clusterScores(), i32(2), f32(0.5)});
    QVERIFY(closeTo(v2[0], Shape{2}, {3, 0}));  // max_output_size stops it
    auto loose = run("NonMaxSuppressionV2", {clusterBoxes(), clusterScores(), i32(6), f32(0.85)});
    QVERIFY(closeTo(loose[0], Shape{6}, {3, 0, 1, 2, 4, 5}));  // no IoU above 9/11
  }

  void v3ScoreThreshold() {
    auto out = run("NonMaxSuppressionV3", {clusterBoxes(), clusterScores(), i32(6), f32(0.5), f32(0.4)});
    QVERIFY(closeTo(out[0], Shape{2}, {3, 0}));  // box 5 (.3) is under the threshold
    auto none = run("NonMaxSuppressionV3", {clusterBoxes(), clusterScores(), i32(6), f32(0.5), f32(0.96)});
    QCOMPARE(none[0].numElements(), int64_t{0});
  }

  void v4PadsAndCounts() {
    auto padded = run("NonMaxSuppressionV4", {clusterBoxes(), clusterScores(), i32(5), f32(0.5), f32(0)},
                      {{"pad_to_max_output_size", AttrValue::fromBool(true)}});
    QVERIFY(closeTo(padded[0], Shape{5}, {3, 0, 5, 0, 0}));
    QCOMPARE(padded[1].data<int32_t>()[0], 3);
    auto plain = run("NonMaxSuppressionV4", {clusterBoxes(), clusterScores(), i32(5), f32(0.5), f32(0)});
    QVERIFY(closeTo(plain[0], Shape{3}, {3, 0, 5}));
    QCOMPARE(plain[1].data<int32_t>()[0], 3);
  }

  // Soft-NMS with sigma 0.5: a score is scaled by exp(-iou^2) per selected overlapping box. Box 1: .75 e^-(81/121)
  // = .384; box 4: .5 e^-(81/121) = .256; box 2 after box 0 and box 1: .6 e^-(81/121) e^-(4/9) = .197.
  void v5SoftNms() {
    auto out = run("NonMaxSuppressionV5", {clusterBoxes(), clusterScores(), i32(6), f32(0.5), f32(0), f32(0.5)});
    QVERIFY(closeTo(out[0], Shape{6}, {3, 0, 1, 5, 4, 2}));
    QVERIFY(closeTo(out[1], Shape{6}, {0.95, 0.9, 0.384004, 0.3, 0.256002, 0.196972}, 1e-5));
    QCOMPARE(out[2].data<int32_t>()[0], 6);
    auto hard = run("NonMaxSuppressionV5", {clusterBoxes(), clusterScores(), i32(4), f32(0.5), f32(0), f32(0)},
                    {{"pad_to_max_output_size", AttrValue::fromBool(true)}});
    QVERIFY(closeTo(hard[0], Shape{4}, {3, 0, 5, 0}));
    QVERIFY(closeTo(hard[1], Shape{4}, {0.95, 0.9, 0.3, 0}));
    QCOMPARE(hard[2].data<int32_t>()[0], 3);
  }

  void nmsRejectsBadArguments() {
    QVERIFY(runError("NonMaxSuppressionV3", {clusterBoxes(), clusterScores(), i32(3), f32(1.5), f32(0)})
                .contains("iou_threshold must be in [0, 1]"));
    QVERIFY(runError("NonMaxSuppressionV3", {floats({6, 3}, {}), clusterScores(), i32(3), f32(0.5), f32(0)})
                .contains("boxes must be 2-D [n, 4]"));
  }

  void combinedClipsAndRanksAcrossClasses() {
    auto out = combined(combinedBoxes(), 3, false, true);
    QVERIFY(closeTo(out[0], Shape{1, 3, 4}, {0, 0.6, 0.3, 0.9, 0, 0, 0.5, 0.5, 0, 0, 0.5, 0.55}));  // box 3 clipped
    QVERIFY(closeTo(out[1], Shape{1, 3}, {0.95, 0.9, 0.7}));
    QVERIFY(closeTo(out[2], Shape{1, 3}, {1, 0, 1}));
    QVERIFY(closeTo(out[3], Shape{1}, {3}));
    auto raw = combined(combinedBoxes(), 3, false, false);
    QVERIFY(closeTo(raw[0], Shape{1, 3, 4}, {-0.1, 0.6, 0.3, 0.9, 0, 0, 0.5, 0.5, 0, 0, 0.5, 0.55}));
  }

  // max_total_size 10: padded to 10 rows; with pad_per_class to min(10, 2 per class * 2 classes) = 4.
  void combinedPads() {
    auto wide = combined(combinedBoxes(), 10, false, true);
    QCOMPARE(wide[1].shape(), (Shape{1, 10}));
    QVERIFY(closeTo(wide[1], Shape{1, 10}, {0.95, 0.9, 0.7, 0.2, 0, 0, 0, 0, 0, 0}));
    QVERIFY(closeTo(wide[3], Shape{1}, {4}));
    auto perClass = combined(combinedBoxes(), 10, true, true);
    QVERIFY(closeTo(perClass[0], Shape{1, 4, 4},
                    {0, 0.6, 0.3, 0.9, 0, 0, 0.5, 0.5, 0, 0, 0.5, 0.55, 0.5, 0.5, 1.0, 1.0}));  // box 2 clipped
    QVERIFY(closeTo(perClass[2], Shape{1, 4}, {1, 0, 1, 0}));
  }

  // q = classes: class 1 sees box 1 where box 3 is, so box 1 is suppressed there and box 2 (.6) is kept instead.
  void combinedBoxesPerClass() {
    Tensor boxes =
        floats({1, 4, 2, 4}, {0,   0,   0.5, 0.5, 0,   0,   0.5, 0.5, 0,    0,   0.5, 0.55, -0.1, 0.6, 0.3, 0.9,
                              0.5, 0.5, 1.0, 1.0, 0.5, 0.5, 1.0, 1.0, -0.1, 0.6, 0.3, 0.9,  -0.1, 0.6, 0.3, 0.9});
    auto out = combined(boxes, 3, false, false);
    QVERIFY(closeTo(out[1], Shape{1, 3}, {0.95, 0.9, 0.6}));
    QVERIFY(closeTo(out[2], Shape{1, 3}, {1, 0, 1}));
    QVERIFY(closeTo(out[0], Shape{1, 3, 4}, {-0.1, 0.6, 0.3, 0.9, 0, 0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0}));
  }
};

QTEST_APPLESS_MAIN(TestDetectionOps)
#include "tst_detection_ops.moc"
