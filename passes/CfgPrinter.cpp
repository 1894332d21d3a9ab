#include "passes/CfgPrinter.h"

#include "ir/Emitter.h"
#include "passes/AnalysisManager.h"
#include "passes/DominatorTree.h"
#include "passes/LoopInfo.h"
#include "passes/SourceLines.h"

#include <functional>

namespace ocelot::passes {

namespace {

using Node = ControlFlowGraph::Node;

std::string nodeList(const ControlFlowGraph& cfg, const std::vector<Node>& nodes) {
  std::string text;
  for (Node n : nodes)
    text += (text.empty() ? "" : " ") + cfg.name(n);
  return text.empty() ? "none" : text;
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
  std::function<void(const DominatorTree&, Node, unsigned)> tree = [&](const DominatorTree& t,
                                                                       Node n, unsigned depth) {
    out += std::string(2 + depth * 2, ' ') + cfg.name(n) + "\n";
    for (Node child : t.children(n))
      tree(t, child, depth + 1);
  };
  tree(dom, dom.root(), 0);
  out += "\npost-dominator tree:\n";
  tree(postdom, postdom.root(), 0);
  if (!postdom.virtualExitEdges().empty())
    out += "  (virtual exit edges from " + nodeList(cfg, postdom.virtualExitEdges()) +
           ": they never reach the exit)\n";

  out += "\nloops:\n";
  if (loops.loops().empty())
    out += "  none\n";
  for (size_t i = 0; i < loops.loops().size(); ++i) {
    const Loop& loop = loops.loops()[i];
    out += std::string(2 * loop.depth, ' ') + "L" + std::to_string(i) + ": header " +
           cfg.name(loop.header, true) + ", depth " + std::to_string(loop.depth);
    std::string where = lines.describe(lines.lines(loop));
    if (!where.empty())
      out += ", lines " + where;
    out += "\n" + std::string(2 * loop.depth + 4, ' ') + "blocks " + nodeList(cfg, loop.nodes) +
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

  // Loops as nested clusters; blocks outside loops at the top level.
  std::function<void(uint32_t, unsigned)> cluster = [&](uint32_t index, unsigned indent) {
    const Loop& loop = loops.loops()[index];
    std::string pad(indent, ' ');
    out += pad + "subgraph cluster_loop" + std::to_string(index) + " {\n";
    out += pad + "  label=\"loop L" + std::to_string(index) + " (depth " +
           std::to_string(loop.depth) + ")\"; style=rounded; color=blue;\n";
    for (Node n : loop.nodes)
      if (loops.loopIndexFor(n) == index)
        out += pad + "  " + nodeLine(n);
    for (uint32_t child : loop.children)
      cluster(child, indent + 2);
    out += pad + "}\n";
  };
  for (Node n = 0; n < cfg.blockCount(); ++n)
    if (loops.loopFor(n) == nullptr)
      out += "  " + nodeLine(n);
  for (uint32_t i = 0; i < loops.loops().size(); ++i)
    if (loops.loops()[i].parent == Loop::kNoLoop)
      cluster(i, 2);

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
