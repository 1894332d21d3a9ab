#pragma once

// Helpers and reference algorithms shared by the pass tests. The reference algorithms are the
// oracles: deliberately simple, sharing no code with the implementations they check.

#include "ir/Casting.h"
#include "ir/Emitter.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/RegisterAccess.h"
#include "passes/ControlFlowGraph.h"
#include "tests/support/Ptxas.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace ocelot::test {

/// Parses `text`, failing the test with the diagnostics when it does not parse.
inline std::unique_ptr<ir::Module> parseOrFail(std::string_view text) {
  ir::ParseResult result = ir::parsePtx(text, "<test>");
  if (!result.ok()) {
    ADD_FAILURE() << "parse failed: " << result.firstError();
    return nullptr;
  }
  return std::move(result.module);
}

/// A module with one kernel `k` whose body is `body`, with the usual register declarations.
inline std::string kernel(std::string_view body, std::string_view target = "sm_90") {
  return ".version 9.0\n.target " + std::string(target) +
         "\n.address_size 64\n"
         ".visible .entry k(.param .u64 k_param_0)\n{\n"
         "\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<32>;\n"
         "\t.reg .f32 %f<16>;\n" +
         std::string(body) + "\n}\n";
}

// --- Reference dominators ------------------------------------------------------------------------

/// Immediate (post-)dominators by the textbook iterative set algorithm:
///   Dom(root) = {root};  Dom(n) = {n} ∪ ⋂ Dom(p) over the (reachable) predecessors p of n,
/// iterated to a fixed point; idom(n) is the strict dominator whose own set is Dom(n) − {n}.
/// `extraRootEdges` are edges root -> x added in the tree's direction (the post-dominator tree's
/// virtual exit edges). kNone for the root and for nodes the root does not reach.
inline std::vector<passes::ControlFlowGraph::Node>
referenceIdoms(const passes::ControlFlowGraph& cfg, bool post,
               const std::vector<passes::ControlFlowGraph::Node>& extraRootEdges = {}) {
  using Node = passes::ControlFlowGraph::Node;
  const size_t n = cfg.size();
  const Node root = post ? cfg.exit() : cfg.entry();
  std::vector<std::vector<Node>> preds(n), succs(n);
  for (Node x = 0; x < n; ++x)
    for (const auto& e : cfg.successors(x)) {
      Node from = post ? e.to : e.from, to = post ? e.from : e.to;
      succs[from].push_back(to);
      preds[to].push_back(from);
    }
  for (Node x : extraRootEdges) {
    succs[root].push_back(x);
    preds[x].push_back(root);
  }
  // Reachability from the root.
  std::vector<bool> reached(n, false);
  std::vector<Node> work{root};
  reached[root] = true;
  while (!work.empty()) {
    Node x = work.back();
    work.pop_back();
    for (Node y : succs[x])
      if (!reached[y]) {
        reached[y] = true;
        work.push_back(y);
      }
  }
  const size_t words = (n + 63) / 64;
  std::vector<std::vector<uint64_t>> dom(n, std::vector<uint64_t>(words, ~uint64_t{0}));
  dom[root].assign(words, 0);
  dom[root][root / 64] |= uint64_t{1} << (root % 64);
  for (bool changed = true; changed;) {
    changed = false;
    for (Node x = 0; x < n; ++x) {
      if (x == root || !reached[x])
        continue;
      std::vector<uint64_t> set(words, ~uint64_t{0});
      for (Node p : preds[x])
        if (reached[p])
          for (size_t w = 0; w < words; ++w)
            set[w] &= dom[p][w];
      set[x / 64] |= uint64_t{1} << (x % 64);
      if (set != dom[x]) {
        dom[x] = std::move(set);
        changed = true;
      }
    }
  }
  std::vector<size_t> count(n, 0);
  for (Node x = 0; x < n; ++x)
    for (uint64_t w : dom[x])
      count[x] += static_cast<size_t>(__builtin_popcountll(w));
  std::vector<Node> idom(n, passes::ControlFlowGraph::kNone);
  for (Node x = 0; x < n; ++x) {
    if (x == root || !reached[x])
      continue;
    // The strict dominator with the most dominators of its own is the closest one.
    size_t best = 0;
    for (Node d = 0; d < n; ++d)
      if (d != x && ((dom[x][d / 64] >> (d % 64)) & 1) && count[d] > best) {
        best = count[d];
        idom[x] = d;
      }
  }
  return idom;
}

// --- Instruction-level paths for brute-force dataflow
// ---------------------------------------------

/// A program point: instruction `index` of the block of node `node`.
struct Point {
  passes::ControlFlowGraph::Node node;
  size_t index;
  friend auto operator<=>(const Point&, const Point&) = default;
};

/// Instructions of each block, for walking the program instruction by instruction.
class InstructionGraph {
public:
  explicit InstructionGraph(const passes::ControlFlowGraph& cfg) : cfg_(cfg) {
    instructions_.resize(cfg.size());
    for (passes::ControlFlowGraph::Node n = 0; n < cfg.blockCount(); ++n)
      cfg.block(n)->forEachInstruction(
          [&](const ir::Instruction& inst) { instructions_[n].push_back(&inst); });
  }
  const ir::Instruction& at(Point p) const { return *instructions_[p.node][p.index]; }
  const std::vector<const ir::Instruction*>& of(passes::ControlFlowGraph::Node n) const {
    return instructions_[n];
  }

  /// The points that can run right after `p`; `reachesExit` is set when the function can end.
  std::vector<Point> successors(Point p, bool& reachesExit) const {
    if (p.index + 1 < instructions_[p.node].size())
      return {Point{p.node, p.index + 1}};
    return firstPoints(cfg_.successors(p.node), reachesExit);
  }
  /// The points that can run right before `p` (from reachable blocks only); `reachesEntry` is
  /// set when `p` can be first.
  std::vector<Point> predecessors(Point p, bool& reachesEntry) const {
    if (p.index > 0)
      return {Point{p.node, p.index - 1}};
    std::vector<Point> result;
    std::set<passes::ControlFlowGraph::Node> seen;
    std::vector<passes::ControlFlowGraph::Node> work{p.node};
    while (!work.empty()) {
      auto x = work.back();
      work.pop_back();
      for (const auto& e : cfg_.predecessors(x)) {
        if (!cfg_.isReachable(e.from))
          continue; // no execution comes that way
        if (e.from == cfg_.entry()) {
          reachesEntry = true;
        } else if (!instructions_[e.from].empty()) {
          result.push_back(Point{e.from, instructions_[e.from].size() - 1});
        } else if (seen.insert(e.from).second) {
          work.push_back(e.from); // an empty block: look through it
        }
      }
    }
    return result;
  }

private:
  std::vector<Point> firstPoints(std::span<const passes::ControlFlowGraph::Edge> edges,
                                 bool& reachesExit) const {
    std::vector<Point> result;
    std::set<passes::ControlFlowGraph::Node> seen;
    std::vector<passes::ControlFlowGraph::Edge> work(edges.begin(), edges.end());
    while (!work.empty()) {
      auto e = work.back();
      work.pop_back();
      if (e.to == cfg_.exit()) {
        reachesExit = true;
      } else if (!instructions_[e.to].empty()) {
        result.push_back(Point{e.to, 0});
      } else if (seen.insert(e.to).second) {
        for (const auto& next : cfg_.successors(e.to))
          work.push_back(next);
      }
    }
    return result;
  }

  const passes::ControlFlowGraph& cfg_;
  std::vector<std::vector<const ir::Instruction*>> instructions_;
};

/// How instruction `inst` touches `reg`: read, written, killed.
struct Touch {
  bool read = false, written = false, kills = false;
};
inline Touch touches(const ir::Instruction& inst, ir::RegisterRef reg) {
  Touch t;
  ir::forEachRegisterAccess(inst, [&](const ir::RegisterRef& ref, const ir::RegisterAccess& a) {
    if (ref != reg)
      return;
    t.read |= a.read;
    t.written |= a.written;
    t.kills |= a.kills;
  });
  return t;
}

/// Brute force: is `reg` live just before point `p`? True when some path from `p` reads `reg`
/// before an instruction kills it (or reaches the exit with `liveAtExit`).
inline bool bruteForceLiveBefore(const InstructionGraph& graph, Point p, ir::RegisterRef reg,
                                 bool liveAtExit) {
  std::set<Point> seen{p};
  std::vector<Point> work{p};
  while (!work.empty()) {
    Point x = work.back();
    work.pop_back();
    Touch t = touches(graph.at(x), reg);
    if (t.read)
      return true;
    if (t.kills)
      continue;
    bool exits = false;
    for (Point y : graph.successors(x, exits))
      if (seen.insert(y).second)
        work.push_back(y);
    if (exits && liveAtExit)
      return true;
  }
  return false;
}

/// Brute force: the writes of `reg` that can reach a read of it at `p` (nullptr: the entry value),
/// walking backwards until a killing write on every path.
inline std::set<const ir::Instruction*>
bruteForceReachingDefinitions(const InstructionGraph& graph, Point p, ir::RegisterRef reg) {
  std::set<const ir::Instruction*> result;
  std::set<Point> seen;
  std::vector<Point> work;
  auto pushPredecessors = [&](Point x) {
    bool entry = false;
    for (Point y : graph.predecessors(x, entry))
      if (seen.insert(y).second)
        work.push_back(y);
    if (entry)
      result.insert(nullptr);
  };
  pushPredecessors(p);
  while (!work.empty()) {
    Point x = work.back();
    work.pop_back();
    Touch t = touches(graph.at(x), reg);
    if (t.written)
      result.insert(&graph.at(x));
    if (t.kills)
      continue;
    pushPredecessors(x);
  }
  return result;
}

} // namespace ocelot::test
