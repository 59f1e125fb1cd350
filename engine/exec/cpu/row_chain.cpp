// The row chain's kernel and placement (row_chain.h).
#include "exec/cpu/row_chain.h"

#include "exec/cpu/depthwise_pointwise.h"
#include "exec/cpu/fused_pair.h"
#include "exec/cpu/placement_util.h"
#include "exec/cpu/transpose_conv.h"

namespace flowscope {
namespace {

// Below this the middle tensor stays in L2 between the two kernels anyway.
constexpr int64_t kMinChainedMiddleBytes = int64_t{1} << 20;

class RowChainKernel : public OpKernel {
 public:
  RowChainKernel(const Node& first, const Node& second, std::unique_ptr<OpKernel> a, std::unique_ptr<OpKernel> b)
      : m_firstArity(first.inputs.size()),
        m_producer(dynamic_cast<RowProducer*>(a.get())),
        m_consumer(dynamic_cast<RowConsumer*>(b.get())) {
    for (const auto& [node, kernel] : {std::pair{&first, a.get()}, std::pair{&second, b.get()}})
      if (!kernel && m_setup.isOk()) m_setup = unimplemented(nodeLabel(*node) + "no CPU kernel");
    m_pair.adopt(first, second, std::move(a), std::move(b));
  }

  Status compute(KernelContext& ctx) override {
    FS_RETURN_IF_ERROR(m_setup);
    if (m_producer && m_consumer && ctx.inputs.size() > m_firstArity) {
      const std::vector<Tensor> firstInputs(ctx.inputs.begin(),
                                            ctx.inputs.begin() + static_cast<ptrdiff_t>(m_firstArity));
      const std::optional<Shape> produced = m_producer->producedShape(firstInputs);
      if (produced && m_consumer->computeFrom(ctx, firstInputs, *m_producer, *produced)) return Status::ok();
    }
    return m_pair.run(ctx, m_firstArity);
  }

 private:
  size_t m_firstArity;
  RowProducer* m_producer;  // the first kernel as one, or null
  RowConsumer* m_consumer;  // the second kernel as one, or null
  Status m_setup;
  KernelPair m_pair;
};

// The index of the stem node that `second` (a depthwise + 1x1 node) pulls its rows from, or -1.
int64_t producerOf(const Graph& graph, const Fanout& fanout, const std::set<std::string>& pinned, size_t second) {
  const Node& consumer = graph.node(second);
  if (consumer.op != kDepthwisePointwiseOp || consumer.inputs.empty() || consumer.inputs[0].index != 0) return -1;
  const int64_t f = graph.find(consumer.inputs[0].node);
  if (f < 0) return -1;
  const Node& producer = graph.node(static_cast<size_t>(f));
  if (producer.op != kTransposeConvOp || pinned.count(producer.name) || fanout.dataUses(static_cast<size_t>(f)) != 1 ||
      fanout.controlUses(static_cast<size_t>(f)) != 0)
    return -1;
  return f;
}

}  // namespace

std::unique_ptr<OpKernel> makeRowChainKernel(const Node& first, const Node& second, std::unique_ptr<OpKernel> a,
                                             std::unique_ptr<OpKernel> b) {
  return std::make_unique<RowChainKernel>(first, second, std::move(a), std::move(b));
}

void fuseRowChains(Placement& placement, const PlacementRequest& request) {
  PairFusion fusion;
  fusion.op = floatOpDef(
      kRowChainOp,
      "A kernel that makes rows and the banded kernel that reads them, run as one: the stem's "
      "inputs, then the depthwise + 1x1 node's after its first",
      {"input", "perm", "filter", "bias", "depthwise_filter", "depthwise_bias", "pointwise_filter", "pointwise_args"});
  fusion.firstAttr = "producer";
  fusion.minMiddleBytes = kMinChainedMiddleBytes;
  fusion.firstOf = producerOf;
  fusion.chain = makeRowChainKernel;
  fusePairs(placement, request, fusion);
}

}  // namespace flowscope
