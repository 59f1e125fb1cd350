// moveBySize: runs a data-movement loop for a tensor's element size (kernels that only copy elements need not know
// their type), with an error naming the node for strings and unsupported dtypes.
#pragma once

#include <string>

#include "exec/kernel.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {

template <typename F>
Status moveBySize(KernelContext& ctx, const Tensor& like, F&& f) {
  if (like.isStringLike()) return ctx.error("does not support " + std::string(dtypeName(like.dtype())) + " tensors");
  if (!dispatchBySize(like.dtype(), f)) return ctx.error("unsupported dtype " + std::string(dtypeName(like.dtype())));
  return Status::ok();
}

}  // namespace flowscope
