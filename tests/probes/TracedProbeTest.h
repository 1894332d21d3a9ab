#pragma once
// The fixture part ProbeOracleTest and ProbeToolsExactnessTest share: the analytic kernels'
// instruction numbering, and one kernel run traced as it is, then instrumented with one tool on
// the same arguments, so that what the tool measured can be compared with the trace.

#include "instrumentors/ModuleInstrumenter.h"
#include "ir/Parser.h"
#include "tests/cpu/CpuDeviceFixture.h"
#include "tests/probes/RecordingTracer.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <utility>

namespace ocelot::runtime::cpu::test {

/// A file's whole contents (empty when it cannot be read).
inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class TracedProbeTest : public CpuDeviceTest {
protected:
  /// The `divergent` analytic kernel's arguments: its table (1 to 8), an output of `threads` ints
  /// and 4 zeroed counters.
  struct DivergentArguments {
    int* table;
    int* out;
    unsigned* counters;
  };
  DivergentArguments divergentArguments(size_t threads) {
    DivergentArguments arguments{allocate<int>(8), allocate<int>(threads), allocate<unsigned>(4)};
    for (int i = 0; i < 8; ++i)
      arguments.table[i] = i + 1;
    std::memset(arguments.counters, 0, 4 * sizeof(unsigned));
    return arguments;
  }

  /// The instrumented kernel's extra parameter: the launch's probe buffer.
  struct Slots {
    uint64_t buffer;
  };

  /// Numbers kernels_' instructions in the module's order, by (function, PTX line): the tools'
  /// tables' numbering. `each` sees every instruction with its id.
  void
  numberInstructions(const std::function<void(uint32_t, const ir::Instruction&)>& each = nullptr) {
    ir::ParseResult parsed = ir::parsePtx(kernels_);
    ASSERT_TRUE(parsed.ok());
    for (const ir::Function* f : parsed.module->functions()) {
      if (!f->hasBody())
        continue;
      for (const auto& block : f->blocks())
        block->forEachInstruction([&](const ir::Instruction& inst) {
          uint32_t id = static_cast<uint32_t>(instructionIds_.size());
          instructionIds_[{std::string(f->name()), inst.line()}] = id;
          if (each)
            each(id, inst);
        });
    }
  }

  /// Runs `kernel` of kernels_ traced as it is (into trace_), then module_'s instrumented
  /// `kernel` with `tool` (module_'s only instrumentor), on the same arguments; finalized_ is what
  /// the tool's finalize returned. Callers check HasFatalFailure() after it.
  template <class... Args>
  void traceThenInstrument(const PTXInstrumentor& tool, const char* kernel, dim3 grid, dim3 block,
                           Args... args) {
    finalized_.reset();
    device_->setTracer(&trace_);
    DeviceFunction original = load(kernels_, kernel);
    ASSERT_NE(original, nullptr);
    ASSERT_EQ(launch(original, grid, block, 0, args...), cudaSuccess);
    ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
    device_->setTracer(nullptr);

    DeviceFunction instrumented = load(module_.ptx, kernel);
    ASSERT_NE(instrumented, nullptr);
    LaunchInfo info;
    info.kernelName = kernel;
    info.kernelLaunchIndex = 1;
    info.grid = {grid.x, grid.y, grid.z};
    info.block = {block.x, block.y, block.z};
    BufferRequest request = tool.initialize(*module_.states[0], info);
    auto* buffer = allocate<std::byte>(request.bytes);
    std::memset(buffer, 0, request.bytes);
    ASSERT_EQ(
        launch(instrumented, grid, block, 0, args..., Slots{reinterpret_cast<uint64_t>(buffer)}),
        cudaSuccess);
    ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
    finalized_ = tool.finalize(*module_.states[0], info, DeviceFacts{},
                               std::span<const std::byte>(buffer, request.bytes));
  }

  /// The instruction id of a traced pc; nullopt for instructions the decoder made (no PTX line of
  /// an instruction: the trace reports nothing about them).
  std::optional<uint32_t> instructionOfPc(uint32_t pc) const {
    auto found = instructionIds_.find(trace_.pcs.at(pc));
    if (found == instructionIds_.end())
      return std::nullopt;
    return found->second;
  }

  std::string kernels_;
  instrumentors::InstrumentedPtx module_;
  std::map<std::pair<std::string, uint32_t>, uint32_t> instructionIds_;
  RecordingTracer trace_;
  std::shared_ptr<const InstrumentorResult> finalized_;
};

} // namespace ocelot::runtime::cpu::test
