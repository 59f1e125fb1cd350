// The layered fallback: layers, row order, then x within each row.
#include "layout/layered_layout.h"

#include <algorithm>
#include <limits>

namespace flowscope {
namespace {

constexpr double kGapX = 20, kGapY = 36;

using Lists = std::vector<std::vector<int>>;

struct Neighbours {
  Lists producers, consumers;
};

Neighbours neighboursOf(size_t n, const std::vector<LayoutEdge>& edges) {
  Neighbours nb{Lists(n), Lists(n)};
  for (const auto& e : edges) {
    if (e.from == e.to) continue;
    nb.consumers[static_cast<size_t>(e.from)].push_back(e.to);
    nb.producers[static_cast<size_t>(e.to)].push_back(e.from);
  }
  return nb;
}

/// Producers before consumers (Kahn's order); when only cycles are left, the lowest-numbered node left goes next.
std::vector<int> topologicalOrder(const Neighbours& nb) {
  const size_t n = nb.producers.size();
  std::vector<int> pending(n), order;
  std::vector<char> queued(n, 0);
  order.reserve(n);
  for (size_t v = 0; v < n; ++v) {
    pending[v] = static_cast<int>(nb.producers[v].size());
    if (pending[v]) continue;
    order.push_back(static_cast<int>(v));
    queued[v] = 1;
  }
  size_t lowestLeft = 0;
  for (size_t head = 0; head < n; ++head) {
    if (head == order.size()) {  // a cycle: break it at its lowest node
      while (queued[lowestLeft]) ++lowestLeft;
      order.push_back(static_cast<int>(lowestLeft));
      queued[lowestLeft] = 1;
    }
    for (int c : nb.consumers[static_cast<size_t>(order[head])]) {
      if (--pending[static_cast<size_t>(c)] != 0 || queued[static_cast<size_t>(c)]) continue;
      order.push_back(c);
      queued[static_cast<size_t>(c)] = 1;
    }
  }
  return order;
}

/// What moves down beside its reader: a source, a constant, and a node fed only by such constants that feeds a
/// single node (a weight's DequantizeLinear, Cast or Identity).
std::vector<char> pulledDown(const Neighbours& nb, const std::vector<LayoutBox>& boxes, const std::vector<int>& order) {
  std::vector<char> weight(boxes.size(), 0), pulled(boxes.size(), 0);
  for (int node : order) {
    const auto v = static_cast<size_t>(node);
    const auto& producers = nb.producers[v];
    weight[v] = producers.empty()
                    ? boxes[v].constant
                    : nb.consumers[v].size() == 1 && std::all_of(producers.begin(), producers.end(),
                                                                 [&](int p) { return weight[static_cast<size_t>(p)]; });
    pulled[v] = !nb.consumers[v].empty() && (weight[v] || producers.empty());
  }
  return pulled;
}

/// Longest path from the sources along the order (a cycle's closing edge ignored), then, last first, each pulled
/// node moves to the layer just above its first reader.
std::vector<int> layersOf(const Neighbours& nb, const std::vector<int>& order, const std::vector<char>& pulled) {
  const size_t n = order.size();
  std::vector<int> layer(n, 0), position(n, 0);
  for (size_t k = 0; k < n; ++k) position[static_cast<size_t>(order[k])] = static_cast<int>(k);
  for (int v : order)
    for (int p : nb.producers[static_cast<size_t>(v)])
      if (position[static_cast<size_t>(p)] < position[static_cast<size_t>(v)])
        layer[static_cast<size_t>(v)] = std::max(layer[static_cast<size_t>(v)], layer[static_cast<size_t>(p)] + 1);
  for (size_t k = n; k-- > 0;) {
    const auto v = static_cast<size_t>(order[k]);
    if (!pulled[v]) continue;
    int first = std::numeric_limits<int>::max();
    for (int c : nb.consumers[v])
      if (position[static_cast<size_t>(c)] > position[v]) first = std::min(first, layer[static_cast<size_t>(c)]);
    if (first != std::numeric_limits<int>::max()) layer[v] = std::max(layer[v], first - 1);
  }
  return layer;
}

double meanOf(const std::vector<int>& nodes, const std::vector<double>& value) {
  double sum = 0;
  for (int v : nodes) sum += value[static_cast<size_t>(v)];
  return sum / static_cast<double>(nodes.size());
}

/// Orders every row by the mean position of each node's neighbours on one side; a node without any keeps its place.
void orderRows(Lists& rows, std::vector<double>& position, const Lists& side) {
  std::vector<double> key(position.size());
  for (auto& row : rows) {
    for (int v : row) {
      const auto& near = side[static_cast<size_t>(v)];
      key[static_cast<size_t>(v)] = near.empty() ? position[static_cast<size_t>(v)] : meanOf(near, position);
    }
    std::stable_sort(row.begin(), row.end(),
                     [&](int a, int b) { return key[static_cast<size_t>(a)] < key[static_cast<size_t>(b)]; });
    for (size_t k = 0; k < row.size(); ++k) position[static_cast<size_t>(row[k])] = static_cast<double>(k);
  }
}

/// Puts a row's boxes (left to right in its order) as near their wanted centres as they can be without overlapping:
/// the mean of the placement packed from the left and the one packed from the right, both of which keep the gaps.
void placeRow(const std::vector<int>& row, const std::vector<double>& wanted, std::vector<LayoutBox>& boxes) {
  const size_t m = row.size();
  auto box = [&](size_t k) -> LayoutBox& { return boxes[static_cast<size_t>(row[k])]; };
  auto left = [&](size_t k) { return wanted[static_cast<size_t>(row[k])] - box(k).w / 2; };
  std::vector<double> fromLeft(m), fromRight(m);
  for (size_t k = 0; k < m; ++k) fromLeft[k] = k ? std::max(left(k), fromLeft[k - 1] + box(k - 1).w + kGapX) : left(k);
  for (size_t k = m; k-- > 0;)
    fromRight[k] = k + 1 < m ? std::min(left(k), fromRight[k + 1] - kGapX - box(k).w) : left(k);
  for (size_t k = 0; k < m; ++k) box(k).x = (fromLeft[k] + fromRight[k]) / 2;
}

double centre(const LayoutBox& b) { return b.x + b.w / 2; }

/// Where a box wants its centre on the way down: over its producers, pulled ones aside (they follow their readers
/// on the way up) unless it has no others; a box without placed producers, after its left neighbour.
double wantedBelow(const Neighbours& nb, const std::vector<char>& pulled, size_t v, const std::vector<double>& centres,
                   const std::vector<char>& placed, double next) {
  double sum = 0, count = 0, sourceSum = 0, sources = 0;
  for (int p : nb.producers[v]) {
    const auto u = static_cast<size_t>(p);
    if (!placed[u]) continue;
    (pulled[u] ? sourceSum : sum) += centres[u];
    ++(pulled[u] ? sources : count);
  }
  return count ? sum / count : sources ? sourceSum / sources : next;
}

/// Top down, each box goes over its producers; then bottom up, each pulled box over its readers.
void placeColumns(const Lists& rows, const Neighbours& nb, const std::vector<char>& pulled,
                  std::vector<LayoutBox>& boxes) {
  std::vector<double> wanted(boxes.size(), 0), centres(boxes.size(), 0);
  std::vector<char> placed(boxes.size(), 0);
  for (const auto& row : rows) {
    double next = 0;
    for (int v : row) {
      const auto u = static_cast<size_t>(v);
      wanted[u] = wantedBelow(nb, pulled, u, centres, placed, next + boxes[u].w / 2);
      next = wanted[u] + boxes[u].w / 2 + kGapX;
    }
    placeRow(row, wanted, boxes);
    for (int v : row) {
      placed[static_cast<size_t>(v)] = 1;
      centres[static_cast<size_t>(v)] = centre(boxes[static_cast<size_t>(v)]);
    }
  }
  for (size_t r = rows.size(); r-- > 0;) {
    bool sources = false;
    for (int v : rows[r]) {
      const auto u = static_cast<size_t>(v);
      wanted[u] = pulled[u] ? meanOf(nb.consumers[u], centres) : centres[u];
      sources = sources || pulled[u];
    }
    if (!sources) continue;
    placeRow(rows[r], wanted, boxes);
    for (int v : rows[r]) centres[static_cast<size_t>(v)] = centre(boxes[static_cast<size_t>(v)]);
  }
}

}  // namespace

Point layeredLayout(std::vector<LayoutBox>& boxes, std::vector<LayoutEdge>& edges) {
  const size_t n = boxes.size();
  const Neighbours nb = neighboursOf(n, edges);
  const std::vector<int> order = topologicalOrder(nb);
  const std::vector<char> pulled = pulledDown(nb, boxes, order);
  const std::vector<int> layer = layersOf(nb, order, pulled);
  Lists rows(n ? static_cast<size_t>(*std::max_element(layer.begin(), layer.end()) + 1) : 0);
  for (size_t v = 0; v < n; ++v) rows[static_cast<size_t>(layer[v])].push_back(static_cast<int>(v));
  std::erase_if(rows, [](const std::vector<int>& row) { return row.empty(); });  // a layer only sources had
  std::vector<double> position(n);
  for (size_t v = 0; v < n; ++v) position[v] = static_cast<double>(v);
  orderRows(rows, position, nb.producers);
  std::reverse(rows.begin(), rows.end());
  orderRows(rows, position, nb.consumers);
  std::reverse(rows.begin(), rows.end());
  orderRows(rows, position, nb.producers);
  placeColumns(rows, nb, pulled, boxes);
  double minX = std::numeric_limits<double>::max(), width = 0, y = 0;
  for (const auto& b : boxes) minX = std::min(minX, b.x);
  for (const auto& row : rows) {
    double rowHeight = 0;
    for (int v : row) {
      LayoutBox& b = boxes[static_cast<size_t>(v)];
      b.x -= minX;
      b.y = y;
      width = std::max(width, b.x + b.w);
      rowHeight = std::max(rowHeight, b.h);
    }
    y += rowHeight + kGapY;
  }
  for (auto& e : edges) {
    const LayoutBox& a = boxes[static_cast<size_t>(e.from)];
    const LayoutBox& b = boxes[static_cast<size_t>(e.to)];
    e.points = {Point{a.x + a.w / 2, a.y + a.h}, Point{b.x + b.w / 2, b.y}};
  }
  return Point{width, std::max(0.0, y - kGapY)};
}

}  // namespace flowscope
