#include "tools/report/CfgLayout.h"

#include <algorithm>
#include <numeric>

namespace ocelot::report {

CfgLayout::CfgLayout(std::vector<Node> nodes, std::vector<std::pair<uint32_t, uint32_t>> edges,
                     double horizontalGap, double verticalGap)
    : nodes_(std::move(nodes)), edges_(std::move(edges)) {
  const size_t n = nodes_.size();
  placed_.resize(n);
  kinds_.assign(edges_.size(), EdgeKind::Forward);
  if (n == 0)
    return;
  // Edges to nodes that do not exist are dropped from the drawing (a malformed profile).
  std::vector<std::vector<size_t>> out(n);
  for (size_t e = 0; e < edges_.size(); ++e) {
    auto [from, to] = edges_[e];
    if (from >= n || to >= n) {
      kinds_[e] = EdgeKind::Dropped;
      continue;
    }
    if (from == to)
      kinds_[e] = EdgeKind::Self;
    else
      out[from].push_back(e);
  }

  // Back edges: an iterative DFS from the entry, then from any node not reached yet.
  std::vector<uint8_t> state(n, 0); // 0 new, 1 on the stack, 2 done
  std::vector<uint32_t> postOrder;
  for (uint32_t root = 0; root < n; ++root) {
    if (state[root] != 0)
      continue;
    std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
    state[root] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < out[node].size()) {
        size_t e = out[node][next++];
        uint32_t to = edges_[e].second;
        if (state[to] == 1)
          kinds_[e] = EdgeKind::Back;
        else if (state[to] == 0) {
          state[to] = 1;
          stack.emplace_back(to, 0);
        }
      } else {
        state[node] = 2;
        postOrder.push_back(node);
        stack.pop_back();
      }
    }
  }

  // Layers: longest path over forward edges, in reverse post-order (a topological order).
  std::vector<uint32_t> layer(n, 0);
  for (auto it = postOrder.rbegin(); it != postOrder.rend(); ++it)
    for (size_t e : out[*it])
      if (kinds_[e] == EdgeKind::Forward)
        layer[edges_[e].second] = std::max(layer[edges_[e].second], layer[*it] + 1);
  layers_ = *std::max_element(layer.begin(), layer.end()) + 1;

  // Order within layers: start in layout order, then barycenter sweeps down and up.
  std::vector<std::vector<uint32_t>> rows(layers_);
  for (uint32_t v = 0; v < n; ++v)
    rows[layer[v]].push_back(v);
  std::vector<double> position(n, 0);
  auto number = [&] {
    for (const auto& row : rows)
      for (size_t i = 0; i < row.size(); ++i)
        position[row[i]] = static_cast<double>(i);
  };
  number();
  std::vector<std::vector<uint32_t>> up(n), down(n);
  for (size_t e = 0; e < edges_.size(); ++e) {
    if (kinds_[e] != EdgeKind::Forward)
      continue;
    down[edges_[e].first].push_back(edges_[e].second);
    up[edges_[e].second].push_back(edges_[e].first);
  }
  auto sweep = [&](bool downward) {
    for (uint32_t step = 1; step < layers_; ++step) {
      auto& row = rows[downward ? step : layers_ - 1 - step];
      std::vector<std::pair<double, uint32_t>> keyed;
      for (uint32_t v : row) {
        const auto& neighbours = downward ? up[v] : down[v];
        double key = position[v];
        if (!neighbours.empty()) {
          double sum = 0;
          for (uint32_t u : neighbours)
            sum += position[u];
          key = sum / static_cast<double>(neighbours.size());
        }
        keyed.emplace_back(key, v);
      }
      std::stable_sort(keyed.begin(), keyed.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t i = 0; i < keyed.size(); ++i) {
        row[i] = keyed[i].second;
        position[row[i]] = static_cast<double>(i);
      }
    }
  };
  for (int round = 0; round < 4; ++round) {
    sweep(true);
    sweep(false);
  }

  // Coordinates: rows centred on the widest one; each row as tall as its tallest node.
  std::vector<double> rowWidth(layers_, 0), rowHeight(layers_, 0);
  for (uint32_t r = 0; r < layers_; ++r) {
    for (uint32_t v : rows[r]) {
      rowWidth[r] += nodes_[v].width;
      rowHeight[r] = std::max(rowHeight[r], nodes_[v].height);
    }
    rowWidth[r] += horizontalGap * static_cast<double>(rows[r].size() > 0 ? rows[r].size() - 1 : 0);
  }
  double widest = *std::max_element(rowWidth.begin(), rowWidth.end());
  double y = 0;
  for (uint32_t r = 0; r < layers_; ++r) {
    double x = (widest - rowWidth[r]) / 2;
    for (size_t i = 0; i < rows[r].size(); ++i) {
      uint32_t v = rows[r][i];
      placed_[v] = {x + nodes_[v].width / 2, y + rowHeight[r] / 2, r, static_cast<uint32_t>(i)};
      x += nodes_[v].width + horizontalGap;
    }
    y += rowHeight[r] + verticalGap;
  }
  width_ = widest;
  height_ = y - verticalGap;
}

} // namespace ocelot::report
