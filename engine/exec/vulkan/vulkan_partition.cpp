// Clustering a graph for the Vulkan backend.
#include "exec/vulkan/vulkan_partition.h"

#include <algorithm>

#include "exec/exec_context.h"
#include "passes/graph_rewrite.h"
#include "ops/shape_inference.h"

namespace flowscope::vk {
namespace {

class ClusterKernel : public OpKernel {
 public:
  explicit ClusterKernel(std::shared_ptr<ClusterProgram> program) : m_program(std::move(program)) {}
  Status compute(KernelContext& ctx) override {
    std::vector<Tensor> outputs;
    ExecContext* exec = ctx.exec;
    FS_RETURN_IF_ERROR(m_program->run(ctx.inputs, outputs, exec ? exec->trace : nullptr, exec ? exec->run : 0,
                                      exec ? exec->tracePrefix : std::string()));
    for (size_t i = 0; i < outputs.size() && i < ctx.outputs.size(); ++i) ctx.outputs[i] = std::move(outputs[i]);
    return Status::ok();
  }
  bool tracesItself() const override { return true; }

 private:
  std::shared_ptr<ClusterProgram> m_program;
};

// The value of a Const node itself.
const Tensor* constValue(const Node& node) {
  const AttrValue* v = node.op == "Const" ? node.attr("value") : nullptr;
  return v && v->kind() == AttrValue::Kind::kTensor ? &v->tensor() : nullptr;
}

bool isTf1ControlFlow(const std::string& op) {
  for (const char* cf : {"Switch", "Merge", "Enter", "Exit", "NextIteration"})
    if (op == cf || op == std::string("Ref") + cf) return true;
  return false;
}

// Inputs that read a value inside a cluster read the cluster node's output instead.
void renameInputs(Node& node, const std::map<std::string, std::string>& rename) {
  for (auto& in : node.inputs) {
    auto it = rename.find(in.node + ":" + std::to_string(in.index));
    if (it == rename.end()) continue;
    const auto colon = it->second.rfind(':');
    in = TensorRef{it->second.substr(0, colon), std::stoi(it->second.substr(colon + 1)), ""};
  }
}

ArgDef floatArg(std::string name) {
  ArgDef arg;
  arg.name = std::move(name);
  arg.type = DType::kFloat;
  return arg;
}

}  // namespace

std::unique_ptr<OpKernel> makeClusterKernel(std::shared_ptr<ClusterProgram> program) {
  return std::make_unique<ClusterKernel>(std::move(program));
}

Expected<Partition> partitionForVulkan(const Graph& graph, const std::set<std::string>& fedNodes,
                                       const std::vector<std::string>& fetches, std::shared_ptr<VulkanDevice> device) {
  Partition part;
  const size_t n = graph.size();
  const GraphShapes shapes = inferShapes(graph);
  std::set<std::string> controlSources;
  for (size_t i = 0; i < n; ++i)
    for (const auto& c : graph.node(i).controlInputs) controlSources.insert(c);

  // Which nodes can run on Vulkan.
  enum class Place { kCpu, kVulkan, kConstant };
  std::vector<Place> place(n, Place::kCpu);
  for (size_t i = 0; i < n; ++i) {
    const Node& node = graph.node(i);
    std::string why;
    if (node.op == "Const") {
      const Tensor* t = constValue(node);
      place[i] = t && t->dtype() == DType::kFloat ? Place::kConstant : Place::kCpu;
      continue;
    }
    std::vector<DType> types;
    std::vector<const Tensor*> consts;
    for (const auto& in : node.inputs) {
      const int64_t p = graph.find(in.node);
      const TensorInfo* info = p >= 0 ? shapes.find(static_cast<size_t>(p), in.index) : nullptr;
      types.push_back(info ? info->dtype : DType::kInvalid);
      consts.push_back(constantInput(graph, in));
    }
    bool outputsFloat = i < shapes.outputs.size() && !shapes.outputs[i].empty();
    if (outputsFloat)
      for (const auto& o : shapes.outputs[i]) outputsFloat &= o.dtype == DType::kFloat;
    if (fedNodes.count(node.name)) why = "fed";
    else if (!node.controlInputs.empty() || controlSources.count(node.name)) why = "has control edges";
    else if (!outputsFloat) why = "outputs are not float32";
    else if (supports(node, types, consts, &why)) place[i] = Place::kVulkan;
    if (place[i] == Place::kCpu) part.placement[node.name] = "cpu: " + why;
  }

  // Clusters in topological order: a node joins the one cluster its Vulkan inputs share, unless it also reaches that
  // cluster through a CPU node (joining would make a cycle); otherwise it starts a new cluster.
  // TF1 control flow (frames, dead tensors, back edges) runs on the CPU as a whole.
  for (size_t i = 0; i < n; ++i)
    if (isTf1ControlFlow(graph.node(i).op)) {
      for (size_t k = 0; k < n; ++k) part.placement[graph.node(k).name] = "cpu: the graph has TF1 control flow";
      part.graph = graph;
      part.cpuNodes = n;
      return part;
    }
  const std::vector<size_t> order = topologicalOrder(graph);
  std::vector<std::vector<size_t>> consumersOf(n);
  for (size_t i = 0; i < n; ++i)
    for (const auto& in : graph.node(i).inputs)
      if (int64_t p = graph.find(in.node); p >= 0) consumersOf[static_cast<size_t>(p)].push_back(i);
  // A Vulkan node that reads only constants (an Identity of a weight in an unoptimized TF1 graph) would start a
  // cluster of its own and split the clusters it feeds: leave it to the CPU (the optimizer folds such nodes).
  std::vector<char> constOnly(n, 0);
  for (size_t i : order) {
    const Node& node = graph.node(i);
    if (place[i] == Place::kConstant) {
      constOnly[i] = 1;
      continue;
    }
    if (place[i] != Place::kVulkan || node.inputs.empty()) continue;
    bool allConst = true;
    for (const auto& in : node.inputs) {
      const int64_t p = graph.find(in.node);
      allConst &= p >= 0 && constOnly[static_cast<size_t>(p)];
    }
    if (allConst) {
      constOnly[i] = 1;
      place[i] = Place::kCpu;
      part.placement[node.name] = "cpu: reads only constants (optimizing folds it)";
    }
  }
  std::vector<int> cluster(n, -1);
  std::vector<std::set<int>> reach(n), viaCpu(n);
  int clusters = 0;
  for (size_t i : order) {
    const Node& node = graph.node(i);
    std::set<int> inputClusters;
    for (const auto& in : node.inputs) {
      const int64_t p64 = graph.find(in.node);
      if (p64 < 0) continue;
      const auto p = static_cast<size_t>(p64);
      reach[i].insert(reach[p].begin(), reach[p].end());
      if (cluster[p] >= 0) reach[i].insert(cluster[p]);
      // Through a CPU producer, everything it reaches is reached via the CPU.
      const std::set<int>& through = place[p] == Place::kVulkan ? viaCpu[p] : reach[p];
      viaCpu[i].insert(through.begin(), through.end());
      if (place[p] == Place::kVulkan && cluster[p] >= 0) inputClusters.insert(cluster[p]);
    }
    if (place[i] != Place::kVulkan) continue;
    if (inputClusters.size() == 1 && !viaCpu[i].count(*inputClusters.begin())) cluster[i] = *inputClusters.begin();
    else cluster[i] = clusters++;
  }
  // Float Consts join the cluster of their consumers when every consumer is in that one cluster.
  std::set<std::string> fetchedNodes;
  for (const auto& f : fetches) fetchedNodes.insert(f.substr(0, f.rfind(':')));
  for (size_t i = 0; i < n; ++i) {
    if (place[i] != Place::kConstant) continue;
    int c = -1;
    bool one = !consumersOf[i].empty() && !fetchedNodes.count(graph.node(i).name) && !controlSources.count(graph.node(i).name);
    for (size_t u : consumersOf[i]) {
      if (cluster[u] < 0 || (c >= 0 && cluster[u] != c)) one = false;
      else c = cluster[u];
    }
    // A Const read only as a parameter (an axis, a shape) stays out: it is not a buffer.
    bool usedAsBuffer = false;
    for (size_t u : consumersOf[i]) {
      const Node& un = graph.node(u);
      for (size_t k = 0; k < un.inputs.size(); ++k)
        if (un.inputs[k].node == graph.node(i).name && !isParameterInput(un.op, k, un.inputs.size())) usedAsBuffer = true;
    }
    if (one && c >= 0 && usedAsBuffer) cluster[i] = c;
  }

  // Build each cluster's spec and the rewritten graph.
  std::vector<std::vector<size_t>> members(static_cast<size_t>(clusters));
  for (size_t i : order)
    if (cluster[i] >= 0) members[static_cast<size_t>(cluster[i])].push_back(i);
  std::map<std::string, std::string> rename;  // "node:k" inside a cluster -> "vulkan_cluster_c:j"
  std::vector<Node> clusterNodes;
  for (int c = 0; c < clusters; ++c) {
    ClusterSpec spec;
    spec.name = "vulkan_cluster_" + std::to_string(c);
    while (graph.find(spec.name) >= 0) spec.name += "_";
    Node clusterNode;
    clusterNode.name = spec.name;
    clusterNode.op = "_VulkanCluster_" + spec.name;
    OpDef def;
    def.name = clusterNode.op;
    std::map<std::string, ValueRef> local;  // "node:k" -> value inside the cluster
    std::map<std::string, int> externalOf;
    for (size_t i : members[static_cast<size_t>(c)]) {
      const Node& node = graph.node(i);
      if (place[i] == Place::kConstant) {
        local[node.name + ":0"] = {ValueRef::kConstant, static_cast<int>(spec.constants.size()), 0};
        spec.constants.push_back(*constValue(node));
        continue;
      }
      std::vector<ValueRef> ins;
      std::vector<int> bufferIndex;
      std::vector<const Tensor*> params(node.inputs.size(), nullptr);
      for (size_t k = 0; k < node.inputs.size(); ++k) {
        const TensorRef& ref = node.inputs[k];
        if (isParameterInput(node.op, k, node.inputs.size())) {
          params[k] = constantInput(graph, ref);
          continue;
        }
        const std::string key = ref.node + ":" + std::to_string(ref.index);
        auto it = local.find(key);
        if (it != local.end()) {
          ins.push_back(it->second);
        } else {
          auto [e, fresh] = externalOf.try_emplace(key, static_cast<int>(clusterNode.inputs.size()));
          if (fresh) {
            clusterNode.inputs.push_back(ref);
            def.inputs.push_back(floatArg("in" + std::to_string(e->second)));
          }
          ins.push_back({ValueRef::kExternal, e->second, 0});
        }
        bufferIndex.push_back(static_cast<int>(k));
      }
      const int index = static_cast<int>(spec.nodes.size());
      const size_t outputs = i < shapes.outputs.size() ? shapes.outputs[i].size() : 1;
      for (size_t o = 0; o < outputs; ++o) local[node.name + ":" + std::to_string(o)] = {ValueRef::kNode, index, static_cast<int>(o)};
      spec.nodes.push_back(node);
      spec.inputs.push_back(std::move(ins));
      spec.bufferInputIndex.push_back(std::move(bufferIndex));
      spec.params.push_back(std::move(params));
      part.placement[node.name] = "vulkan (" + spec.name + ")";
      ++part.vulkanNodes;
    }
    spec.externalInputs = clusterNode.inputs.size();
    // Outputs: values read outside the cluster or fetched.
    std::set<std::string> inCluster;
    for (size_t i : members[static_cast<size_t>(c)]) inCluster.insert(graph.node(i).name);
    auto addOutput = [&](const std::string& key) {
      if (rename.count(key) || !local.count(key)) return;
      rename[key] = spec.name + ":" + std::to_string(spec.outputs.size());
      def.outputs.push_back(floatArg("out" + std::to_string(spec.outputs.size())));
      spec.outputs.push_back(local.at(key));
    };
    for (size_t i = 0; i < n; ++i) {
      if (cluster[i] == c) continue;
      for (const auto& in : graph.node(i).inputs)
        if (inCluster.count(in.node)) addOutput(in.node + ":" + std::to_string(in.index));
    }
    for (const auto& f : fetches) {
      std::string name = f;
      if (name.find(':') == std::string::npos) name += ":0";
      if (inCluster.count(name.substr(0, name.rfind(':')))) addOutput(name);
    }
    part.clusterOps[clusterNode.op] = def;
    const std::string name = spec.name;  // (the right side of = runs first and moves spec)
    part.programs[name] = std::make_shared<ClusterProgram>(device, std::move(spec));
    clusterNodes.push_back(std::move(clusterNode));
  }

  // The rewritten graph: CPU nodes (inputs from clusters renamed), then the cluster nodes.
  part.graph.library = graph.library;
  part.graph.versions = graph.versions;
  for (size_t i = 0; i < n; ++i) {
    if (cluster[i] >= 0) continue;
    Node node = graph.node(i);
    renameInputs(node, rename);
    part.graph.addNode(std::move(node));
    ++part.cpuNodes;
  }
  for (Node& node : clusterNodes) {
    renameInputs(node, rename);  // an input produced inside another cluster comes from that cluster's node
    part.graph.addNode(std::move(node));
  }
  for (const auto& f : fetches) {
    std::string name = f.find(':') == std::string::npos ? f + ":0" : f;
    if (auto it = rename.find(name); it != rename.end()) part.fetchRenames[f] = it->second;
  }
  return part;
}

}  // namespace flowscope::vk
