// Graphviz dot through libgvc (with the dot plugin linked in, so no plugin configuration is needed). Graphviz
// is not thread-safe: calls are serialized.
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "layout/layout_box.h"

namespace flowscope {

/// Ranks top to bottom. Returns the drawing's width and height.
Point dotLayout(std::vector<LayoutBox>& boxes, std::vector<LayoutEdge>& edges);
/// dotLayout remembered by its input (box sizes and edges, in order): a structure that repeats (the same block in
/// every layer of a network) runs Graphviz once. Only small drawings are kept. Thread-safe.
class DotMemo {
 public:
  static constexpr size_t kMaxBoxes = 64;
  Point layout(std::vector<LayoutBox>& boxes, std::vector<LayoutEdge>& edges);
  /// Drawings remembered.
  size_t size() const;

 private:
  struct Entry {
    Point size;
    std::vector<LayoutBox> boxes;
    std::vector<LayoutEdge> edges;
  };
  mutable std::mutex m_mutex;
  std::unordered_map<std::string, Entry> m_entries;
};

}  // namespace flowscope
