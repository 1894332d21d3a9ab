#include "ir/Emitter.h"

#include "ir/Casting.h"
#include "ir/PtxWriter.h"

namespace ocelot::ir {

namespace {

/// More than the module's text will take (a statement rarely takes 64 bytes): reserved up front,
/// the output string never moves while it grows, and what it does not use is never touched.
size_t estimatedSize(const Module& module) {
  size_t estimate = 4096;
  for (const auto& item : module.items()) {
    estimate += 256;
    if (const auto* f = dyn_cast<Function>(item.get()))
      for (const auto& block : f->blocks())
        estimate += 64 * block->statements().size() + 64;
    else if (const auto* section = dyn_cast<DebugSection>(item.get()))
      estimate += 16 * section->items().size();
    else if (const auto* global = dyn_cast<GlobalVariable>(item.get()))
      estimate += global->line() == 0 ? 4096 : 1 << 16; // initializers are not counted
  }
  return estimate;
}

} // namespace

void emitPtx(const Module& module, std::string& out, const EmitOptions& options) {
  out.reserve(out.size() + estimatedSize(module));
  PtxWriter writer(out, options); // out holds only the text once the writer is gone
  writer.module(module);
}

std::string emitPtx(const Module& module, const EmitOptions& options) {
  std::string out;
  emitPtx(module, out, options);
  return out;
}

std::string emitPtxNumberingLines(Module& module) {
  std::string out;
  out.reserve(estimatedSize(module));
  const EmitOptions options;
  PtxWriter::WrittenLines written;
  {
    PtxWriter writer(out, options);
    writer.recordLines(&written);
    writer.module(module);
  }
  if (written.lines.empty() && written.bodyLines.empty() && written.bodyEndLines.empty())
    return out; // everything is on its line already
  auto lineOf = [&](const void* thing, uint32_t line) {
    auto it = written.lines.find(thing);
    return it == written.lines.end() ? line : it->second;
  };
  for (const auto& item : module.items()) {
    item->setLine(lineOf(item.get(), item->line()));
    auto* f = dyn_cast<Function>(item.get());
    if (f == nullptr)
      continue;
    if (auto it = written.bodyLines.find(f); it != written.bodyLines.end())
      f->setBodyLine(it->second);
    if (auto it = written.bodyEndLines.find(f); it != written.bodyEndLines.end())
      f->setBodyEndLine(it->second);
    for (auto& block : f->blocks())
      for (auto& statement : block->statements())
        statement->setLine(lineOf(statement.get(), statement->line()));
  }
  return out;
}

struct StreamingEmitter::State {
  State(const Module& emitted, std::function<void(std::string_view)> pieces,
        const EmitOptions& emitOptions)
      : module(emitted), sink(std::move(pieces)), options(emitOptions), writer(buffer, options) {}
  void drain() {
    writer.drain([&](std::string_view text) {
      if (!text.empty())
        sink(text);
    });
  }
  const Module& module;
  std::function<void(std::string_view)> sink;
  EmitOptions options; ///< the writer keeps a reference
  std::string buffer;
  PtxWriter writer;
  size_t written = 0; ///< items written
  const ModuleItem* last = nullptr;
};

StreamingEmitter::StreamingEmitter(const Module& module, std::function<void(std::string_view)> sink,
                                   const EmitOptions& options)
    : state_(std::make_unique<State>(module, std::move(sink), options)) {
  state_->writer.header(module);
}

StreamingEmitter::~StreamingEmitter() = default;

bool StreamingEmitter::writeThrough(const ModuleItem& item) {
  State& s = *state_;
  const auto& items = s.module.items();
  // Items inserted before those already written would be lost: refuse.
  if (s.written > 0 && (s.written > items.size() || items[s.written - 1].get() != s.last))
    return false;
  size_t end = s.written;
  while (end < items.size() && items[end].get() != &item)
    ++end;
  if (end == items.size())
    return false;
  for (; s.written <= end; ++s.written)
    s.writer.item(*items[s.written]);
  s.last = &item;
  s.drain();
  return true;
}

void StreamingEmitter::finish() {
  State& s = *state_;
  const auto& items = s.module.items();
  for (; s.written < items.size(); ++s.written)
    s.writer.item(*items[s.written]);
  s.writer.end();
  s.drain();
}

std::string operandToString(const Function& function, const Operand& operand) {
  std::string out;
  EmitOptions options{false};
  {
    PtxWriter writer(out, options);
    writer.operand(function, operand);
  }
  return out;
}

std::string instructionToString(const Function& function, const Instruction& instruction) {
  std::string out;
  EmitOptions options{false};
  {
    PtxWriter writer(out, options);
    writer.instruction(function, instruction);
  }
  return out;
}

} // namespace ocelot::ir
