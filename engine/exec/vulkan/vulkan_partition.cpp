// Clustering a graph for the Vulkan backend: decide per node, form acyclic clusters, attach float constants, then
// rewrite the graph with one node per cluster.
#include "exec/vulkan/vulkan_partition.h"

#include <algorithm>
#include <set>

#include "exec/cluster_formation.h"
#include "exec/exec_context.h"
#include "ir/graph_algorithms.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace flowscope::vk {
namespace {

class ClusterKernel : public OpKernel {
 public:
  explicit ClusterKernel(std::shared_ptr<ClusterProgram> program) : m_program(std::move(program)) {}
  Status compute(KernelContext& ctx) override {
    std::vector<Tensor> outputs;
    FS_RETURN_IF_ERROR(m_program->run(ctx.inputs, outputs, ctx.exec));
    for (size_t i = 0; i < outputs.size() && i < ctx.outputs.size(); ++i) ctx.outputs[i] = std::move(outputs[i]);
    return Status::ok();
  }

 private:
  std::shared_ptr<ClusterProgram> m_program;
};

// Whether a node is a constant: a Const, or an ONNX Constant (function bodies are not optimized into Consts).
bool isConstantOp(const std::string& op) { return op == "Const" || op == "onnx::Constant"; }

// The value of a constant node itself (an ONNX Constant's tensor `value`; its scalar and list forms stay on the CPU).
const Tensor* constValue(const Node& node) {
  const AttrValue* v = isConstantOp(node.op) ? node.attr("value") : nullptr;
  return v && v->kind() == AttrValue::Kind::kTensor && v->tensor().isValid() ? &v->tensor() : nullptr;
}

// The value `ref` reads when it is a constant node's output.
const Tensor* constantOf(const Graph& graph, const TensorRef& ref) {
  const Node* producer = graph.findNode(ref.node);
  return producer && ref.index == 0 ? constValue(*producer) : nullptr;
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

ArgDef typedArg(std::string name, DType type = DType::kFloat) {
  ArgDef arg;
  arg.name = std::move(name);
  arg.type = type;
  return arg;
}

enum class Place { kCpu, kVulkan, kConstant };

// One partitioning of one graph. Phases run in order; each fills the members the next one reads.
class Partitioner {
 public:
  Partitioner(const Graph& graph, const PlacementRequest& request, std::shared_ptr<VulkanDevice> device)
      : m_graph(graph),
        m_request(request),
        m_device(std::move(device)),
        m_n(graph.size()),
        m_shapes(inferShapes(graph, &request.fedShapes)) {}

  Expected<Placement> run() {
    m_part.everythingOnBackend = false;
    for (size_t i = 0; i < m_n; ++i)
      for (const auto& c : m_graph.node(i).controlInputs) m_controlSources.insert(c);
    decidePlaces();
    m_order = topologicalOrder(m_graph);
    leaveControlFlowToTheCpu();
    m_consumers.resize(m_n);
    for (size_t i = 0; i < m_n; ++i)
      for (const auto& in : m_graph.node(i).inputs)
        if (int64_t p = m_graph.find(in.node); p >= 0) m_consumers[static_cast<size_t>(p)].push_back(i);
    leaveConstantOnlyNodesToTheCpu();
    formClusters();
    while (leaveSmallClustersToTheCpu()) formClusters();
    attachConstants();
    for (int c = 0; c < m_clusters; ++c) buildCluster(c);
    rewriteGraph();
    return std::move(m_part);
  }

 private:
  // Which nodes can run on Vulkan, and why the others cannot.
  void decidePlaces() {
    m_place.assign(m_n, Place::kCpu);
    for (size_t i = 0; i < m_n; ++i) {
      const Node& node = m_graph.node(i);
      if (isConstantOp(node.op)) {
        const Tensor* t = constValue(node);
        m_place[i] = t && t->dtype() == DType::kFloat ? Place::kConstant : Place::kCpu;
        continue;
      }
      std::vector<DType> types;
      std::vector<const Tensor*> consts;
      for (const auto& in : node.inputs) {
        const int64_t p = m_graph.find(in.node);
        const TensorInfo* info = p >= 0 ? m_shapes.find(static_cast<size_t>(p), in.index) : nullptr;
        types.push_back(info ? info->dtype : DType::kInvalid);
        consts.push_back(constantOf(m_graph, in));
      }
      bool outputsFloat = i < m_shapes.outputs.size() && !m_shapes.outputs[i].empty();
      if (outputsFloat)
        for (const auto& o : m_shapes.outputs[i]) outputsFloat &= o.dtype == DType::kFloat;
      std::string why;
      if (m_request.fedNodes.count(node.name))
        why = "fed";
      else if (!node.controlInputs.empty() || m_controlSources.count(node.name))
        why = "has control edges";
      else if (!outputsFloat)
        why = "outputs are not float32";
      else if (supports(node, types, consts, &why) && lowersForKnownShapes(i, consts, &why))
        m_place[i] = Place::kVulkan;
      if (m_place[i] == Place::kCpu) m_part.where[node.name] = "cpu: " + why;
    }
  }

  // Where the node's input shapes are known now (fed shapes included), whether it lowers for them: a shape the kernel
  // does not take (a broadcast above rank 5, a dispatch too large) leaves the node on the CPU instead of failing the
  // run. Shapes unknown until run time are lowered then.
  bool lowersForKnownShapes(size_t i, const std::vector<const Tensor*>& consts, std::string* why) const {
    const Node& node = m_graph.node(i);
    NodeView view{node, {}, consts, {m_request.precision, m_device->cooperativeMatrix()}};
    for (const auto& in : node.inputs) {
      view.inputTypes.push_back(inputType(in));
      const int64_t p = m_graph.find(in.node);
      const TensorInfo* info = p >= 0 ? m_shapes.find(static_cast<size_t>(p), in.index) : nullptr;
      if (!info || !info->shape.isFullyDefined()) return true;
      view.inputShapes.push_back(info->shape);
    }
    auto lowered = lower(view);
    if (lowered) return true;
    *why = lowered.status().message();
    const std::string label = nodeLabel(node);
    if (why->rfind(label, 0) == 0) why->erase(0, label.size());
    return false;
  }

  // TF1 control flow runs on the CPU's dataflow executor, and so does every node inside a loop's frame or reachable
  // from a Switch of the root frame (it may be dead). The rest is in the root frame and never dead: the nodes before a
  // loop, and those after a loop's Exit (a detector's backbone after its preprocessing loop) cluster as in any graph.
  void leaveControlFlowToTheCpu() {
    std::vector<int> depth(m_n, 0);  // frames entered: Enter adds one, Exit leaves one
    std::vector<char> tainted(m_n, 0);
    for (size_t i : m_order) {
      const Node& node = m_graph.node(i);
      for (const std::string& from : producersOf(node)) {
        const int64_t p = m_graph.find(from);
        if (p < 0 || isEither(m_graph.node(static_cast<size_t>(p)).op, "NextIteration")) continue;  // a back edge
        depth[i] = std::max(depth[i], depth[static_cast<size_t>(p)]);
        tainted[i] |= tainted[static_cast<size_t>(p)];
      }
      if (isEither(node.op, "Enter")) ++depth[i];
      if (isEither(node.op, "Exit")) depth[i] = std::max(0, depth[i] - 1);
      if (isEither(node.op, "Switch") && depth[i] == 0) tainted[i] = 1;
      if (!isDataflowControlOp(node.op) && depth[i] == 0 && !tainted[i]) continue;
      if (isDataflowControlOp(node.op))
        m_part.where[node.name] = "cpu: TF1 control flow";
      else if (m_place[i] != Place::kCpu)
        m_part.where[node.name] = depth[i] > 0 ? "cpu: inside a TF1 loop" : "cpu: after a TF1 Switch (may be dead)";
      m_place[i] = Place::kCpu;
    }
  }

  // Whether `op` is the control-flow op `name` or its Ref twin (RefEnter, RefSwitch, ...).
  static bool isEither(const std::string& op, const std::string& name) { return op == name || op == "Ref" + name; }

  // The nodes `node` reads, through data and control edges.
  static std::vector<std::string> producersOf(const Node& node) {
    std::vector<std::string> names = node.controlInputs;
    for (const auto& in : node.inputs) names.push_back(in.node);
    return names;
  }

  // A Vulkan node that reads only constants (an Identity of a weight in an unoptimized TF1 graph) would start a
  // cluster of its own and split the clusters it feeds: leave it to the CPU (the optimizer folds such nodes).
  void leaveConstantOnlyNodesToTheCpu() {
    std::vector<char> constOnly(m_n, 0);
    for (size_t i : m_order) {
      const Node& node = m_graph.node(i);
      if (m_place[i] == Place::kConstant) {
        constOnly[i] = 1;
        continue;
      }
      if (m_place[i] != Place::kVulkan || node.inputs.empty()) continue;
      bool allConst = true;
      for (const auto& in : node.inputs) {
        const int64_t p = m_graph.find(in.node);
        allConst &= p >= 0 && constOnly[static_cast<size_t>(p)];
      }
      if (allConst) {
        constOnly[i] = 1;
        m_place[i] = Place::kCpu;
        m_part.where[node.name] = "cpu: reads only constants (optimizing folds it)";
      }
    }
  }

  void formClusters() {
    std::vector<char> onDevice(m_n);
    for (size_t i = 0; i < m_n; ++i) onDevice[i] = m_place[i] == Place::kVulkan;
    m_cluster = formAcyclicClusters(m_graph, m_order, onDevice);
    m_clusters = 0;
    for (int c : m_cluster) m_clusters = std::max(m_clusters, c + 1);
  }

  // A cluster runs as an upload, a submit, a wait and a download, and compiles again for every new input shape: for
  // light ops on small tensors (a detector's post-processing between host ops) that costs more than the CPU takes to
  // compute them. Like XLA's minimum cluster size, clusters without a MatMul, convolution, pool, normalization,
  // reduction or resize go back to the CPU when they have fewer than 4 nodes or a shape known only at run time (after
  // a non-max suppression), unless they are the graph's largest; then the rest is clustered again. Whether anything
  // changed.
  bool leaveSmallClustersToTheCpu() {
    constexpr int kMinLightNodes = 4;
    std::vector<int> size(static_cast<size_t>(m_clusters), 0);
    std::vector<char> heavy(static_cast<size_t>(m_clusters), 0), dynamic(static_cast<size_t>(m_clusters), 0);
    for (size_t i = 0; i < m_n; ++i) {
      const auto c = static_cast<size_t>(m_cluster[i]);
      if (m_cluster[i] < 0) continue;
      ++size[c];
      heavy[c] |= isHeavy(m_graph.node(i).op);
      for (const auto& o : m_shapes.outputs[i]) dynamic[c] |= !o.shape.isFullyDefined();
    }
    const auto largest = std::max_element(size.begin(), size.end()) - size.begin();
    bool changed = false;
    for (size_t i = 0; i < m_n; ++i) {
      const auto c = static_cast<size_t>(m_cluster[i]);
      if (m_cluster[i] < 0 || m_cluster[i] == largest || heavy[c] || (size[c] >= kMinLightNodes && !dynamic[c]))
        continue;
      m_place[i] = Place::kCpu;
      m_part.where[m_graph.node(i).name] = "cpu: a cluster of " + std::to_string(size[c]) + " light ops" +
                                           (dynamic[c] ? " on shapes known only at run time" : "") +
                                           " costs more in transfers than it saves";
      changed = true;
    }
    return changed;
  }

  bool isHeavy(const std::string& op) const {
    const OpCategory category = OpRegistry::global().categoryOf(op, &m_graph.library);
    return category == OpCategory::kMatMul || category == OpCategory::kConvolution ||
           category == OpCategory::kPooling || category == OpCategory::kNormalization ||
           category == OpCategory::kReduction || category == OpCategory::kImage;
  }

  // Float Consts join the cluster of their consumers when every consumer is in that one cluster and reads them as a
  // buffer (a Const read only as a parameter, an axis or a shape, stays out).
  void attachConstants() {
    std::set<std::string> fetchedNodes;
    for (const auto& f : m_request.fetches) fetchedNodes.insert(f.substr(0, f.rfind(':')));
    for (size_t i = 0; i < m_n; ++i) {
      if (m_place[i] != Place::kConstant) continue;
      const std::string& name = m_graph.node(i).name;
      int c = -1;
      bool one = !m_consumers[i].empty() && !fetchedNodes.count(name) && !m_controlSources.count(name);
      bool usedAsBuffer = false;
      for (size_t u : m_consumers[i]) {
        if (m_cluster[u] < 0 || (c >= 0 && m_cluster[u] != c))
          one = false;
        else
          c = m_cluster[u];
        const Node& un = m_graph.node(u);
        for (size_t k = 0; k < un.inputs.size(); ++k)
          if (un.inputs[k].node == name && !isParameterInput(un.op, k, un.inputs.size())) usedAsBuffer = true;
      }
      if (one && c >= 0 && usedAsBuffer) m_cluster[i] = c;
    }
  }

  void buildCluster(int c) {
    std::vector<size_t> members;
    for (size_t i : m_order)
      if (m_cluster[i] == c) members.push_back(i);
    ClusterSpec spec;
    spec.name = "vulkan_cluster_" + std::to_string(c);
    spec.precision = m_request.precision;
    while (m_graph.find(spec.name) >= 0) spec.name += "_";
    Node clusterNode;
    clusterNode.name = spec.name;
    clusterNode.op = "_VulkanCluster_" + spec.name;
    OpDef def;
    def.name = clusterNode.op;
    std::map<std::string, ValueRef> local;  // "node:k" -> value inside the cluster
    std::map<std::string, int> externalOf;
    for (size_t i : members) addMember(i, spec, clusterNode, def, local, externalOf);
    spec.externalInputs = clusterNode.inputs.size();
    addOutputs(members, spec, def, local);
    m_part.addedOps[clusterNode.op] = def;
    auto program = std::make_shared<ClusterProgram>(m_device, std::move(spec));
    m_part.preparedKernels[clusterNode.name] = [program] { return makeClusterKernel(program); };
    m_clusterNodes.push_back(std::move(clusterNode));
  }

  void addMember(size_t i, ClusterSpec& spec, Node& clusterNode, OpDef& def, std::map<std::string, ValueRef>& local,
                 std::map<std::string, int>& externalOf) {
    const Node& node = m_graph.node(i);
    if (m_place[i] == Place::kConstant) {
      local[node.name + ":0"] = {ValueRef::kConstant, static_cast<int>(spec.constants.size()), 0};
      spec.constants.push_back(*constValue(node));
      return;
    }
    std::vector<ValueRef> ins;
    std::vector<int> bufferIndex;
    std::vector<const Tensor*> params(node.inputs.size(), nullptr);
    std::vector<DType> types;
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      const TensorRef& ref = node.inputs[k];
      types.push_back(inputType(ref));
      if (isParameterInput(node.op, k, node.inputs.size())) {
        if (const Tensor* value = constantOf(m_graph, ref)) {
          spec.paramValues.push_back(*value);
          params[k] = &spec.paramValues.back();
        }
        continue;
      }
      const std::string key = ref.node + ":" + std::to_string(ref.index);
      if (auto it = local.find(key); it != local.end()) {
        ins.push_back(it->second);
      } else {
        auto [e, fresh] = externalOf.try_emplace(key, static_cast<int>(clusterNode.inputs.size()));
        if (fresh) {
          clusterNode.inputs.push_back(ref);
          def.inputs.push_back(typedArg("in" + std::to_string(e->second), types.back()));
          spec.externalTypes.push_back(types.back());
        }
        ins.push_back({ValueRef::kExternal, e->second, 0});
      }
      bufferIndex.push_back(static_cast<int>(k));
    }
    const int index = static_cast<int>(spec.nodes.size());
    const size_t outputs = i < m_shapes.outputs.size() ? m_shapes.outputs[i].size() : 1;
    for (size_t o = 0; o < outputs; ++o)
      local[node.name + ":" + std::to_string(o)] = {ValueRef::kNode, index, static_cast<int>(o)};
    spec.nodes.push_back(node);
    spec.inputs.push_back(std::move(ins));
    spec.bufferInputIndex.push_back(std::move(bufferIndex));
    spec.inputTypes.push_back(std::move(types));
    spec.params.push_back(std::move(params));
    m_part.where[node.name] = "vulkan (" + spec.name + ")";
  }

  // Outputs: values read outside the cluster, or fetched.
  void addOutputs(const std::vector<size_t>& members, ClusterSpec& spec, OpDef& def,
                  const std::map<std::string, ValueRef>& local) {
    std::set<std::string> inCluster;
    for (size_t i : members) inCluster.insert(m_graph.node(i).name);
    auto addOutput = [&](const std::string& key) {
      if (m_rename.count(key) || !local.count(key)) return;
      m_rename[key] = spec.name + ":" + std::to_string(spec.outputs.size());
      def.outputs.push_back(typedArg("out" + std::to_string(spec.outputs.size())));
      spec.outputs.push_back(local.at(key));
    };
    for (size_t i = 0; i < m_n; ++i) {
      if (inCluster.count(m_graph.node(i).name)) continue;
      for (const auto& in : m_graph.node(i).inputs)
        if (inCluster.count(in.node)) addOutput(in.node + ":" + std::to_string(in.index));
    }
    for (const auto& f : m_request.fetches) {
      std::string name = f.find(':') == std::string::npos ? f + ":0" : f;
      if (inCluster.count(name.substr(0, name.rfind(':')))) addOutput(name);
    }
  }

  // The dtype of the value `ref` names, as inferred (float32 where unknown: only float values come from clusters).
  DType inputType(const TensorRef& ref) const {
    const int64_t p = m_graph.find(ref.node);
    const TensorInfo* info = p >= 0 ? m_shapes.find(static_cast<size_t>(p), ref.index) : nullptr;
    return info && info->dtype != DType::kInvalid ? info->dtype : DType::kFloat;
  }

  // The rewritten graph: CPU nodes (inputs from clusters renamed), then the cluster nodes.
  void rewriteGraph() {
    m_part.graph.library = m_graph.library;
    m_part.graph.versions = m_graph.versions;
    for (size_t i = 0; i < m_n; ++i) {
      if (m_cluster[i] >= 0) continue;
      Node node = m_graph.node(i);
      renameInputs(node, m_rename);
      m_part.graph.addNode(std::move(node));
    }
    for (Node& node : m_clusterNodes) {
      renameInputs(node, m_rename);  // an input produced inside another cluster comes from that cluster's node
      m_part.graph.addNode(std::move(node));
    }
    for (const auto& f : m_request.fetches) {
      std::string name = f.find(':') == std::string::npos ? f + ":0" : f;
      if (auto it = m_rename.find(name); it != m_rename.end()) m_part.fetchRenames[f] = it->second;
    }
  }

  const Graph& m_graph;
  const PlacementRequest& m_request;
  std::shared_ptr<VulkanDevice> m_device;
  const size_t m_n;
  const GraphShapes m_shapes;
  Placement m_part;
  std::set<std::string> m_controlSources;
  std::vector<Place> m_place;
  std::vector<size_t> m_order;
  std::vector<std::vector<size_t>> m_consumers;
  std::vector<int> m_cluster;
  int m_clusters = 0;
  std::map<std::string, std::string> m_rename;  // "node:k" inside a cluster -> "vulkan_cluster_c:j"
  std::vector<Node> m_clusterNodes;
};

}  // namespace

std::unique_ptr<OpKernel> makeClusterKernel(std::shared_ptr<ClusterProgram> program) {
  return std::make_unique<ClusterKernel>(std::move(program));
}

Expected<Placement> partitionForVulkan(const Graph& graph, const PlacementRequest& request,
                                       std::shared_ptr<VulkanDevice> device) {
  return Partitioner(graph, request, std::move(device)).run();
}

}  // namespace flowscope::vk
