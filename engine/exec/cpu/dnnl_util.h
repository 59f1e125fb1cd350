// oneDNN plumbing: the process-wide CPU engine, a per-thread stream, and memory descriptors with explicit
// strides (so TensorFlow's NHWC / HWIO layouts map without guessing format tags).
#pragma once

#include <dnnl.hpp>

#include <vector>

#include "ir/dtype.h"

namespace flowscope::dnnl_util {

dnnl::engine& engine();
dnnl::stream& stream();

/// oneDNN's data type for a dtype; undef when oneDNN cannot take it.
dnnl::memory::data_type dataType(DType dtype);
/// A descriptor for `dims` laid out with `strides` (elements).
dnnl::memory::desc desc(const std::vector<int64_t>& dims, DType dtype, const std::vector<int64_t>& strides);
/// Row-major (dense) descriptor.
dnnl::memory::desc dense(const std::vector<int64_t>& dims, DType dtype);

/// The eltwise post-op for a TensorFlow activation name; false when there is none.
bool activationPostOp(const std::string& activation, float leakyAlpha, dnnl::post_ops* ops);

}  // namespace flowscope::dnnl_util
