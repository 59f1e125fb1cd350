// The static executor: one pass over the steps in dependency order, releasing buffers after their last
// reader. With inter-op threads and a wide plan, ready steps are shared among OpenMP threads.
#include "exec/executor.h"

#include <omp.h>

#include <condition_variable>
#include <deque>
#include <mutex>

#include "exec/backend.h"

namespace flowscope {

Status runStep(const Plan& plan, PlanStep& step, std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
               ExecContext& ctx) {
  const Node& node = plan.graph().node(step.node);
  outputs.assign(static_cast<size_t>(step.numOutputs), Tensor());
  KernelContext kc{node, inputs, outputs, &ctx};
  if (ctx.isCancelled()) return cancelled("run cancelled before node '" + node.name + "'");
  Status s = step.backend->run(*step.kernel, kc);
  if (!s.isOk() && s.message().find(node.name) == std::string::npos) return s.withContext(nodeLabel(node));
  return s;
}

namespace {

Status checkOutputs(const Plan& plan, const PlanStep& step, const std::vector<Tensor>& outputs,
                    const std::vector<int>& readers) {
  for (int k = 0; k < step.numOutputs; ++k)
    if (readers[static_cast<size_t>(step.firstOutput + k)] > 0 && !outputs[static_cast<size_t>(k)].isValid())
      return internalError(nodeLabel(plan.graph().node(step.node)) + "produced no value for output " +
                           std::to_string(k));
  return Status::ok();
}

void gatherInputs(const PlanStep& step, std::vector<Tensor>& slots, std::vector<int>& readers,
                  std::vector<Tensor>& inputs) {
  inputs.resize(step.inputSlots.size());
  for (size_t i = 0; i < step.inputSlots.size(); ++i) {
    auto slot = static_cast<size_t>(step.inputSlots[i]);
    if (--readers[slot] == 0)
      inputs[i] = std::move(slots[slot]);  // last reader: hand the buffer over
    else
      inputs[i] = slots[slot];
  }
}

Status runSequential(Plan& plan, std::vector<Tensor>& slots, std::vector<int>& readers, ExecContext& ctx) {
  std::vector<Tensor> inputs, outputs;
  for (PlanStep& step : plan.steps()) {
    if (step.fed) continue;
    gatherInputs(step, slots, readers, inputs);
    FS_RETURN_IF_ERROR(runStep(plan, step, inputs, outputs, ctx));
    FS_RETURN_IF_ERROR(checkOutputs(plan, step, outputs, readers));
    for (int k = 0; k < step.numOutputs; ++k)
      slots[static_cast<size_t>(step.firstOutput + k)] = std::move(outputs[static_cast<size_t>(k)]);
    inputs.clear();
  }
  return Status::ok();
}

// Inter-op parallel: a shared ready queue; each thread runs steps whose inputs are done.
Status runParallel(Plan& plan, std::vector<Tensor>& slots, std::vector<int>& readers, ExecContext& ctx, int threads) {
  const auto& steps = plan.steps();
  std::vector<int> pending(steps.size(), 0);
  for (size_t s = 0; s < steps.size(); ++s)
    for (int c : plan.consumers()[s]) ++pending[static_cast<size_t>(c)];
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<int> ready;
  size_t remaining = steps.size();
  Status failure;
  for (size_t s = 0; s < steps.size(); ++s)
    if (pending[s] == 0) ready.push_back(static_cast<int>(s));
#pragma omp parallel num_threads(threads)
  {
    std::vector<Tensor> inputs, outputs;
    while (true) {
      int s;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return !ready.empty() || remaining == 0 || !failure.isOk(); });
        if (remaining == 0 || !failure.isOk()) break;
        s = ready.front();
        ready.pop_front();
        PlanStep& step = plan.steps()[static_cast<size_t>(s)];
        if (!step.fed) gatherInputs(step, slots, readers, inputs);
      }
      PlanStep& step = plan.steps()[static_cast<size_t>(s)];
      Status status = step.fed ? Status::ok() : runStep(plan, step, inputs, outputs, ctx);
      std::lock_guard<std::mutex> lock(mutex);
      if (status.isOk() && !step.fed) status = checkOutputs(plan, step, outputs, readers);
      if (!status.isOk()) {
        if (failure.isOk()) failure = status;
        wake.notify_all();
        continue;
      }
      if (!step.fed)
        for (int k = 0; k < step.numOutputs; ++k)
          slots[static_cast<size_t>(step.firstOutput + k)] = std::move(outputs[static_cast<size_t>(k)]);
      inputs.clear();
      for (int c : plan.consumers()[static_cast<size_t>(s)])
        if (--pending[static_cast<size_t>(c)] == 0) ready.push_back(c);
      --remaining;
      wake.notify_all();
    }
  }
  return failure;
}

}  // namespace

Status executePlan(Plan& plan, std::vector<Tensor> feeds, std::vector<Tensor>* fetched, ExecContext& ctx,
                   const ExecOptions& options) {
  if (feeds.size() != plan.feedSlots().size())
    return invalidArgument("expected " + std::to_string(plan.feedSlots().size()) + " feeds, got " +
                           std::to_string(feeds.size()));
  if (plan.needsDataflow()) return executeDataflow(plan, std::move(feeds), fetched, ctx);
  std::vector<Tensor> slots(static_cast<size_t>(plan.slotCount()));
  std::vector<int> readers = plan.slotReaders();
  for (size_t i = 0; i < feeds.size(); ++i)
    if (plan.feedSlots()[i] >= 0) slots[static_cast<size_t>(plan.feedSlots()[i])] = std::move(feeds[i]);
  bool parallel =
      options.interOpThreads > 1 && plan.parallelism() >= 1.5 && plan.steps().size() > 8 && !omp_in_parallel();
  FS_RETURN_IF_ERROR(parallel ? runParallel(plan, slots, readers, ctx, options.interOpThreads)
                              : runSequential(plan, slots, readers, ctx));
  fetched->clear();
  for (int slot : plan.fetchSlots()) fetched->push_back(slots[static_cast<size_t>(slot)]);
  return Status::ok();
}

}  // namespace flowscope
