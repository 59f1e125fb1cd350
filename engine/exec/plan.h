// Plan: compiled once per (graph, feeds, fetches, targets). Only what the fetches and targets need is kept
// (non-strict execution); kernels are resolved up front; every output has a slot and a consumer count so
// buffers are released as soon as their last reader ran.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "exec/kernel.h"
#include "ir/graph.h"

namespace flowscope {

enum class StepKind { kKernel, kSwitch, kMerge, kEnter, kExit, kNextIteration };

class Backend;

struct PlanStep {
  size_t node = 0;                   ///< index in the graph
  std::unique_ptr<OpKernel> kernel;  ///< null for fed nodes
  Backend* backend = nullptr;        ///< runs the kernel and reports it to the profile
  std::vector<int> inputSlots;       ///< one per data input
  std::vector<int> controlSteps;     ///< steps that must run first
  int firstOutput = 0;               ///< slot of output 0
  int numOutputs = 0;
  StepKind kind = StepKind::kKernel;
  bool fed = false;
  bool stateful = false;
  std::string frame;  ///< Enter's frame_name
  bool constantEnter = false;
};

/// A step's kernel and the backend that runs it.
struct StepKernel {
  std::unique_ptr<OpKernel> kernel;
  Backend* backend = nullptr;
};
/// Where a plan gets each node's kernel (a placement: the placed backend, else the CPU fallback).
using KernelSource = std::function<Expected<StepKernel>(const Node& node)>;
/// Every node from one backend.
KernelSource kernelsFrom(Backend& backend, const FunctionLibrary& library);

class Plan {
 public:
  /// Feeds and fetches are tensor names ("x", "x:0", "y:1"); targets are node names run for their effects.
  static Expected<std::unique_ptr<Plan>> build(const Graph& graph, const std::vector<std::string>& feeds,
                                               const std::vector<std::string>& fetches,
                                               const std::vector<std::string>& targets, const OpLookup& lookup,
                                               const KernelSource& kernels);

  const Graph& graph() const { return *m_graph; }
  std::vector<PlanStep>& steps() { return m_steps; }
  const std::vector<PlanStep>& steps() const { return m_steps; }
  const std::vector<int>& feedSlots() const { return m_feedSlots; }
  const std::vector<int>& fetchSlots() const { return m_fetchSlots; }
  int slotCount() const { return m_slotCount; }
  /// How many steps read each slot (fetches count as readers).
  const std::vector<int>& slotReaders() const { return m_slotReaders; }
  /// Consumers of each step's outputs and control edges, by step (for the dataflow executor).
  const std::vector<std::vector<int>>& consumers() const { return m_consumers; }
  /// True when the plan holds TF1 control flow (Switch/Merge/Enter/Exit/NextIteration): dead tensors and frames.
  bool needsDataflow() const { return m_dataflow; }
  /// Average parallelism (steps / longest dependency chain): above ~1.5 inter-op threads may pay off.
  double parallelism() const { return m_parallelism; }
  /// Wide enough that running independent ops at once may beat running op by op: parallelism over the steps that
  /// compute (Consts, fed nodes and identities cost nothing) of at least 1.5, and more than 8 of them.
  bool isWide() const { return m_computeParallelism >= 1.5 && m_computeSteps > 8 && !m_dataflow; }
  /// Step index of each slot's producer.
  int producerOf(int slot) const { return m_slotProducer[static_cast<size_t>(slot)]; }

 private:
  Status addSteps(const std::vector<size_t>& order, const std::vector<bool>& fed, const OpLookup& lookup,
                  const KernelSource& kernels, std::vector<int>& stepOf);
  Status connectSteps(const std::vector<int>& stepOf);

  std::shared_ptr<const Graph> m_graph;
  std::vector<PlanStep> m_steps;
  std::vector<int> m_feedSlots, m_fetchSlots, m_slotReaders, m_slotProducer;
  std::vector<std::vector<int>> m_consumers;
  int m_slotCount = 0;
  bool m_dataflow = false;
  double m_parallelism = 1;
  double m_computeParallelism = 1;
  size_t m_computeSteps = 0;
};

}  // namespace flowscope
