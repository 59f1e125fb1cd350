// oneDNN plumbing: the process-wide CPU engine, a per-thread stream, and memory descriptors with explicit
// strides (so TensorFlow's NHWC / HWIO layouts map without guessing format tags).
#pragma once

#include <dnnl.hpp>

#include <array>
#include <initializer_list>
#include <vector>

#include "base/huge_pages.h"
#include "ir/dtype.h"

namespace flowscope::dnnl_util {

dnnl::engine& engine();
dnnl::stream& stream();

/// Every primitive we keep takes its scratchpad from us (scratchpad_mode::user; a dnnl::memory of
/// pd.scratchpad_desc() made with a null handle, passed as DNNL_ARG_SCRATCHPAD): with oneDNN's own per-thread one,
/// MobileNetV2's first convolution (im2col over a plain NCHW input) read a null scratchpad when the inter-op executor
/// ran it on a worker thread in a later run. This points `scratchpad` at the calling thread's buffer, grown to its
/// size there: the primitives a thread runs one after another share one warm buffer, as with oneDNN's.
void bindThreadScratchpad(dnnl::memory& scratchpad);

/// A memory of `desc` for a kernel's packed weights, over bytes of the packed arena (base/huge_pages.h), which
/// `owner` now holds: a model's weight buffers share huge pages.
dnnl::memory packedMemory(const dnnl::memory::desc& desc, PackedBytes* owner);

/// A primitive's arguments, run on this thread's stream. oneDNN's C++ execute takes an std::unordered_map, built and
/// freed on every call (about 0.8 us: a tenth of one of Silero VAD's small convolutions); this keeps them in an array
/// for its C API.
class ExecArgs {
 public:
  struct Arg {
    Arg(int which, const dnnl::memory& memory) : arg{which, memory.get()} {}  // NOLINT: reads as the pair it is
    dnnl_exec_arg_t arg;
  };
  ExecArgs(std::initializer_list<Arg> args);
  void add(int which, const dnnl::memory& memory);
  /// Throws dnnl::error as the C++ execute does.
  void run(const dnnl::primitive& primitive) const;

 private:
  std::array<dnnl_exec_arg_t, 8> m_args{};
  int m_count = 0;
};

/// A reorder from `from` into `to` on this thread's stream, through ExecArgs.
void reorder(const dnnl::reorder& primitive, const dnnl::memory& from, const dnnl::memory& to);

/// oneDNN's data type for a dtype; undef when oneDNN cannot take it.
dnnl::memory::data_type dataType(DType dtype);
/// A descriptor for `dims` laid out with `strides` (elements).
dnnl::memory::desc desc(const std::vector<int64_t>& dims, DType dtype, const std::vector<int64_t>& strides);
/// Row-major (dense) descriptor.
dnnl::memory::desc dense(const std::vector<int64_t>& dims, DType dtype);

/// A primitive's activations in the layouts it chose, where those differ from the tensors' (NHWC, or the CPU
/// placement's blocked one): reordered into them before it runs and back after, each side on its own.
struct BlockedIo {
  bool srcUsed = false, dstUsed = false;
  dnnl::memory src, dst;  // in the primitive's layouts
  dnnl::reorder toBlocked, fromBlocked, toBlockedDestination;

  /// Sets up the reorders when the primitive's layouts (`src`, `dst`) are not those of userSrc and userDst.
  void prepare(const dnnl::memory& userSrc, const dnnl::memory& userDst, const dnnl::memory::desc& src,
               const dnnl::memory::desc& dst);
  /// The memories the primitive reads and writes: the user's, or the blocked ones (userSrc reordered in first).
  const dnnl::memory& sourceFor(dnnl::memory& userSrc);
  const dnnl::memory& destinationFor(const dnnl::memory& userDst) const { return dstUsed ? dst : userDst; }
  /// Before a primitive with a sum post-op: what userDst holds, reordered into the blocked destination if used.
  void loadDestination(dnnl::memory& userDst);
  /// After the primitive: its output reordered into userDst where it wrote a blocked one.
  void finish(dnnl::memory& userDst);
};

/// The eltwise post-op for a TensorFlow activation name; false when there is none.
bool activationPostOp(const std::string& activation, float leakyAlpha, dnnl::post_ops* ops);

}  // namespace flowscope::dnnl_util
