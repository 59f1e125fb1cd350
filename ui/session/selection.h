// Selection: what the user has selected in the shown graph (a node, or a name scope that the canvas shows as a group).
#pragma once

#include <cstddef>
#include <string>

namespace flowscope {

struct Selection {
  enum class Kind { kNone, kNode, kGroup };
  Kind kind = Kind::kNone;
  size_t node = 0;    ///< index in the shown graph (kNode)
  std::string group;  ///< the scope's path, "model/block_1" (kGroup)

  static Selection ofNode(size_t node) { return {Kind::kNode, node, {}}; }
  static Selection ofGroup(std::string path) { return {Kind::kGroup, 0, std::move(path)}; }
  bool operator==(const Selection&) const = default;
};

}  // namespace flowscope
