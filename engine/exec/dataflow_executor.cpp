// The dataflow executor for TF1 control flow: values are tagged with (frame, iteration); Switch sends a dead
// tensor down its untaken output; dead inputs make a node dead without running it (Merge excepted: it fires on
// its first live input); Enter moves values into a child frame (constant Enters reach every iteration),
// NextIteration into the next iteration, Exit back to the parent frame.
#include <deque>
#include <map>
#include <memory>

#include "exec/executor.h"

namespace flowscope {
namespace {

constexpr int64_t kMaxIterations = 1000000;

struct Value {
  Tensor tensor;
  bool dead = false;
  bool present = false;
};

struct Frame;

struct Iteration {
  std::vector<Value> slots;     // inputs delivered in this iteration, by slot
  std::vector<int> pending;     // inputs (data and control) still missing, by step
  std::vector<int> deadInputs;  // by step
  std::vector<int> liveMergeInputs;
  std::vector<bool> done;  // step already ran (or was skipped as dead) here
};

struct Frame {
  std::string name;
  Frame* parent = nullptr;
  int64_t parentIteration = 0;
  std::map<int64_t, std::unique_ptr<Iteration>> iterations;
  std::vector<std::pair<int, Value>> constants;  // (enter step, value) delivered to every iteration
  std::map<std::pair<std::string, int64_t>, std::unique_ptr<Frame>> children;
};

class DataflowRun {
 public:
  DataflowRun(Plan& plan, ExecContext& ctx) : m_plan(plan), m_ctx(ctx) {
    const auto& steps = plan.steps();
    m_inputCount.resize(steps.size());
    for (size_t s = 0; s < steps.size(); ++s)
      m_inputCount[s] = steps[s].fed ? 0 : static_cast<int>(steps[s].inputSlots.size() + steps[s].controlSteps.size());
    m_root.name = "";
  }

  Status run(std::vector<Tensor> feeds, std::vector<Tensor>* fetched) {
    iteration(m_root, 0);
    for (size_t i = 0; i < feeds.size(); ++i)
      if (m_plan.feedSlots()[i] >= 0) m_fedValues[m_plan.feedSlots()[i]] = feeds[i];
    for (size_t s = 0; s < m_plan.steps().size(); ++s)
      if (m_inputCount[s] == 0) m_ready.push_back({&m_root, 0, static_cast<int>(s)});
    while (!m_ready.empty()) {
      Work w = m_ready.front();
      m_ready.pop_front();
      FS_RETURN_IF_ERROR(process(w));
    }
    fetched->clear();
    for (int slot : m_plan.fetchSlots()) {
      auto it = m_fetched.find(slot);
      if (it == m_fetched.end() || it->second.dead) {
        int step = m_plan.producerOf(slot);
        return invalidArgument("fetched tensor of node '" +
                               m_plan.graph().node(m_plan.steps()[static_cast<size_t>(step)].node).name +
                               "' has no value: it is dead (on an untaken Switch branch) or its loop never finished");
      }
      fetched->push_back(it->second.tensor);
    }
    return Status::ok();
  }

 private:
  struct Work {
    Frame* frame;
    int64_t iter;
    int step;
  };

  Iteration& iteration(Frame& frame, int64_t iter) {
    auto& slot = frame.iterations[iter];
    if (!slot) {
      slot = std::make_unique<Iteration>();
      const size_t steps = m_plan.steps().size();
      slot->slots.resize(static_cast<size_t>(m_plan.slotCount()));
      slot->pending = m_inputCount;
      slot->deadInputs.assign(steps, 0);
      slot->liveMergeInputs.assign(steps, 0);
      slot->done.assign(steps, false);
      for (const auto& [enterStep, value] : frame.constants) deliverOutputs(frame, iter, enterStep, {value});
    }
    return *slot;
  }

  Frame& child(Frame& parent, int64_t iter, const std::string& name) {
    auto& slot = parent.children[{name, iter}];
    if (!slot) {
      slot = std::make_unique<Frame>();
      slot->name = name;
      slot->parent = &parent;
      slot->parentIteration = iter;
    }
    return *slot;
  }

  // Hands a step's outputs (already routed to the right frame/iteration) to its consumers there.
  void deliverOutputs(Frame& frame, int64_t iter, int step, const std::vector<Value>& outputs) {
    const PlanStep& producer = m_plan.steps()[static_cast<size_t>(step)];
    Iteration& it = iteration(frame, iter);
    for (int k = 0; k < producer.numOutputs && k < static_cast<int>(outputs.size()); ++k) {
      int slot = producer.firstOutput + k;
      it.slots[static_cast<size_t>(slot)] = outputs[static_cast<size_t>(k)];
      it.slots[static_cast<size_t>(slot)].present = true;
      if (&frame == &m_root && iter == 0) m_fetched[slot] = outputs[static_cast<size_t>(k)];
    }
    bool allDead = true;
    for (const auto& v : outputs) allDead &= v.dead;
    int previous = -1;
    for (int c : m_plan.consumers()[static_cast<size_t>(step)]) {
      // A consumer is listed once per edge (the edges of one consumer are adjacent); all are counted below at once.
      if (c == previous) continue;
      previous = c;
      const PlanStep& consumer = m_plan.steps()[static_cast<size_t>(c)];
      auto ci = static_cast<size_t>(c);
      // Count each edge from this producer once per matching input or control dependency.
      int edges = 0, deadEdges = 0, liveEdges = 0;
      for (int slot : consumer.inputSlots)
        if (m_plan.producerOf(slot) == step) {
          ++edges;
          const Value& v = outputs[static_cast<size_t>(slot - producer.firstOutput)];
          v.dead ? ++deadEdges : ++liveEdges;
        }
      for (int cs : consumer.controlSteps)
        if (cs == step) {
          ++edges;
          allDead && !outputs.empty() ? ++deadEdges : ++liveEdges;
        }
      it.pending[ci] -= edges;
      it.deadInputs[ci] += deadEdges;
      it.liveMergeInputs[ci] += liveEdges;
      if (it.done[ci]) continue;
      bool ready =
          consumer.kind == StepKind::kMerge ? (it.liveMergeInputs[ci] > 0 || it.pending[ci] <= 0) : it.pending[ci] <= 0;
      if (ready) {
        it.done[ci] = true;
        m_ready.push_back({&frame, iter, c});
      }
    }
  }

  Status process(const Work& w) {
    PlanStep& step = m_plan.steps()[static_cast<size_t>(w.step)];
    Frame& frame = *w.frame;
    Iteration& it = iteration(frame, w.iter);
    std::vector<Value> outputs(static_cast<size_t>(step.numOutputs));
    if (step.fed) {
      for (int k = 0; k < step.numOutputs; ++k) {
        auto found = m_fedValues.find(step.firstOutput + k);
        if (found != m_fedValues.end()) outputs[static_cast<size_t>(k)] = {found->second, false, true};
      }
      deliverOutputs(frame, w.iter, w.step, outputs);
      return Status::ok();
    }
    const bool dead = it.deadInputs[static_cast<size_t>(w.step)] > 0;
    if (step.kind == StepKind::kMerge) {
      Value chosen{Tensor(), true, true};
      int index = -1;
      for (size_t i = 0; i < step.inputSlots.size(); ++i) {
        const Value& v = it.slots[static_cast<size_t>(step.inputSlots[i])];
        if (v.present && !v.dead) {
          chosen = v;
          index = static_cast<int>(i);
          break;
        }
      }
      outputs[0] = chosen;
      if (outputs.size() > 1) outputs[1] = {Tensor::scalar<int32_t>(DType::kInt32, index), chosen.dead, true};
      deliverOutputs(frame, w.iter, w.step, outputs);
      return Status::ok();
    }
    if (dead) {
      for (auto& o : outputs) o = {Tensor(), true, true};
      return route(step, frame, w.iter, w.step, outputs);
    }
    std::vector<Tensor> inputs, computed;
    for (int slot : step.inputSlots) inputs.push_back(it.slots[static_cast<size_t>(slot)].tensor);
    if (step.kind == StepKind::kSwitch) {
      if (inputs.size() != 2 || inputs[1].dtype() != DType::kBool || inputs[1].numElements() != 1)
        return invalidArgument(nodeLabel(m_plan.graph().node(step.node)) + "pred must be a bool scalar");
      bool pred = inputs[1].data<uint8_t>()[0] != 0;
      outputs[0] = {pred ? Tensor() : inputs[0], pred, true};
      outputs[1] = {pred ? inputs[0] : Tensor(), !pred, true};
      return route(step, frame, w.iter, w.step, outputs);
    }
    FS_RETURN_IF_ERROR(runStep(m_plan, step, inputs, computed, m_ctx));
    for (int k = 0; k < step.numOutputs; ++k)
      outputs[static_cast<size_t>(k)] = {computed[static_cast<size_t>(k)], false, true};
    return route(step, frame, w.iter, w.step, outputs);
  }

  // Sends outputs to the frame/iteration where consumers read them.
  Status route(const PlanStep& step, Frame& frame, int64_t iter, int stepIndex, const std::vector<Value>& outputs) {
    switch (step.kind) {
      case StepKind::kEnter: {
        Frame& inner = child(frame, iter, step.frame);
        if (step.constantEnter) {
          inner.constants.emplace_back(stepIndex, outputs[0]);
          for (auto& [i, state] : inner.iterations) deliverOutputs(inner, i, stepIndex, outputs);
          iteration(inner, 0);
        } else {
          deliverOutputs(inner, 0, stepIndex, outputs);
        }
        return Status::ok();
      }
      case StepKind::kExit:
        if (!frame.parent)
          return invalidArgument(nodeLabel(m_plan.graph().node(step.node)) + "Exit outside a loop frame");
        if (!outputs[0].dead) deliverOutputs(*frame.parent, frame.parentIteration, stepIndex, outputs);
        return Status::ok();
      case StepKind::kNextIteration:
        if (!outputs[0].dead) {
          if (iter >= kMaxIterations)
            return outOfRange("loop frame '" + frame.name + "' ran more than 1000000 iterations");
          deliverOutputs(frame, iter + 1, stepIndex, outputs);
        }
        return Status::ok();
      default:
        deliverOutputs(frame, iter, stepIndex, outputs);
        return Status::ok();
    }
  }

  Plan& m_plan;
  ExecContext& m_ctx;
  Frame m_root;
  std::vector<int> m_inputCount;
  std::deque<Work> m_ready;
  std::map<int, Tensor> m_fedValues;
  std::map<int, Value> m_fetched;
};

}  // namespace

Status executeDataflow(Plan& plan, std::vector<Tensor> feeds, std::vector<Tensor>* fetched, ExecContext& ctx) {
  DataflowRun run(plan, ctx);
  return run.run(std::move(feeds), fetched);
}

}  // namespace flowscope
