// FNV-1a based structural hashing.
#include "ir/hash.h"

#include <cstring>

#include "base/thread_pool.h"

namespace flowscope {
namespace {

class Hasher {
 public:
  // FNV-1a a word at a time; the last partial word is zero-padded (callers hash lengths, so padding is unambiguous).
  void bytes(const void* data, size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (; size >= sizeof(uint64_t); size -= sizeof(uint64_t), p += sizeof(uint64_t)) {
      uint64_t word;
      std::memcpy(&word, p, sizeof word);
      mix(word);
    }
    if (size == 0) return;
    uint64_t tail = 0;
    std::memcpy(&tail, p, size);
    mix(tail);
  }
  void str(const std::string& s) {
    u64(s.size());
    bytes(s.data(), s.size());
  }
  void u64(uint64_t v) { bytes(&v, sizeof v); }
  void i64(int64_t v) { bytes(&v, sizeof v); }
  uint64_t value() const { return m_state; }

 private:
  void mix(uint64_t word) {
    m_state = (m_state ^ word) * 0x100000001b3ull;
    m_state ^= m_state >> 29;
  }

  uint64_t m_state = 0xcbf29ce484222325ull;
};

void hashShape(Hasher& h, const Shape& s) {
  h.u64(s.hasUnknownRank());
  h.u64(s.dims().size());
  for (int64_t d : s.dims()) h.i64(d);
}

void hashTensor(Hasher& h, const Tensor& t) {
  h.u64(static_cast<uint64_t>(t.dtype()));
  hashShape(h, t.shape());
  if (!t.isValid()) return;
  if (t.isStringLike()) {
    for (const auto& s : t.strings()) h.str(s);
  } else {
    auto b = t.bytes();
    h.bytes(b.data(), b.size());
  }
}

void hashAttr(Hasher& h, const AttrValue& v);

void hashFunc(Hasher& h, const FuncAttr& f) {
  h.str(f.name);
  for (const auto& [k, v] : f.attrs) {
    h.str(k);
    hashAttr(h, v);
  }
}

void hashAttr(Hasher& h, const AttrValue& v) {
  h.u64(static_cast<uint64_t>(v.kind()));
  switch (v.kind()) {
    case AttrValue::Kind::kNone:
      break;
    case AttrValue::Kind::kString:
      h.str(v.s());
      break;
    case AttrValue::Kind::kInt:
      h.i64(v.i());
      break;
    case AttrValue::Kind::kFloat: {
      float f = v.f();
      h.bytes(&f, sizeof f);
      break;
    }
    case AttrValue::Kind::kBool:
      h.u64(v.b());
      break;
    case AttrValue::Kind::kType:
      h.u64(static_cast<uint64_t>(v.type()));
      break;
    case AttrValue::Kind::kShape:
      hashShape(h, v.shape());
      break;
    case AttrValue::Kind::kTensor:
      hashTensor(h, v.tensor());
      break;
    case AttrValue::Kind::kFunc:
      hashFunc(h, v.func());
      break;
    case AttrValue::Kind::kPlaceholder:
      h.str(v.placeholder());
      break;
    case AttrValue::Kind::kList: {
      const AttrList& l = v.list();
      h.u64(l.s.size());
      for (const auto& x : l.s) h.str(x);
      h.u64(l.i.size());
      for (auto x : l.i) h.i64(x);
      h.u64(l.f.size());
      for (auto x : l.f) h.bytes(&x, sizeof x);
      h.u64(l.b.size());
      for (bool x : l.b) h.u64(x);
      h.u64(l.type.size());
      for (auto x : l.type) h.u64(static_cast<uint64_t>(x));
      h.u64(l.shape.size());
      for (const auto& x : l.shape) hashShape(h, x);
      h.u64(l.tensor.size());
      for (const auto& x : l.tensor) hashTensor(h, x);
      h.u64(l.func.size());
      for (const auto& x : l.func) hashFunc(h, x);
      break;
    }
  }
}

void hashAttrMap(Hasher& h, const AttrMap& attrs) {
  h.u64(attrs.size());
  for (const auto& [k, v] : attrs) {
    h.str(k);
    hashAttr(h, v);
  }
}

void hashArgs(Hasher& h, const std::vector<ArgDef>& args) {
  h.u64(args.size());
  for (const auto& a : args) {
    h.str(a.name);
    h.u64(static_cast<uint64_t>(a.type));
    h.str(a.typeAttr);
    h.str(a.numberAttr);
    h.str(a.typeListAttr);
    h.u64(a.isRef);
  }
}

// splitmix64's finalizer: spreads a node's hash over all bits before the sum below.
uint64_t scramble(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The nodes as a multiset: a sum of scrambled node hashes does not depend on node order and needs no sort. Nodes
// the cache does not hold are hashed on the intra-op threads (a big graph's first hash reads all its weights).
uint64_t hashNodes(const Graph& graph, NodeHashCache* cache) {
  std::vector<uint64_t> values(graph.size());
  std::vector<uint32_t> misses;
  for (size_t i = 0; i < graph.size(); ++i) {
    const uint64_t* cached = cache ? cache->find(&graph.node(i)) : nullptr;
    if (cached)
      values[i] = *cached;
    else
      misses.push_back(static_cast<uint32_t>(i));
  }
  parallelFor(static_cast<int64_t>(misses.size()), 2000, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k)
      values[misses[static_cast<size_t>(k)]] = hashNode(graph.node(misses[static_cast<size_t>(k)]));
  });
  uint64_t sum = 0;
  NodeHashCache next;
  if (cache) next.reset(graph.size());
  for (size_t i = 0; i < graph.size(); ++i) {
    if (cache) next.insert(&graph.node(i), values[i]);
    sum += scramble(values[i]);
  }
  if (cache) {  // only live nodes: a freed address must not be reused with an old hash
    next.keepBodiesOf(*cache);
    *cache = std::move(next);
  }
  Hasher h;
  h.u64(graph.size());
  h.u64(sum);
  return h.value();
}

}  // namespace

size_t NodeHashCache::slotOf(const Node* node) const {
  const auto bits = reinterpret_cast<uintptr_t>(node);
  return static_cast<size_t>((bits >> 4) * 0x9e3779b97f4a7c15ull >> 17) & (m_slots.size() - 1);
}

const uint64_t* NodeHashCache::find(const Node* node) const {
  if (m_slots.empty()) return nullptr;
  for (size_t s = slotOf(node);; s = (s + 1) & (m_slots.size() - 1)) {
    if (m_slots[s].first == node) return &m_slots[s].second;
    if (!m_slots[s].first) return nullptr;
  }
}

void NodeHashCache::reset(size_t nodes) {
  size_t capacity = 16;
  while (capacity < 2 * nodes) capacity *= 2;  // at most half full
  m_slots.assign(capacity, {nullptr, 0});
  m_size = 0;
}

const uint64_t* NodeHashCache::findBody(const Graph* body) const {
  if (!m_bodies) return nullptr;
  auto it = m_bodies->find(body);
  return it == m_bodies->end() ? nullptr : &it->second.second;
}

void NodeHashCache::insertBody(std::shared_ptr<const Graph> body, uint64_t hash) {
  if (!m_bodies) m_bodies = std::make_shared<BodyHashes>();
  const Graph* key = body.get();
  m_bodies->emplace(key, std::make_pair(std::move(body), hash));
}

void NodeHashCache::insert(const Node* node, uint64_t hash) {
  if (2 * (m_size + 1) > m_slots.size()) {
    auto old = std::move(m_slots);
    reset(2 * (m_size + 1));
    for (const auto& [n, h] : old)
      if (n) insert(n, h);
  }
  size_t s = slotOf(node);
  while (m_slots[s].first && m_slots[s].first != node) s = (s + 1) & (m_slots.size() - 1);
  if (m_slots[s].first) return;
  m_slots[s] = {node, hash};
  ++m_size;
}

uint64_t hashNode(const Node& node) {
  Hasher h;
  h.str(node.name);
  h.str(node.op);
  h.str(node.device);
  h.u64(node.inputs.size());
  for (const auto& in : node.inputs) {
    h.str(in.node);
    h.i64(in.index);
    h.str(in.outputArg);
  }
  h.u64(node.controlInputs.size());
  for (const auto& c : node.controlInputs) h.str(c);
  hashAttrMap(h, node.attrs);
  static const NodeDebugInfo kNone;
  const NodeDebugInfo& debug = node.debugInfo ? *node.debugInfo : kNone;
  h.u64(debug.originalNodeNames.size());
  for (const auto& s : debug.originalNodeNames) h.str(s);
  h.u64(debug.originalFuncNames.size());
  for (const auto& s : debug.originalFuncNames) h.str(s);
  return h.value();
}

namespace {

// A body's node hash, from the cache's body hashes when it has them.
uint64_t hashBody(const std::shared_ptr<Graph>& body, NodeHashCache* cache) {
  if (const uint64_t* known = cache ? cache->findBody(body.get()) : nullptr) return *known;
  const uint64_t hash = hashNodes(*body, nullptr);
  if (cache) cache->insertBody(body, hash);
  return hash;
}

uint64_t hashFunctionWith(const FunctionDef& f, NodeHashCache* cache) {
  Hasher h;
  const OpDef& sig = f.signature;
  h.str(sig.name);
  hashArgs(h, sig.inputs);
  hashArgs(h, sig.outputs);
  h.u64(sig.attrs.size());
  for (const auto& a : sig.attrs) {
    h.str(a.name);
    h.str(a.type);
    if (a.defaultValue) hashAttr(h, *a.defaultValue);
  }
  for (const auto& c : sig.controlOutputs) h.str(c);
  h.u64(sig.isStateful);
  hashAttrMap(h, f.attrs);
  for (const auto& [index, attrs] : f.argAttrs) {
    h.u64(index);
    hashAttrMap(h, attrs);
  }
  for (const auto& [k, v] : f.resourceArgUniqueIds) {
    h.u64(k);
    h.u64(v);
  }
  h.u64(f.body ? hashBody(f.body, cache) : 0);
  for (const auto& [k, v] : f.ret) {
    h.str(k);
    h.str(v);
  }
  for (const auto& [k, v] : f.controlRet) {
    h.str(k);
    h.str(v);
  }
  return h.value();
}

}  // namespace

uint64_t hashFunction(const FunctionDef& f) { return hashFunctionWith(f, nullptr); }

uint64_t hashAttrs(const AttrMap& attrs) {
  Hasher h;
  hashAttrMap(h, attrs);
  return h.value();
}

uint64_t hashGraph(const Graph& graph, NodeHashCache* cache) {
  Hasher h;
  h.u64(hashNodes(graph, cache));
  h.u64(graph.versions.present);
  h.i64(graph.versions.producer);
  h.i64(graph.versions.minConsumer);
  for (auto b : graph.versions.badConsumers) h.i64(b);
  h.u64(graph.library.size());
  for (const auto& f : graph.library.functions()) h.u64(hashFunctionWith(f, cache));
  for (const auto& g : graph.library.gradients) {
    h.str(g.functionName);
    h.str(g.gradientFunc);
  }
  for (const auto& g : graph.library.registeredGradients) {
    h.str(g.functionName);
    h.str(g.gradientFunc);
  }
  h.str(graph.debugInfo);
  for (const auto& [tensor, name] : graph.tensorNames) {
    h.str(tensor);
    h.str(name);
  }
  return h.value();
}

}  // namespace flowscope
