// The process-wide print sink.
#include "exec/print_sink.h"

#include <cstdio>
#include <memory>
#include <mutex>

namespace flowscope {
namespace {

std::mutex gMutex;
std::shared_ptr<const PrintSink> gSink;

}  // namespace

void setPrintSink(PrintSink sink) {
  std::lock_guard lock(gMutex);
  gSink = sink ? std::make_shared<const PrintSink>(std::move(sink)) : nullptr;
}

void printThroughSink(const std::string& text, bool toStderr) {
  std::shared_ptr<const PrintSink> sink;
  {
    std::lock_guard lock(gMutex);
    sink = gSink;
  }
  if (sink) return (*sink)(text, toStderr);
  std::FILE* f = toStderr ? stderr : stdout;
  std::fputs(text.c_str(), f);
  std::fflush(f);
}

}  // namespace flowscope
