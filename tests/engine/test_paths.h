// Where tests find their files: the small graphs in tests/data and the corpus in ../shared/graphs.
#pragma once

#include <QtTest>

#include <filesystem>
#include <memory>
#include <string>

#include "io/loader.h"

namespace flowscope::testing {

inline std::string dataFile(const std::string& name) { return std::string(FLOWSCOPE_TEST_DATA) + "/" + name; }
inline std::string corpus(const std::string& path) { return std::string(FLOWSCOPE_SHARED_GRAPHS) + "/" + path; }
inline bool haveCorpus() { return std::filesystem::exists(FLOWSCOPE_SHARED_GRAPHS); }

/// Loads a model or fails the test run, naming the file.
inline std::shared_ptr<const Model> loadForTest(const std::string& path) {
  auto m = loadModel(path);
  if (!m) qFatal("load %s: %s", path.c_str(), m.status().message().c_str());
  return std::make_shared<const Model>(std::move(m).value());
}

}  // namespace flowscope::testing
