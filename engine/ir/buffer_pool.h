// The per-thread pool that recycles tensor buffers (ir/tensor.cpp). A freed buffer goes to the pool of the thread that
// frees it, up to 512 MiB per thread, and only that thread takes it back; a long-lived thread that is done with a
// batch of work (the app's engine worker after each job, the UI thread after closing a document) gives it back here.
#pragma once

#include <cstddef>

namespace flowscope {

/// Frees the buffers the calling thread's pool keeps for reuse (tensors still alive are untouched); returns the bytes.
size_t releaseCachedTensorBuffers();

}  // namespace flowscope
