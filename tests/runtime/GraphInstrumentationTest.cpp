// Kernel nodes of CUDA graphs instrumented on the CPU device (issue 14): explicit graphs, captured
// graphs, child graphs, conditional bodies, and the parameters cudaGraphExecKernelNodeSetParams
// and cudaGraphExecUpdate give a node. Each node launch gets its own profile, with the graph, the
// node and the graph launch, and counts exact against an analytic kernel; the application's
// results are those of the plain run.

#include "FatbinaryBuilder.h"
#include "StaticImage.h"
#include "ocelot/BasicBlockCounts.h"
#include "ocelot/KernelProfile.h"
#include "runtime/core/Graph.h"
#include "runtime/core/PlatformRegistry.h"
#include "runtime/core/Runtime.h"
#include "runtime/cpu/CpuPlatform.h"
#include "runtime/instrumentation/InstrumentationFramework.h"

#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <set>

namespace ocelot::runtime::testing {
namespace {

/// Each thread loops `n` times, then adds `n` to *out: blocks entry (3 instructions, once per
/// thread), loop (3, n times), exit (2, once). A launch of T threads adds T * n.
const std::string kSpinPtx = R"(.version 9.0
.target sm_90
.address_size 64

.visible .entry spin(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
$Lloop:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra $Lloop;
  atom.global.add.u32 %r3, [%rd1], %r1;
  ret;
}
)";

StaticImage<1> gGraphImage;
char gSpinStub;

constexpr unsigned kCtas = 2, kThreadsPerCta = 32, kThreads = kCtas * kThreadsPerCta;

class InstrumentedGraphs : public ::testing::Test {
protected:
  void SetUp() override {
    cpu::registerPlatform(backends_);
    runtime_.thread() = ThreadState{};
    instrumentation::InstrumentationFramework::installOn(runtime_);
    const void* container = gGraphImage.place(0, buildContainer({ptxEntry(kSpinPtx, 90)}));
    handle_ = runtime_.registerFatBinary(gGraphImage.wrap(container, 1));
    runtime_.registerFunction(handle_, &gSpinStub, "spin");
    runtime_.registerFatBinaryEnd(handle_);
    ASSERT_EQ(runtime_.currentDevice(runtime_.thread(), &device_, &ordinal_), cudaSuccess);
    ASSERT_NE(device_->graphs(), nullptr);
    ASSERT_EQ(device_->allocate(reinterpret_cast<void**>(&out_), sizeof(uint32_t)), cudaSuccess);
    std::memset(out_, 0, sizeof(uint32_t));
    ASSERT_EQ(device_->streams().create(cudaStreamNonBlocking, 0, &stream_), cudaSuccess);
    framework().profiles().subscribe([this](const std::shared_ptr<const KernelProfile>& p) {
      std::lock_guard lock(mutex_);
      profiles_.push_back(p);
    });
    framework().add("bbcount", {});
  }
  void TearDown() override {
    framework().flush();
    device_->streams().destroy(*stream_);
    runtime_.unregisterFatBinary(handle_);
  }

  instrumentation::InstrumentationFramework& framework() {
    return instrumentation::InstrumentationFramework::of(runtime_);
  }
  Graphs& graphs() { return *device_->graphs(); }

  Graph& newGraph() {
    Graph* graph = nullptr;
    EXPECT_EQ(graphs().create(0, &graph), cudaSuccess);
    return *graph;
  }
  /// A node running spin(out, n) on kThreads threads, after `after`.
  cudaGraphNode_t addSpin(Graph& graph, uint32_t n, std::vector<cudaGraphNode_t> after = {}) {
    cudaGraphNode_t node = nullptr;
    cudaGraphNodeParams translated = spinParams(n);
    EXPECT_EQ(graph.addNode(&node, after.data(), nullptr, after.size(), &translated), cudaSuccess);
    return node;
  }
  /// spin's node parameters as the device takes them (the arguments are copied when used).
  cudaGraphNodeParams spinParams(uint32_t n) {
    n_ = n;
    args_[0] = &out_;
    args_[1] = &n_;
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeKernel;
    params.kernel.func = &gSpinStub;
    params.kernel.gridDim = dim3(kCtas);
    params.kernel.blockDim = dim3(kThreadsPerCta);
    params.kernel.kernelParams = args_;
    cudaGraphNodeParams translated = {};
    EXPECT_EQ(runtime_.deviceNodeParams(params, *device_, ordinal_, &translated), cudaSuccess);
    return translated;
  }
  GraphExec& instantiate(Graph& graph) {
    cudaGraphInstantiateParams params = {};
    GraphExec* exec = nullptr;
    EXPECT_EQ(graph.instantiate(&params, &exec), cudaSuccess);
    return *exec;
  }
  /// One cudaGraphLaunch, waited for, and the profiles it delivered.
  std::vector<std::shared_ptr<const KernelProfile>> run(GraphExec& exec) {
    {
      std::lock_guard lock(mutex_);
      profiles_.clear();
    }
    EXPECT_EQ(runtime_.launchGraph(exec, *stream_, *device_, ordinal_), cudaSuccess);
    EXPECT_EQ(stream_->synchronize(), cudaSuccess);
    framework().flush();
    std::lock_guard lock(mutex_);
    return profiles_;
  }

  /// The profile of an instrumented node launch of spin with `n` iterations: exact counts.
  static void expectSpinCounts(const KernelProfile& profile, uint32_t n) {
    ASSERT_TRUE(profile.instrumented()) << (profile.notes().empty() ? "" : profile.notes()[0]);
    ASSERT_TRUE(profile.launch().graphNode.has_value());
    const auto* counts = profile.result<BasicBlockCounts>();
    ASSERT_NE(counts, nullptr);
    EXPECT_EQ(counts->entryCount(), kThreads);
    EXPECT_EQ(counts->blockExecutions(), uint64_t{kThreads} * (n + 2));
    EXPECT_EQ(counts->dynamicInstructions(), uint64_t{kThreads} * (3 + 3 * n + 2));
  }
  /// The profiles' iteration counts, recovered from their block executions, in any order.
  static std::multiset<uint64_t>
  iterations(const std::vector<std::shared_ptr<const KernelProfile>>& profiles) {
    std::multiset<uint64_t> found;
    for (const auto& profile : profiles)
      if (const auto* counts = profile->result<BasicBlockCounts>())
        found.insert(counts->blockExecutions() / kThreads - 2);
    return found;
  }

  PlatformRegistry backends_;
  Runtime runtime_{[this] { return backends_.create("cpu"); }, LogLevel::Off, nullptr};
  void** handle_ = nullptr;
  Device* device_ = nullptr;
  int ordinal_ = 0;
  Stream* stream_ = nullptr;
  uint32_t* out_ = nullptr;
  uint32_t n_ = 0;
  void* args_[2] = {};
  std::mutex mutex_;
  std::vector<std::shared_ptr<const KernelProfile>> profiles_;
};

TEST_F(InstrumentedGraphs, EachNodeLaunchOfAnExplicitGraphHasItsOwnExactProfile) {
  Graph& graph = newGraph();
  cudaGraphNode_t first = addSpin(graph, 3);
  addSpin(graph, 5, {first});
  GraphExec& exec = instantiate(graph);
  std::set<uint64_t> nodes;
  for (uint64_t launch = 1; launch <= 2; ++launch) {
    auto profiles = run(exec);
    ASSERT_EQ(profiles.size(), 2u);
    EXPECT_EQ(iterations(profiles), (std::multiset<uint64_t>{3, 5}));
    for (const auto& profile : profiles) {
      expectSpinCounts(*profile, iterations({profile}).count(3) != 0 ? 3 : 5);
      const GraphNodeLaunch& where = *profile->launch().graphNode;
      EXPECT_EQ(where.graph, reinterpret_cast<uint64_t>(exec.handle()));
      EXPECT_EQ(where.graphLaunch, launch);
      EXPECT_EQ(profile->launch().threads(), kThreads);
      nodes.insert(where.node);
      EXPECT_NE(profile->toJson().find("\"graph_launch\":" + std::to_string(launch)),
                std::string::npos);
    }
  }
  EXPECT_EQ(nodes.size(), 2u); // the same two nodes in both launches
  // The application's result is the plain run's: 2 launches x 64 threads x (3 + 5).
  EXPECT_EQ(*out_, 2u * kThreads * (3 + 5));
  EXPECT_EQ(graphs().destroy(exec), cudaSuccess);
  EXPECT_EQ(graphs().destroy(graph), cudaSuccess);
}

// A graph replayed through its plan (GraphPlan: every node's results in one place, copied and
// zeroed after each launch): exact counts at every launch, also when consecutive launches go to
// two streams without a synchronization between them (the second waits for the first's copy);
// every node launch has its own launch number and kernel launch index; with no instrumentor the
// graph runs as it is, and with one again it is instrumented again.
TEST_F(InstrumentedGraphs, AReplayedGraphIsCountedExactlyAtEveryLaunchOnAnyStream) {
  Graph& graph = newGraph();
  cudaGraphNode_t first = addSpin(graph, 1);
  cudaGraphNode_t second = addSpin(graph, 2, {first});
  addSpin(graph, 3, {second});
  GraphExec& exec = instantiate(graph);
  std::set<uint64_t> launchIds, indices;
  auto expectExact = [&](const std::vector<std::shared_ptr<const KernelProfile>>& profiles,
                         size_t launches) {
    ASSERT_EQ(profiles.size(), 3 * launches);
    std::multiset<uint64_t> expected;
    for (size_t i = 0; i < launches; ++i)
      expected.insert({1, 2, 3});
    EXPECT_EQ(iterations(profiles), expected);
    for (const auto& profile : profiles) {
      std::multiset<uint64_t> found = iterations({profile});
      ASSERT_EQ(found.size(), 1u);
      expectSpinCounts(*profile, static_cast<uint32_t>(*found.begin()));
      launchIds.insert(profile->launchId());
      indices.insert(profile->launch().kernelLaunchIndex);
    }
  };
  for (int launch = 0; launch < 4; ++launch)
    expectExact(run(exec), 1);
  // Launches alternating between two streams, nothing waited for in between.
  Stream* other = nullptr;
  ASSERT_EQ(device_->streams().create(cudaStreamNonBlocking, 0, &other), cudaSuccess);
  {
    std::lock_guard lock(mutex_);
    profiles_.clear();
  }
  for (int launch = 0; launch < 6; ++launch)
    ASSERT_EQ(runtime_.launchGraph(exec, launch % 2 == 0 ? *other : *stream_, *device_, ordinal_),
              cudaSuccess);
  ASSERT_EQ(other->synchronize(), cudaSuccess);
  ASSERT_EQ(stream_->synchronize(), cudaSuccess);
  framework().flush();
  {
    std::vector<std::shared_ptr<const KernelProfile>> profiles;
    {
      std::lock_guard lock(mutex_);
      profiles = profiles_;
    }
    expectExact(profiles, 6);
  }
  // Each of the 30 node launches has its own launch number and kernel launch index (1 to 30: no
  // other launch of spin).
  EXPECT_EQ(launchIds.size(), 30u);
  ASSERT_EQ(indices.size(), 30u);
  EXPECT_EQ(*indices.begin(), 1u);
  EXPECT_EQ(*indices.rbegin(), 30u);
  // No instrumentor, then one again.
  framework().removeAll();
  EXPECT_TRUE(run(exec).empty());
  framework().add("bbcount", {});
  expectExact(run(exec), 1);
  EXPECT_EQ(*out_, 12u * kThreads * (1 + 2 + 3));
  device_->streams().destroy(*other);
  EXPECT_EQ(graphs().destroy(exec), cudaSuccess);
  EXPECT_EQ(graphs().destroy(graph), cudaSuccess);
}

// A graph replayed faster than the profile worker makes its nodes' profiles: with the backlog of
// host copies limited to two launches' worth, later launches wait for the worker on the launching
// thread, and no launch loses its results (the first version of graph plans dropped them).
TEST_F(InstrumentedGraphs, AGraphReplayedFasterThanItsProfilesAreMadeLosesNothing) {
  framework().setGraphBacklogBytes(0);
  Graph& graph = newGraph();
  cudaGraphNode_t first = addSpin(graph, 1);
  addSpin(graph, 2, {first});
  GraphExec& exec = instantiate(graph);
  constexpr int kLaunches = 200;
  for (int launch = 0; launch < kLaunches; ++launch)
    ASSERT_EQ(runtime_.launchGraph(exec, *stream_, *device_, ordinal_), cudaSuccess);
  ASSERT_EQ(stream_->synchronize(), cudaSuccess);
  framework().flush();
  std::vector<std::shared_ptr<const KernelProfile>> profiles;
  {
    std::lock_guard lock(mutex_);
    profiles = profiles_;
  }
  ASSERT_EQ(profiles.size(), 2u * kLaunches);
  for (const auto& profile : profiles) {
    ASSERT_TRUE(profile->instrumented()) << (profile->notes().empty() ? "" : profile->notes()[0]);
    std::multiset<uint64_t> found = iterations({profile});
    ASSERT_EQ(found.size(), 1u);
    expectSpinCounts(*profile, static_cast<uint32_t>(*found.begin()));
  }
  EXPECT_EQ(iterations(profiles).count(1), static_cast<size_t>(kLaunches));
  EXPECT_EQ(*out_, kLaunches * kThreads * (1u + 2u));
  framework().setGraphBacklogBytes(instrumentation::GraphPlan::kMaxStagingBytes);
  EXPECT_EQ(graphs().destroy(exec), cudaSuccess);
  EXPECT_EQ(graphs().destroy(graph), cudaSuccess);
}

TEST_F(InstrumentedGraphs, ChangedNodeParametersAndUpdatedGraphsAreCountedAsTheyRun) {
  Graph& graph = newGraph();
  cudaGraphNode_t node = addSpin(graph, 3);
  GraphExec& exec = instantiate(graph);
  EXPECT_EQ(iterations(run(exec)), (std::multiset<uint64_t>{3}));
  // cudaGraphExecKernelNodeSetParams.
  cudaGraphNodeParams changed = spinParams(7);
  ASSERT_EQ(exec.setNodeParams(node, &changed), cudaSuccess);
  auto profiles = run(exec);
  ASSERT_EQ(profiles.size(), 1u);
  expectSpinCounts(*profiles[0], 7);
  // cudaGraphExecUpdate from a graph of the same shape.
  Graph& next = newGraph();
  addSpin(next, 9);
  cudaGraphExecUpdateResultInfo info = {};
  ASSERT_EQ(exec.update(next, &info), cudaSuccess);
  profiles = run(exec);
  ASSERT_EQ(profiles.size(), 1u);
  expectSpinCounts(*profiles[0], 9);
  EXPECT_EQ(*out_, kThreads * (3u + 7u + 9u));
  EXPECT_EQ(graphs().destroy(exec), cudaSuccess);
  EXPECT_EQ(graphs().destroy(next), cudaSuccess);
  EXPECT_EQ(graphs().destroy(graph), cudaSuccess);
}

TEST_F(InstrumentedGraphs, CapturedLaunchesAreInstrumentedWhenTheGraphRuns) {
  ASSERT_EQ(stream_->beginCapture(cudaStreamCaptureModeGlobal), cudaSuccess);
  uint32_t n = 4;
  void* args[] = {&out_, &n};
  ASSERT_EQ(runtime_.launchKernel(&gSpinStub, dim3(kCtas), dim3(kThreadsPerCta), args, 0,
                                  stream_->handle()),
            cudaSuccess);
  cudaGraph_t captured = nullptr;
  ASSERT_EQ(stream_->endCapture(&captured), cudaSuccess);
  framework().flush();
  {
    // Capturing ran nothing: no profile until the graph runs.
    std::lock_guard lock(mutex_);
    EXPECT_TRUE(profiles_.empty());
  }
  Graph* graph = graphs().find(captured);
  ASSERT_NE(graph, nullptr);
  GraphExec& exec = instantiate(*graph);
  auto profiles = run(exec);
  ASSERT_EQ(profiles.size(), 1u);
  expectSpinCounts(*profiles[0], 4);
  EXPECT_EQ(*out_, kThreads * 4u);
  EXPECT_EQ(graphs().destroy(exec), cudaSuccess);
  EXPECT_EQ(graphs().destroy(*graph), cudaSuccess);
}

TEST_F(InstrumentedGraphs, ChildGraphsAndIfBodiesAreInstrumentedWhileBodiesSayWhyNot) {
  Graph& child = newGraph();
  addSpin(child, 2);
  Graph& graph = newGraph();
  cudaGraphNode_t embedded = nullptr;
  cudaGraphNodeParams childParams = {};
  childParams.type = cudaGraphNodeTypeGraph;
  childParams.graph.graph = child.handle();
  ASSERT_EQ(graph.addNode(&embedded, nullptr, nullptr, 0, &childParams), cudaSuccess);
  // An if node whose condition is 1 at every launch, and a while node whose condition is 0 (its
  // body never runs, but its node may run many times per launch: not instrumented).
  auto addConditional = [&](cudaGraphConditionalNodeType type, unsigned int value) {
    cudaGraphConditionalHandle handle = 0;
    EXPECT_EQ(graph.createConditionalHandle(&handle, value, cudaGraphCondAssignDefault),
              cudaSuccess);
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = handle;
    params.conditional.type = type;
    params.conditional.size = 1;
    cudaGraphNode_t node = nullptr;
    EXPECT_EQ(graph.addNode(&node, &embedded, nullptr, 1, &params), cudaSuccess);
    Graph* body = graphs().find(params.conditional.phGraph_out[0]);
    EXPECT_NE(body, nullptr);
    return body;
  };
  addSpin(*addConditional(cudaGraphCondTypeIf, 1), 6);
  addSpin(*addConditional(cudaGraphCondTypeWhile, 0), 8);
  GraphExec& exec = instantiate(graph);
  auto profiles = run(exec);
  ASSERT_EQ(profiles.size(), 3u);
  EXPECT_EQ(iterations(profiles), (std::multiset<uint64_t>{2, 6}));
  int original = 0;
  for (const auto& profile : profiles) {
    ASSERT_TRUE(profile->launch().graphNode.has_value());
    if (!profile->instrumented()) {
      ++original;
      ASSERT_FALSE(profile->notes().empty());
      EXPECT_NE(profile->notes()[0].find("while conditional node"), std::string::npos)
          << profile->notes()[0];
      continue;
    }
    expectSpinCounts(*profile, iterations({profile}).count(2) != 0 ? 2 : 6);
  }
  EXPECT_EQ(original, 1);
  EXPECT_EQ(*out_, kThreads * (2u + 6u));
  EXPECT_EQ(graphs().destroy(exec), cudaSuccess);
  EXPECT_EQ(graphs().destroy(graph), cudaSuccess);
  EXPECT_EQ(graphs().destroy(child), cudaSuccess);
}

} // namespace
} // namespace ocelot::runtime::testing
