// Background work: clean-up that nobody waits for (freeing a parsed file's arena, trimming the heap after a large
// load) runs in order on one thread of its own, off the path to the user's first paint. The process drains it on
// exit; benchmarks and tests drain it before they measure memory.
#pragma once

#include <functional>
#include <memory>

namespace flowscope {

/// Queues `task` to run on the background thread after the tasks queued before it.
void runInBackground(std::function<void()> task);

/// Destroys `object` on the background thread.
template <class T>
void destroyInBackground(std::unique_ptr<T> object) {
  runInBackground([owned = std::shared_ptr<T>(std::move(object))]() mutable { owned.reset(); });
}

/// Returns once every task queued so far has run.
void waitForBackgroundWork();

}  // namespace flowscope
