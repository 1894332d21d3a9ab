#include "passes/SsaRenaming.h"

#include "ir/RegisterAccess.h"

#include <algorithm>

namespace ocelot::passes {

SsaRenaming::SsaRenaming(const ControlFlowGraph& cfg, const DominatorTree& dominators,
                         const DominanceFrontier& frontier, const Liveness& liveness,
                         Options options)
    : cfg_(&cfg), numbering_(&liveness.numbering()) {
  const uint32_t registers = numbering_->size();
  renamed_ = std::move(options.variables);
  if (renamed_.empty())
    renamed_.assign(registers, true);
  renamed_.resize(registers, false);

  // Number the instructions and size their occurrence lists.
  occurrenceStart_.push_back(0);
  for (Node n = 0; n < cfg.blockCount(); ++n)
    cfg.block(n)->forEachInstruction([&](const ir::Instruction& inst) {
      uint32_t count = 0;
      ir::forEachRegisterAccess(
          inst, [&](const ir::RegisterRef&, const ir::RegisterAccess&) { ++count; });
      instructionIndex_.emplace(&inst, static_cast<uint32_t>(instructions_.size()));
      instructions_.push_back(&inst);
      instructionNode_.push_back(n);
      occurrenceStart_.push_back(occurrenceStart_.back() + count);
    });
  occurrences_.resize(occurrenceStart_.back());

  placePhis(frontier, liveness, options.canPlacePhi);
  rename(dominators);
}

uint32_t SsaRenaming::indexOf(const ir::Instruction& instruction) const {
  auto it = instructionIndex_.find(&instruction);
  return it == instructionIndex_.end() ? UINT32_MAX : it->second;
}

void SsaRenaming::placePhis(const DominanceFrontier& frontier, const Liveness& liveness,
                            const std::function<bool(Node)>& canPlacePhi) {
  const size_t nodes = cfg_->size();
  const uint32_t registers = numbering_->size();

  // Blocks that write each register (reachable ones: the others get no values), as one
  // compressed array: defStart[v] .. defStart[v + 1] in defNodes.
  std::vector<std::pair<uint32_t, Node>> writes; // (variable, node), one per block and variable
  std::vector<Node> lastDefNode(registers, ControlFlowGraph::kNone);
  for (uint32_t i = 0; i < instructions_.size(); ++i) {
    Node n = instructionNode_[i];
    if (!cfg_->isReachable(n))
      continue;
    ir::forEachRegisterAccess(*instructions_[i], [&](const ir::RegisterRef& ref,
                                                     const ir::RegisterAccess& access) {
      uint32_t v = numbering_->id(ref);
      if (!access.written || v == RegisterNumbering::kNone || !renamed_[v] || lastDefNode[v] == n)
        return;
      lastDefNode[v] = n;
      writes.emplace_back(v, n);
    });
  }
  std::vector<uint32_t> defStart(registers + 1, 0);
  for (const auto& [v, n] : writes)
    ++defStart[v + 1];
  for (uint32_t v = 0; v < registers; ++v)
    defStart[v + 1] += defStart[v];
  std::vector<Node> defNodes(writes.size());
  {
    std::vector<uint32_t> fill(defStart.begin(), defStart.end() - 1);
    for (const auto& [v, n] : writes)
      defNodes[fill[v]++] = n;
  }

  std::vector<std::pair<Node, uint32_t>> placed; // (node, variable)
  std::vector<uint32_t> hasPhi(nodes, UINT32_MAX), queued(nodes, UINT32_MAX);
  std::vector<Node> work, mine;
  for (uint32_t v = 0; v < registers; ++v) {
    if (defStart[v] == defStart[v + 1])
      continue;
    work.assign(defNodes.begin() + defStart[v], defNodes.begin() + defStart[v + 1]);
    for (Node n : work)
      queued[n] = v;
    mine.clear();
    while (!work.empty()) {
      Node x = work.back();
      work.pop_back();
      for (Node y : frontier.frontier(x)) {
        if (hasPhi[y] == v)
          continue;
        hasPhi[y] = v;
        if (!liveness.isLiveIn(y, v))
          continue; // pruned: no use of the merged value
        mine.push_back(y);
        if (queued[y] != v) {
          queued[y] = v;
          work.push_back(y);
        }
      }
    }
    if (canPlacePhi &&
        std::any_of(mine.begin(), mine.end(), [&](Node y) { return !canPlacePhi(y); })) {
      renamed_[v] = false;
      continue;
    }
    for (Node y : mine)
      placed.emplace_back(y, v);
  }

  std::sort(placed.begin(), placed.end());
  phiStart_.assign(nodes + 1, 0);
  for (const auto& [node, v] : placed)
    ++phiStart_[node + 1];
  for (size_t i = 0; i < nodes; ++i)
    phiStart_[i + 1] += phiStart_[i];
  phis_.reserve(placed.size());
  for (const auto& [node, v] : placed) {
    ValueId id = static_cast<ValueId>(values_.size());
    values_.push_back(Value{ValueKind::Phi, v, node, UINT32_MAX, kNoValue});
    phis_.push_back(Phi{v, id, std::vector<ValueId>(cfg_->predecessors(node).size(), kNoValue)});
  }
}

void SsaRenaming::rename(const DominatorTree& dominators) {
  const uint32_t registers = numbering_->size();
  std::vector<ValueId> current(registers, kNoValue), entry(registers, kNoValue);
  auto currentOf = [&](uint32_t v) {
    if (current[v] != kNoValue)
      return current[v];
    if (entry[v] == kNoValue) {
      entry[v] = static_cast<ValueId>(values_.size());
      values_.push_back(Value{ValueKind::Entry, v, cfg_->entry(), UINT32_MAX, kNoValue});
    }
    return entry[v];
  };
  std::vector<std::pair<uint32_t, ValueId>> undo;
  auto define = [&](uint32_t v, ValueId value) {
    undo.emplace_back(v, current[v]);
    current[v] = value;
  };

  // Instructions of node n are instructionStart[n] .. instructionStart[n + 1].
  std::vector<uint32_t> instructionStart(cfg_->size() + 1, 0);
  for (Node n : instructionNode_)
    ++instructionStart[n + 1];
  for (size_t i = 0; i + 1 < instructionStart.size(); ++i)
    instructionStart[i + 1] += instructionStart[i];

  auto visit = [&](Node node) {
    for (Phi& phi :
         std::span<Phi>(phis_.data() + phiStart_[node], phis_.data() + phiStart_[node + 1]))
      define(phi.variable, phi.value);
    for (uint32_t i = instructionStart[node]; i < instructionStart[node + 1]; ++i) {
      const ir::Instruction& inst = *instructions_[i];
      Occurrence* occurrence = occurrences_.data() + occurrenceStart_[i];
      // Every read sees the values from before the instruction, then the writes take effect.
      size_t k = 0;
      ir::forEachRegisterAccess(inst, [&](const ir::RegisterRef& ref, const ir::RegisterAccess& a) {
        uint32_t v = numbering_->id(ref);
        if (a.read && v != RegisterNumbering::kNone && renamed_[v])
          occurrence[k].use = currentOf(v);
        ++k;
      });
      k = 0;
      ir::forEachRegisterAccess(inst, [&](const ir::RegisterRef& ref, const ir::RegisterAccess& a) {
        uint32_t v = numbering_->id(ref);
        if (a.written && v != RegisterNumbering::kNone && renamed_[v]) {
          ValueId previous = a.kills ? kNoValue : currentOf(v);
          ValueId value = static_cast<ValueId>(values_.size());
          values_.push_back(Value{ValueKind::Definition, v, node, i, previous});
          occurrence[k].def = value;
          define(v, value);
        }
        ++k;
      });
    }
    for (const auto& edge : cfg_->successors(node)) {
      auto preds = cfg_->predecessors(edge.to);
      size_t position = 0;
      while (position < preds.size() && preds[position].from != node)
        ++position;
      for (Phi& phi :
           std::span<Phi>(phis_.data() + phiStart_[edge.to], phis_.data() + phiStart_[edge.to + 1]))
        phi.incoming[position] = currentOf(phi.variable);
    }
  };

  // Pre-order over the dominator tree with an explicit stack; leaving a node undoes its names.
  struct Frame {
    Node node;
    uint32_t child;
    size_t undoMark;
  };
  std::vector<Frame> stack;
  stack.push_back(Frame{dominators.root(), 0, undo.size()});
  visit(dominators.root());
  while (!stack.empty()) {
    Frame& top = stack.back();
    auto children = dominators.children(top.node);
    if (top.child < children.size()) {
      Node child = children[top.child++];
      stack.push_back(Frame{child, 0, undo.size()});
      visit(child);
      continue;
    }
    while (undo.size() > top.undoMark) {
      current[undo.back().first] = undo.back().second;
      undo.pop_back();
    }
    stack.pop_back();
  }
}

} // namespace ocelot::passes
