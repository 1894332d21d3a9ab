#include "passes/ControlFlowGraph.h"

#include "ir/Casting.h"
#include "ir/InstructionForm.h"

#include <algorithm>

namespace ocelot::passes {

AnalysisKey ControlFlowGraphAnalysis::Key;

std::string_view edgeKindName(EdgeKind kind) {
  switch (kind) {
  case EdgeKind::FallThrough:
    return "fallthrough";
  case EdgeKind::Branch:
    return "branch";
  case EdgeKind::Exit:
    return "exit";
  }
  return "?";
}

namespace {

/// The innermost `.branchtargets` table named `name` visible from `scope`.
const ir::BranchTargets* findBranchTable(const ir::Function& f,
                                         const std::vector<const ir::BranchTargets*>& tables,
                                         std::string_view name, ir::ScopeId scope) {
  const auto& scopes = f.scopes();
  // Walk outwards from the branch's scope; the first scope holding the table wins.
  for (size_t steps = 0; steps <= scopes.size(); ++steps) {
    for (const auto* table : tables)
      if (table->name() == name && table->scope() == scope)
        return table;
    if (scope == 0 || scope >= scopes.size())
      break;
    scope = scopes[scope].parent;
  }
  return nullptr;
}

} // namespace

ControlFlowGraph::ControlFlowGraph(ir::Function& function) : function_(&function) {
  blocks_.reserve(function.blocks().size());
  for (auto& block : function.blocks())
    blocks_.push_back(block.get());
  nodeOf_.reserve(blocks_.size());
  blockOfLabel_.assign(function.labels().size(), kNone);
  for (Node n = 0; n < blocks_.size(); ++n) {
    nodeOf_.emplace(blocks_[n], n);
    bool seenInstruction = false;
    for (const auto& s : blocks_[n]->statements()) {
      if (const auto* label = ir::dyn_cast<ir::Label>(s.get())) {
        if (label->id() < blockOfLabel_.size())
          blockOfLabel_[label->id()] = n;
        if (seenInstruction)
          problems_.push_back(
              {n, "label " + std::string(label->name()) + " follows instructions of its block"});
      } else if (s->kind() == ir::Statement::Kind::Instruction) {
        seenInstruction = true;
      }
    }
  }
  std::vector<Edge> edges;
  edges.reserve(blocks_.size() * 2 + 2);
  edges.push_back(Edge{entry(), blocks_.empty() ? exit() : 0, EdgeKind::FallThrough});
  for (Node n = 0; n < blocks_.size(); ++n)
    addEdges(n, edges);
  finish(edges);
}

void ControlFlowGraph::addEdges(Node n, std::vector<Edge>& edges) {
  const ir::BasicBlock& block = *blocks_[n];
  const Node next = n + 1 < blocks_.size() ? n + 1 : exit();
  const EdgeKind nextKind = n + 1 < blocks_.size() ? EdgeKind::FallThrough : EdgeKind::Exit;
  const ir::Instruction* last = nullptr;
  for (const auto& s : block.statements()) {
    if (const auto* inst = ir::dyn_cast<ir::Instruction>(s.get())) {
      if (last != nullptr && last->form().isTerminator())
        problems_.push_back({n, "terminator `" + std::string(last->form().spelling()) +
                                    "` is not the last instruction of its block"});
      last = inst;
    }
  }
  size_t first = edges.size();
  auto add = [&](Node to, EdgeKind kind) {
    for (size_t i = first; i < edges.size(); ++i)
      if (edges[i].to == to)
        return; // one edge per pair of nodes; the first kind (Branch) wins
    edges.push_back(Edge{n, to, kind});
  };
  if (last == nullptr || !last->form().isTerminator()) {
    add(next, nextKind);
    return;
  }
  const ir::InstructionForm& form = last->form();
  if (form.has(ir::kBranch)) {
    if (form.opcode() == ir::Opcode::Brx) {
      if (!tablesCollected_) {
        for (const auto& b : function_->blocks())
          for (const auto& s : b->statements())
            if (const auto* t = ir::dyn_cast<ir::BranchTargets>(s.get()))
              branchTables_.push_back(t);
        tablesCollected_ = true;
      }
      const auto& ops = last->operands();
      const auto* name = ops.size() >= 2 ? ops[1].getIf<ir::SymbolOperand>() : nullptr;
      const ir::BranchTargets* table =
          name ? findBranchTable(*function_, branchTables_, name->name, last->scope()) : nullptr;
      if (table == nullptr) {
        problems_.push_back({n, "brx.idx without a visible .branchtargets table"});
      } else {
        for (const auto& target : table->targets()) {
          const auto* label = target.getIf<ir::LabelOperand>();
          if (label && label->label < blockOfLabel_.size() && blockOfLabel_[label->label] != kNone)
            add(blockOfLabel_[label->label], EdgeKind::Branch);
          else
            problems_.push_back({n, "a .branchtargets entry of " + std::string(table->name()) +
                                        " is not a label of this function"});
        }
      }
    } else {
      const ir::LabelOperand* label = nullptr;
      for (const auto& op : last->operands())
        if ((label = op.getIf<ir::LabelOperand>()) != nullptr)
          break;
      if (label && label->label < blockOfLabel_.size() && blockOfLabel_[label->label] != kNone)
        add(blockOfLabel_[label->label], EdgeKind::Branch);
      else
        problems_.push_back({n, "branch target is not a label of this function"});
    }
  } else {
    add(exit(), EdgeKind::Exit); // ret, exit, trap
  }
  if (last->guard())
    add(next, nextKind);
}

void ControlFlowGraph::finish(std::vector<Edge>& edges) {
  const size_t nodes = size();
  // Successor and predecessor lists as compressed arrays: one allocation each, cache friendly.
  successorStart_.assign(nodes + 1, 0);
  predecessorStart_.assign(nodes + 1, 0);
  for (const Edge& e : edges) {
    ++successorStart_[e.from + 1];
    ++predecessorStart_[e.to + 1];
  }
  for (size_t i = 0; i < nodes; ++i) {
    successorStart_[i + 1] += successorStart_[i];
    predecessorStart_[i + 1] += predecessorStart_[i];
  }
  successorEdges_.resize(edges.size());
  predecessorEdges_.resize(edges.size());
  std::vector<uint32_t> nextSuccessor(successorStart_.begin(), successorStart_.end() - 1);
  std::vector<uint32_t> nextPredecessor(predecessorStart_.begin(), predecessorStart_.end() - 1);
  for (const Edge& e : edges) {
    successorEdges_[nextSuccessor[e.from]++] = e;
    predecessorEdges_[nextPredecessor[e.to]++] = e;
  }

  // Reverse post-order by an explicit-stack depth-first search (functions can be deep enough to
  // overflow the call stack).
  reachable_.assign(nodes, false);
  std::vector<Node> postOrder;
  postOrder.reserve(nodes);
  std::vector<std::pair<Node, uint32_t>> stack;
  stack.emplace_back(entry(), 0);
  reachable_[entry()] = true;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    auto succs = successors(node);
    if (next < succs.size()) {
      Node to = succs[next++].to;
      if (!reachable_[to]) {
        reachable_[to] = true;
        stack.emplace_back(to, 0);
      }
    } else {
      postOrder.push_back(node);
      stack.pop_back();
    }
  }
  reversePostOrder_.assign(postOrder.rbegin(), postOrder.rend());
}

ControlFlowGraph::Node ControlFlowGraph::node(const ir::BasicBlock& block) const {
  auto it = nodeOf_.find(&block);
  return it == nodeOf_.end() ? kNone : it->second;
}

std::string ControlFlowGraph::name(Node node, bool withLabel) const {
  if (node == entry())
    return "entry";
  if (node == exit())
    return "exit";
  if (node >= blocks_.size())
    return "?";
  std::string text = "B" + std::to_string(node);
  if (withLabel)
    if (const ir::Label* label = blocks_[node]->label())
      text += " (" + std::string(label->name()) + ")";
  return text;
}

std::vector<ControlFlowGraph::Node> ControlFlowGraph::unreachableBlocks() const {
  std::vector<Node> result;
  for (Node n = 0; n < blocks_.size(); ++n)
    if (!reachable_[n])
      result.push_back(n);
  return result;
}

} // namespace ocelot::passes
