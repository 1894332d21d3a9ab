#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ocelot::report {

/// A layered (Sugiyama-style) drawing of a control-flow graph, top to bottom: back edges (found
/// by a depth-first search from node 0, the entry) are reversed, every node goes to the layer of
/// its longest path from the entry, nodes of a layer are ordered by the barycenter of their
/// neighbours in a few sweeps to reduce crossings, then placed left to right. Back edges are
/// drawn on the right of the graph, so loops show as arcs going up.
class CfgLayout {
public:
  struct Node {
    double width = 0, height = 0;
  };
  /// Dropped: an edge to a node that does not exist (a malformed profile), not drawn.
  enum class EdgeKind { Forward, Back, Self, Dropped };
  struct Placed {
    double x = 0, y = 0; ///< the node's centre
    uint32_t layer = 0, order = 0;
  };

  CfgLayout(std::vector<Node> nodes, std::vector<std::pair<uint32_t, uint32_t>> edges,
            double horizontalGap = 28, double verticalGap = 40);

  const std::vector<Placed>& positions() const { return placed_; }
  const std::vector<std::pair<uint32_t, uint32_t>>& edges() const { return edges_; }
  EdgeKind kind(size_t edge) const { return kinds_[edge]; }
  double width() const { return width_; }
  double height() const { return height_; }
  uint32_t layers() const { return layers_; }

private:
  std::vector<Node> nodes_;
  std::vector<std::pair<uint32_t, uint32_t>> edges_;
  std::vector<EdgeKind> kinds_;
  std::vector<Placed> placed_;
  double width_ = 0, height_ = 0;
  uint32_t layers_ = 0;
};

} // namespace ocelot::report
