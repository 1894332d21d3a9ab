// An Ocelot plugin: `entrycount` counts how many threads entered each kernel (one atomic per warp
// at the kernel's first block). Small on purpose: it shows the whole lifecycle of an
// instrumentor (analyze, instrument with a pass, initialize a buffer, finalize a result) and the
// plugin entry point. Build it with find_package(Ocelot) (CMakeLists.txt next to this file) and
// run it with `ocelot run -i /path/libocelot-entrycount.so -- ./app`.

#include "ir/IRBuilder.h"
#include "ocelot/Plugin.h"

#include <cstring>
#include <nlohmann/json.hpp>

namespace {

using namespace ocelot;

/// The result: threads that entered the kernel.
class EntryCount final : public InstrumentorResult {
public:
  explicit EntryCount(uint64_t threads) : threads_(threads) {}
  std::string_view instrumentor() const override { return "entrycount"; }
  Json json() const override { return Json{{"threads", threads_}}; }
  std::string summary() const override { return std::to_string(threads_) + " threads entered"; }
  uint64_t threads() const { return threads_; }

private:
  uint64_t threads_;
};

class NoState final : public InstrumentorModuleState {};

/// At the start of every kernel: the warp's leader adds the number of active lanes.
class CountEntries final : public passes::KernelPass {
public:
  explicit CountEntries(const BufferAccess& buffer) : buffer_(buffer) {}
  std::string_view name() const override { return "entrycount"; }
  bool appliesTo(const ir::Function& f) const override {
    return f.isEntry() && f.hasBody() && buffer_.reaches(f);
  }
  passes::PreservedAnalyses run(ir::Function& f, passes::AnalysisManager& analyses) override {
    using ir::IRBuilder;
    IRBuilder b(*f.blocks().front(), &analyses); // the framework's entry block: once per thread
    ir::RegisterRef mask = b.createRegister(ir::ScalarType::B32);
    b.insert("activemask.b32", {IRBuilder::reg(mask)});
    ir::RegisterRef lanes = b.createRegister(ir::ScalarType::B32);
    b.insert("popc.b32", {IRBuilder::reg(lanes), IRBuilder::reg(mask)});
    ir::RegisterRef wide =
        b.convert(ir::ScalarType::U64, ir::ScalarType::U32, IRBuilder::reg(lanes));
    ir::RegisterRef lane = b.readSpecial("%laneid");
    ir::RegisterRef leaderLane = b.createRegister(ir::ScalarType::B32);
    b.insert("bfind.u32", {IRBuilder::reg(leaderLane), IRBuilder::reg(mask)});
    ir::RegisterRef leader =
        b.compare("eq", ir::ScalarType::U32, IRBuilder::reg(lane), IRBuilder::reg(leaderLane));
    ir::RegisterRef address = buffer_.bufferAddress(b);
    b.insert("red.global.add.u64", {IRBuilder::address(address, 0), IRBuilder::reg(wide)},
             ir::Guard{leader, false});
    return passes::PreservedAnalyses::controlFlow();
  }

private:
  const BufferAccess& buffer_;
};

class EntryCounter final : public PTXInstrumentor {
public:
  explicit EntryCounter(const InstrumentorOptions& options) {
    options.checkKnown("entrycount", {});
  }
  std::string_view name() const override { return "entrycount"; }
  std::unique_ptr<InstrumentorModuleState> analyze(ir::Module&, passes::AnalysisManager&,
                                                   const InstrumentationTarget&) const override {
    return std::make_unique<NoState>();
  }
  void instrument(InstrumentorModuleState&, passes::PassManager& passes,
                  const InstrumentationTarget& target) const override {
    passes.add<CountEntries>(*target.buffer);
  }
  BufferRequest initialize(const InstrumentorModuleState&, const LaunchInfo&) const override {
    return {8, 0};
  }
  std::shared_ptr<const InstrumentorResult>
  finalize(const InstrumentorModuleState&, const LaunchInfo&, const DeviceFacts&,
           std::span<const std::byte> buffer) const override {
    uint64_t threads = 0;
    std::memcpy(&threads, buffer.data(), sizeof threads);
    return std::make_shared<EntryCount>(threads);
  }
};

} // namespace

OCELOT_PLUGIN_DEFINE_ABI_VERSION()

extern "C" __attribute__((visibility("default"))) int
ocelot_plugin_entry_v1(const ocelot_plugin_host_v1* host) {
  if (host == nullptr || host->abi_version != OCELOT_PLUGIN_ABI_VERSION)
    return 1;
  return host->register_instrumentor(host->registry, "entrycount",
                                     "threads that entered each kernel (example plugin)",
                                     ocelot::pluginFactory<EntryCounter>(), nullptr);
}
