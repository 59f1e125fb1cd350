// The oneDNN convolutions of a kernel that runs a convolution in bands of rows (conv_max_pool.h,
// depthwise_pointwise.h): one primitive per band shape, the filter reordered once per filter tensor into each
// weights layout those primitives want, and the memories through which one thread binds a band's data.
#pragma once

#include <map>
#include <string_view>
#include <vector>

#include "exec/cpu/dnnl_util.h"
#include "exec/cpu/fused_epilogue.h"
#include "ir/tensor.h"

namespace flowscope {

/// oneDNN's 1x1 convolution of a band of `pixels` channels-last pixels, seen as one row, from `c` to `oc` channels:
/// a bias, then the fused Add of `spec` as a sum post-op and its activation.
dnnl::convolution_forward::primitive_desc pointwiseBandDesc(int64_t pixels, int64_t c, int64_t oc,
                                                            const FusedSpec& spec);

/// What one thread binds a band's source and destination to (handles set per band).
struct BandMemories {
  dnnl::memory src, dst, scratchpad;
};

template <class Key>
class BandConvolutions {
 public:
  /// Forgets every primitive; `userWeights` describes the filter as the node holds it, with `channels` biases.
  void reset(const dnnl::memory::desc& userWeights, int64_t channels) {
    m_primitives.clear();
    m_weights.clear();
    m_userWeights = dnnl::memory(userWeights, dnnl_util::engine(), nullptr);
    m_bias = dnnl::memory(dnnl_util::dense({channels}, DType::kFloat), dnnl_util::engine(), nullptr);
    m_weightsFrom = Tensor();
  }

  bool has(const Key& key) const { return m_primitives.count(key) != 0; }

  /// Adds `key`'s primitive, with a copy of the weights in its layout unless another has that one. False where
  /// oneDNN has only its reference kernel for it (a thousand times slower).
  bool add(const Key& key, const dnnl::convolution_forward::primitive_desc& pd) {
    if (std::string_view(pd.impl_info_str()).starts_with("ref")) return false;
    size_t copy = 0;
    while (copy < m_weights.size() && m_weights[copy].memory.get_desc() != pd.weights_desc()) ++copy;
    if (copy == m_weights.size()) {
      dnnl::memory memory(pd.weights_desc(), dnnl_util::engine());
      m_weights.push_back({memory, dnnl::reorder(m_userWeights, memory)});
    }
    m_primitives.emplace(key, Primitive{pd, dnnl::convolution_forward(pd), copy});
    return true;
  }

  /// Memories for one thread to run `key`'s primitive with.
  BandMemories memoriesFor(const Key& key) const {
    const auto& pd = m_primitives.at(key).pd;
    const dnnl::engine& engine = dnnl_util::engine();
    return {dnnl::memory(pd.src_desc(), engine, nullptr), dnnl::memory(pd.dst_desc(), engine, nullptr),
            dnnl::memory(pd.scratchpad_desc(), engine, nullptr)};
  }

  /// The filter and bias of the next runs: the filter reordered into each copy unless it is the tensor they hold.
  void load(const Tensor& filter, const Tensor& bias) {
    if (!m_weightsFrom.isValid() || m_weightsFrom.bytes().data() != filter.bytes().data()) {
      m_userWeights.set_data_handle(const_cast<float*>(filter.data<float>()));
      for (WeightCopy& copy : m_weights) dnnl_util::reorder(copy.reorder, m_userWeights, copy.memory);
      dnnl_util::stream().wait();
      m_weightsFrom = filter;
    }
    m_bias.set_data_handle(const_cast<float*>(bias.data<float>()));
  }

  /// `key`'s convolution from src to dst, on the calling thread, through its memories `m`.
  void run(const Key& key, BandMemories& m, const float* src, float* dst) const {
    const Primitive& p = m_primitives.at(key);
    m.src.set_data_handle(const_cast<float*>(src));
    m.dst.set_data_handle(dst);
    dnnl_util::bindThreadScratchpad(m.scratchpad);
    dnnl_util::ExecArgs{{DNNL_ARG_SRC, m.src},
                        {DNNL_ARG_WEIGHTS, m_weights[p.weights].memory},
                        {DNNL_ARG_BIAS, m_bias},
                        {DNNL_ARG_DST, m.dst},
                        {DNNL_ARG_SCRATCHPAD, m.scratchpad}}
        .run(p.primitive);
    dnnl_util::stream().wait();
  }

 private:
  struct Primitive {
    dnnl::convolution_forward::primitive_desc pd;
    dnnl::convolution_forward primitive;
    size_t weights = 0;  // which copy of the weights it reads
  };
  struct WeightCopy {
    dnnl::memory memory;
    dnnl::reorder reorder;
  };
  std::map<Key, Primitive> m_primitives;
  std::vector<WeightCopy> m_weights;
  dnnl::memory m_userWeights, m_bias;
  Tensor m_weightsFrom;  // the filter m_weights were reordered from (kept alive so its address stays its own)
};

}  // namespace flowscope
