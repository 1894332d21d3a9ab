#include "passes/CfgPrinter.h"

#include "ir/Emitter.h"
#include "passes/AnalysisManager.h"
#include "passes/DominatorTree.h"
#include "passes/LoopInfo.h"
#include "passes/SourceLines.h"

#include <algorithm>

namespace ocelot::passes {

namespace {

using Node = ControlFlowGraph::Node;

/// Consecutive blocks [first, last].
using Run = std::pair<Node, Node>;

/// "B1 B2 B3"; a run of more than four consecutive blocks is written "B10..B99" (deep loop nests
/// list their thousands of blocks per loop otherwise: quadratic output).
std::string nodeList(const ControlFlowGraph& cfg, const std::vector<Run>& runs) {
  constexpr Node kLongestListedRun = 4;
  std::string text;
  for (const auto& [first, last] : runs) {
    if (last - first + 1 > kLongestListedRun) {
      text += (text.empty() ? "" : " ") + cfg.name(first) + ".." + cfg.name(last);
    } else {
      for (Node n = first; n <= last; ++n)
        text += (text.empty() ? "" : " ") + cfg.name(n);
    }
  }
  return text.empty() ? "none" : text;
}

std::string nodeList(const ControlFlowGraph& cfg, const std::vector<Node>& nodes) {
  std::vector<Run> runs;
  for (Node n : nodes)
    if (!runs.empty() && runs.back().second + 1 == n && !cfg.isVirtual(n))
      runs.back().second = n;
    else
      runs.emplace_back(n, n);
  return nodeList(cfg, runs);
}

/// Per loop, its blocks (inner loops' included) as sorted runs, merged up from the inner loops:
/// in a deep nest every loop is one run, where listing each loop's blocks is quadratic.
std::vector<std::vector<Run>> loopRuns(const ControlFlowGraph& cfg, const LoopInfo& loops) {
  std::vector<std::vector<Run>> runs(loops.loops().size());
  auto append = [](std::vector<Run>& into, Run run) {
    if (!into.empty() && into.back().second + 1 >= run.first)
      into.back().second = std::max(into.back().second, run.second);
    else
      into.push_back(run);
  };
  for (Node n = 0; n < cfg.blockCount(); ++n)
    if (uint32_t loop = loops.loopIndexFor(n); loop != Loop::kNoLoop)
      append(runs[loop], {n, n});
  std::vector<Run> merged;
  for (size_t l = runs.size(); l-- > 0;) { // inner loops come after the loops around them
    uint32_t parent = loops.loops()[l].parent;
    if (parent == Loop::kNoLoop)
      continue;
    merged.clear();
    const auto& a = runs[parent];
    const auto& b = runs[l];
    size_t i = 0, k = 0;
    while (i < a.size() || k < b.size())
      append(merged, k == b.size() || (i < a.size() && a[i].first < b[k].first) ? a[i++] : b[k++]);
    runs[parent].swap(merged);
  }
  return runs;
}

/// Indentation for nesting `depth`: two spaces a level up to 64 levels; deeper lines stay at that
/// column (a 20k-deep nest would otherwise print gigabytes of blanks) and, in text for people,
/// say their depth.
std::string indentation(size_t base, size_t depth, bool sayDeepDepth = true) {
  constexpr size_t kDeepest = 64;
  if (depth <= kDeepest)
    return std::string(base + 2 * depth, ' ');
  std::string pad(base + 2 * kDeepest, ' ');
  return sayDeepDepth ? pad + "[depth " + std::to_string(depth) + "] " : pad;
}

/// Per loop, the source lines of its blocks as one (first, last) pair per file: enough for
/// SourceLineMap::describe, and computed from the inner loops' pairs instead of every block of
/// every loop again.
std::vector<std::vector<ir::SourceLoc>>
loopLineRanges(const ControlFlowGraph& cfg, const LoopInfo& loops, const SourceLineMap& lines) {
  std::vector<std::vector<ir::SourceLoc>> ranges(loops.loops().size());
  auto merge = [](std::vector<ir::SourceLoc>& into, const ir::SourceLoc& line) {
    for (size_t i = 0; i < into.size(); i += 2)
      if (into[i].file == line.file) {
        into[i].line = std::min(into[i].line, line.line);
        into[i + 1].line = std::max(into[i + 1].line, line.line);
        return;
      }
    into.push_back(line);
    into.push_back(line);
  };
  for (Node n = 0; n < cfg.blockCount(); ++n)
    if (uint32_t loop = loops.loopIndexFor(n); loop != Loop::kNoLoop)
      for (const ir::SourceLoc& line : lines.lines(n))
        merge(ranges[loop], line);
  for (size_t l = ranges.size(); l-- > 0;) // inner loops come after the loops around them
    if (uint32_t parent = loops.loops()[l].parent; parent != Loop::kNoLoop)
      for (const ir::SourceLoc& line : ranges[l])
        merge(ranges[parent], line);
  for (auto& range : ranges)
    std::sort(range.begin(), range.end(), [](const ir::SourceLoc& a, const ir::SourceLoc& b) {
      return a.file != b.file ? a.file < b.file : a.line < b.line;
    });
  return ranges;
}

size_t instructionCount(const ir::BasicBlock& block) {
  size_t count = 0;
  block.forEachInstruction([&](const ir::Instruction&) { ++count; });
  return count;
}

} // namespace

std::string printCfgText(ir::Function& function, AnalysisManager& analyses) {
  const auto& cfg = analyses.getResult<ControlFlowGraphAnalysis>(function);
  const auto& dom = analyses.getResult<DominatorTreeAnalysis>(function);
  const auto& postdom = analyses.getResult<PostDominatorTreeAnalysis>(function);
  const auto& loops = analyses.getResult<LoopAnalysis>(function);
  const auto& lines = analyses.getResult<SourceLineAnalysis>(function);

  std::string out =
      "function " + std::string(function.name()) + (function.isEntry() ? " (.entry)" : " (.func)") +
      ": " + std::to_string(cfg.blockCount()) + " blocks, " + std::to_string(cfg.edgeCount()) +
      " edges, " + std::to_string(loops.loops().size()) + " loops\n";
  auto printNode = [&](Node n) {
    out += "\n" + cfg.name(n, true);
    if (!cfg.isVirtual(n)) {
      out += "  " + std::to_string(instructionCount(*cfg.block(n))) + " instructions";
      std::string where = lines.describe(lines.lines(n));
      if (!where.empty())
        out += "  lines " + where;
    }
    out += "\n";
    if (dom.idom(n) != DominatorTree::kNone)
      out += "  idom " + cfg.name(dom.idom(n));
    if (postdom.idom(n) != DominatorTree::kNone)
      out += "  ipdom " + cfg.name(postdom.idom(n));
    if (!cfg.isVirtual(n)) {
      out += "  loop depth " + std::to_string(loops.depth(n));
      if (loops.isHeader(n))
        out += " (header)";
      if (!cfg.isReachable(n))
        out += "  unreachable";
    }
    out += "\n";
    if (!cfg.successors(n).empty()) {
      out += "  ->";
      for (const auto& e : cfg.successors(n))
        out += " " + cfg.name(e.to) + " (" + std::string(edgeKindName(e.kind)) + ")";
      out += "\n";
    }
    if (!cfg.predecessors(n).empty()) {
      out += "  <-";
      for (const auto& e : cfg.predecessors(n))
        out += " " + cfg.name(e.from);
      out += "\n";
    }
  };
  printNode(cfg.entry());
  for (Node n = 0; n < cfg.blockCount(); ++n)
    printNode(n);
  printNode(cfg.exit());

  out += "\ndominator tree:\n";
  // Iterative: trees can be deeper than the call stack.
  auto tree = [&](const DominatorTree& t) {
    std::vector<std::pair<Node, size_t>> stack{{t.root(), 0}};
    out += indentation(2, 0) + cfg.name(t.root()) + "\n";
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      auto kids = t.children(n);
      if (next == kids.size()) {
        stack.pop_back();
        continue;
      }
      Node child = kids[next++];
      out += indentation(2, stack.size()) + cfg.name(child) + "\n";
      stack.emplace_back(child, 0);
    }
  };
  tree(dom);
  out += "\npost-dominator tree:\n";
  tree(postdom);
  if (!postdom.virtualExitEdges().empty())
    out += "  (virtual exit edges from " + nodeList(cfg, postdom.virtualExitEdges()) +
           ": they never reach the exit)\n";

  out += "\nloops:\n";
  if (loops.loops().empty())
    out += "  none\n";
  const auto loopLines = loopLineRanges(cfg, loops, lines);
  const auto loopBlocks = loopRuns(cfg, loops);
  for (size_t i = 0; i < loops.loops().size(); ++i) {
    const Loop& loop = loops.loops()[i];
    out += indentation(0, loop.depth) + "L" + std::to_string(i) + ": header " +
           cfg.name(loop.header, true) + ", depth " + std::to_string(loop.depth);
    std::string where = lines.describe(loopLines[i]);
    if (!where.empty())
      out += ", lines " + where;
    out += "\n" + indentation(4, loop.depth) + "blocks " + nodeList(cfg, loopBlocks[i]) +
           "; latches " + nodeList(cfg, loop.latches) + "; exits";
    for (const auto& e : loop.exits)
      out += " " + cfg.name(e.from) + "->" + cfg.name(e.to);
    out += "\n";
  }
  if (!loops.irreducibleEdges().empty()) {
    out += "irreducible edges:";
    for (const auto& e : loops.irreducibleEdges())
      out += " " + cfg.name(e.from) + "->" + cfg.name(e.to);
    out += "\n";
  }
  out += "\nunreachable blocks: " + nodeList(cfg, cfg.unreachableBlocks()) + "\n";
  for (const auto& problem : cfg.problems())
    out += "problem in " + cfg.name(problem.node, true) + ": " + problem.message + "\n";
  return out;
}

namespace {

std::string dotEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c == '\t' ? ' ' : c;
  }
  return out;
}

} // namespace

std::string printCfgDot(ir::Function& function, AnalysisManager& analyses) {
  const auto& cfg = analyses.getResult<ControlFlowGraphAnalysis>(function);
  const auto& dom = analyses.getResult<DominatorTreeAnalysis>(function);
  const auto& loops = analyses.getResult<LoopAnalysis>(function);
  const auto& lines = analyses.getResult<SourceLineAnalysis>(function);

  std::string out = "digraph \"" + dotEscape(function.name()) + "\" {\n";
  out += "  node [shape=box, fontname=\"monospace\", fontsize=10];\n";
  out += "  n" + std::to_string(cfg.entry()) + " [label=\"entry\", shape=oval];\n";
  out += "  n" + std::to_string(cfg.exit()) + " [label=\"exit\", shape=oval];\n";

  auto nodeLine = [&](Node n) {
    std::string label = cfg.name(n, true);
    std::string where = lines.describe(lines.lines(n));
    if (!where.empty())
      label += "\\n" + dotEscape(where);
    if (dom.idom(n) != DominatorTree::kNone)
      label += "\\nidom " + cfg.name(dom.idom(n));
    label += "\\n";
    // Up to 12 instructions; longer blocks show their first 8 and last 3.
    std::vector<const ir::Instruction*> instructions;
    cfg.block(n)->forEachInstruction(
        [&](const ir::Instruction& inst) { instructions.push_back(&inst); });
    for (size_t i = 0; i < instructions.size(); ++i) {
      if (instructions.size() > 12 && i == 8) {
        label += "...\\l";
        i = instructions.size() - 3;
      }
      label += dotEscape(ir::instructionToString(function, *instructions[i])) + "\\l";
    }
    std::string style = cfg.isReachable(n) ? "" : ", style=dashed, color=gray";
    return "n" + std::to_string(n) + " [label=\"" + label + "\"" + style + "];\n";
  };

  // Loops as nested clusters; blocks outside loops at the top level. Iterative, blocks grouped by
  // innermost loop once: nests can be deeper than the call stack and hold thousands of loops.
  std::vector<std::vector<Node>> own(loops.loops().size());
  for (Node n = 0; n < cfg.blockCount(); ++n)
    if (uint32_t loop = loops.loopIndexFor(n); loop != Loop::kNoLoop)
      own[loop].push_back(n);
    else
      out += "  " + nodeLine(n);
  auto open = [&](uint32_t index, size_t level) {
    const Loop& loop = loops.loops()[index];
    std::string pad = indentation(2, level, false);
    out += pad + "subgraph cluster_loop" + std::to_string(index) + " {\n";
    out += pad + "  label=\"loop L" + std::to_string(index) + " (depth " +
           std::to_string(loop.depth) + ")\"; style=rounded; color=blue;\n";
    for (Node n : own[index])
      out += pad + "  " + nodeLine(n);
  };
  for (uint32_t i = 0; i < loops.loops().size(); ++i) {
    if (loops.loops()[i].parent != Loop::kNoLoop)
      continue;
    std::vector<std::pair<uint32_t, size_t>> stack{{i, 0}};
    open(i, 0);
    while (!stack.empty()) {
      auto& [index, next] = stack.back();
      const auto& children = loops.loops()[index].children;
      if (next == children.size()) {
        out += indentation(2, stack.size() - 1, false) + "}\n";
        stack.pop_back();
        continue;
      }
      uint32_t child = children[next++];
      open(child, stack.size());
      stack.emplace_back(child, 0);
    }
  }

  for (Node n = 0; n < cfg.size(); ++n)
    for (const auto& e : cfg.successors(n)) {
      out += "  n" + std::to_string(e.from) + " -> n" + std::to_string(e.to);
      switch (e.kind) {
      case EdgeKind::Branch:
        out += " [label=\"branch\"]";
        break;
      case EdgeKind::FallThrough:
        out += " [style=dashed]";
        break;
      case EdgeKind::Exit:
        out += " [style=dotted]";
        break;
      }
      out += ";\n";
    }
  out += "}\n";
  return out;
}

} // namespace ocelot::passes
