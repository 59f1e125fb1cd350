// Where tf.print's output goes (the PrintV2 kernel): stdout/stderr by default, or a function the host installs (the
// Python module writes to Python's sys.stdout/sys.stderr, so tf.print lines stay in order with Python's print and
// can be captured like them).
#pragma once

#include <functional>
#include <string>

namespace flowscope {

/// text: what to print (its end included); toStderr: the op's output_stream is stderr.
using PrintSink = std::function<void(const std::string& text, bool toStderr)>;

/// Installs `sink` for the whole process (empty: back to stdout/stderr).
void setPrintSink(PrintSink sink);
/// Prints through the sink.
void printThroughSink(const std::string& text, bool toStderr);

}  // namespace flowscope
