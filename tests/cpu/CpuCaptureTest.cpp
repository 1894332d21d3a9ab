// Stream capture on the CPU device: captured work becomes nodes instead of running, forks and
// joins through events, capture status and info, the capture-mode rules for potentially unsafe
// calls, the legacy stream's implicit dependency, invalidated and unjoined captures, capture into
// an existing graph, and mem-alloc nodes from cudaMallocAsync.

#include "CpuDeviceFixture.h"

#include <cstring>
#include <thread>

namespace ocelot::runtime::cpu::test {
namespace {

class CpuCaptureTest : public CpuDeviceTest {
protected:
  void SetUp() override {
    CpuDeviceTest::SetUp();
    write_ = load(kernelsPtx(), "write_value");
    add_ = load(kernelsPtx(), "add_value");
    values_ = allocate<int>(8);
    std::memset(values_, 0, 8 * sizeof(int));
    ASSERT_EQ(calls_->createStream(&s_, cudaStreamNonBlocking, 0), cudaSuccess);
    ASSERT_EQ(calls_->createStream(&t_, cudaStreamNonBlocking, 0), cudaSuccess);
  }
  void TearDown() override { device_->synchronize(); }

  cudaError_t launchOn(cudaStream_t stream, DeviceFunction function, int index, int value) {
    int* target = values_ + index;
    void* args[] = {&target, &value};
    LaunchParams params;
    params.function = function;
    params.grid = dim3(1);
    params.block = dim3(32);
    params.stream = calls_->stream(stream);
    params.args = args;
    return device_->launch(params);
  }
  cudaEvent_t event() {
    cudaEvent_t created = nullptr;
    EXPECT_EQ(calls_->createEvent(&created, cudaEventDisableTiming), cudaSuccess);
    return created;
  }
  size_t nodes(cudaGraph_t graph) {
    size_t count = 0;
    EXPECT_EQ(calls_->graphNodes(graph, nullptr, &count, false), cudaSuccess);
    return count;
  }
  size_t edges(cudaGraph_t graph) {
    size_t count = 0;
    EXPECT_EQ(calls_->graphEdges(graph, nullptr, nullptr, nullptr, &count), cudaSuccess);
    return count;
  }
  void launchGraph(cudaGraph_t graph) {
    cudaGraphExec_t exec = nullptr;
    cudaGraphInstantiateParams params = {};
    ASSERT_EQ(calls_->instantiateGraph(&exec, graph, &params), cudaSuccess);
    ASSERT_EQ(calls_->launchGraph(exec, s_), cudaSuccess);
    ASSERT_EQ(calls_->synchronizeStream(s_), cudaSuccess) << device_->faultMessage();
  }

  DeviceFunction write_ = nullptr, add_ = nullptr;
  int* values_ = nullptr;
  cudaStream_t s_ = nullptr, t_ = nullptr;
};

TEST_F(CpuCaptureTest, CapturedWorkBecomesNodesAndRunsOnlyWhenLaunched) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  ASSERT_EQ(calls_->captureStatus(s_, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(calls_->captureStatus(s_, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusActive);
  ASSERT_EQ(calls_->fill(values_, 0, 8 * sizeof(int), s_, true), cudaSuccess);
  ASSERT_EQ(launchOn(s_, write_, 0, 5), cudaSuccess);
  ASSERT_EQ(launchOn(s_, add_, 0, 1), cudaSuccess);
  ASSERT_EQ(calls_->copy(values_ + 1, values_, sizeof(int), s_, true), cudaSuccess);
  unsigned long long id = 0;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t* dependencies = nullptr;
  size_t count = 0;
  ASSERT_EQ(calls_->captureInfo(s_, &status, &id, &capturing, &dependencies, nullptr, &count),
            cudaSuccess);
  EXPECT_NE(id, 0u);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(nodes(capturing), 4u);
  EXPECT_EQ(values_[0], 0); // nothing ran
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(calls_->endCapture(s_, &graph), cudaSuccess);
  EXPECT_EQ(graph, capturing);
  EXPECT_EQ(edges(graph), 3u);
  ASSERT_EQ(calls_->captureStatus(s_, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  launchGraph(graph);
  EXPECT_EQ(values_[0], 6);
  EXPECT_EQ(values_[1], 6);
}

TEST_F(CpuCaptureTest, ForkAndJoinThroughEvents) {
  cudaEvent_t fork = event(), join = event();
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(launchOn(s_, write_, 0, 1), cudaSuccess);
  ASSERT_EQ(calls_->recordEvent(fork, s_), cudaSuccess);
  ASSERT_EQ(calls_->waitEvent(t_, fork, 0), cudaSuccess);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  ASSERT_EQ(calls_->captureStatus(t_, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusActive); // t joined the capture
  ASSERT_EQ(launchOn(t_, write_, 1, 2), cudaSuccess);
  ASSERT_EQ(launchOn(s_, write_, 2, 3), cudaSuccess);
  ASSERT_EQ(calls_->recordEvent(join, t_), cudaSuccess);
  ASSERT_EQ(calls_->waitEvent(s_, join, 0), cudaSuccess);
  ASSERT_EQ(launchOn(s_, add_, 1, 10), cudaSuccess);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(calls_->endCapture(s_, &graph), cudaSuccess);
  EXPECT_EQ(nodes(graph), 4u);
  EXPECT_EQ(edges(graph), 4u); // 1->t, 1->s, t->add, s->add
  ASSERT_EQ(calls_->captureStatus(t_, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  launchGraph(graph);
  EXPECT_EQ(values_[1], 12);
  EXPECT_EQ(values_[2], 3);
}

TEST_F(CpuCaptureTest, UnjoinedAndUnmatchedCapturesFail) {
  cudaEvent_t fork = event();
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(calls_->recordEvent(fork, s_), cudaSuccess);
  ASSERT_EQ(calls_->waitEvent(t_, fork, 0), cudaSuccess);
  ASSERT_EQ(launchOn(t_, write_, 0, 1), cudaSuccess);
  cudaGraph_t graph = nullptr;
  EXPECT_EQ(calls_->endCapture(t_, &graph), cudaErrorStreamCaptureUnmatched);
  EXPECT_EQ(calls_->endCapture(s_, &graph), cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(graph, nullptr);

  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(calls_->recordEvent(fork, s_), cudaSuccess);
  ASSERT_EQ(calls_->waitEvent(t_, fork, 0), cudaSuccess);
  ASSERT_EQ(launchOn(t_, write_, 0, 1), cudaSuccess); // never joined back
  EXPECT_EQ(calls_->endCapture(s_, &graph), cudaErrorStreamCaptureUnjoined);
  EXPECT_EQ(values_[0], 0);
}

TEST_F(CpuCaptureTest, CaptureStateErrors) {
  cudaGraph_t graph = nullptr;
  EXPECT_EQ(calls_->endCapture(s_, &graph), cudaErrorIllegalState);
  EXPECT_EQ(calls_->beginCapture(nullptr, cudaStreamCaptureModeGlobal),
            cudaErrorStreamCaptureUnsupported);
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  EXPECT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
  // Waiting on an event recorded outside the capture crosses its boundary.
  cudaEvent_t outside = event();
  ASSERT_EQ(calls_->recordEvent(outside, t_), cudaSuccess);
  EXPECT_EQ(calls_->waitEvent(s_, outside, 0), cudaErrorStreamCaptureIsolation);
  EXPECT_EQ(calls_->endCapture(s_, &graph), cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(calls_->updateCaptureDependencies(s_, nullptr, nullptr, 0, 0), cudaErrorIllegalState);
}

TEST_F(CpuCaptureTest, SynchronizingACapturingStreamInvalidatesTheCapture) {
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(launchOn(s_, write_, 0, 1), cudaSuccess);
  EXPECT_EQ(calls_->synchronizeStream(s_), cudaErrorStreamCaptureUnsupported);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  ASSERT_EQ(calls_->captureStatus(s_, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusInvalidated);
  EXPECT_EQ(launchOn(s_, write_, 0, 1), cudaErrorStreamCaptureInvalidated);
  cudaGraph_t graph = nullptr;
  EXPECT_EQ(calls_->endCapture(s_, &graph), cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(graph, nullptr);
}

TEST_F(CpuCaptureTest, CaptureModesDecideWhichUnsafeCallsAreProhibited) {
  void* memory = nullptr;
  // Global mode: this thread's capture prohibits cudaMalloc (and is invalidated by it).
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  EXPECT_EQ(device_->allocate(&memory, 64), cudaErrorStreamCaptureUnsupported);
  cudaGraph_t graph = nullptr;
  EXPECT_EQ(calls_->endCapture(s_, &graph), cudaErrorStreamCaptureInvalidated);

  // A thread in relaxed mode may make the call.
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  ASSERT_EQ(calls_->exchangeCaptureMode(&mode), cudaSuccess);
  EXPECT_EQ(mode, cudaStreamCaptureModeGlobal);
  EXPECT_EQ(device_->allocate(&memory, 64), cudaSuccess);
  ASSERT_EQ(calls_->exchangeCaptureMode(&mode), cudaSuccess);
  ASSERT_EQ(calls_->endCapture(s_, &graph), cudaSuccess);

  // Another thread's global capture prohibits this thread's call; a thread-local one does not.
  for (cudaStreamCaptureMode other :
       {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal}) {
    std::thread([&] { ASSERT_EQ(calls_->beginCapture(t_, other), cudaSuccess); }).join();
    const cudaError_t result = device_->allocate(&memory, 64);
    EXPECT_EQ(result, other == cudaStreamCaptureModeGlobal ? cudaErrorStreamCaptureUnsupported
                                                           : cudaSuccess);
    std::thread([&] {
      cudaGraph_t ended = nullptr;
      (void)calls_->endCapture(t_, &ended);
    }).join();
  }
}

TEST_F(CpuCaptureTest, LegacyStreamWorkWhileABlockingStreamIsCapturedIsImplicit) {
  cudaStream_t blocking = nullptr;
  ASSERT_EQ(calls_->createStream(&blocking, 0, 0), cudaSuccess);
  ASSERT_EQ(calls_->beginCapture(blocking, cudaStreamCaptureModeRelaxed), cudaSuccess);
  EXPECT_EQ(launchOn(nullptr, write_, 0, 1), cudaErrorStreamCaptureImplicit);
  cudaGraph_t graph = nullptr;
  EXPECT_EQ(calls_->endCapture(blocking, &graph), cudaErrorStreamCaptureInvalidated);
  // Non-blocking streams do not synchronize with the legacy stream.
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeRelaxed), cudaSuccess);
  EXPECT_EQ(launchOn(nullptr, write_, 0, 1), cudaSuccess);
  ASSERT_EQ(calls_->endCapture(s_, &graph), cudaSuccess);
}

TEST_F(CpuCaptureTest, CaptureIntoAnExistingGraphWithUpdatedDependencies) {
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(calls_->createGraph(&graph, 0), cudaSuccess);
  cudaGraphNodeParams empty = {};
  empty.type = cudaGraphNodeTypeEmpty;
  cudaGraphNode_t root = nullptr, other = nullptr;
  ASSERT_EQ(calls_->addGraphNode(&root, graph, nullptr, nullptr, 0, &empty), cudaSuccess);
  ASSERT_EQ(calls_->addGraphNode(&other, graph, nullptr, nullptr, 0, &empty), cudaSuccess);
  ASSERT_EQ(calls_->beginCaptureToGraph(s_, graph, &root, nullptr, 1, cudaStreamCaptureModeGlobal),
            cudaSuccess);
  ASSERT_EQ(
      calls_->updateCaptureDependencies(s_, &other, nullptr, 1, cudaStreamAddCaptureDependencies),
      cudaSuccess);
  ASSERT_EQ(launchOn(s_, write_, 0, 9), cudaSuccess);
  EXPECT_EQ(calls_->updateCaptureDependencies(s_, &other, nullptr, 1, 7), cudaErrorInvalidValue);
  cudaGraph_t ended = nullptr;
  ASSERT_EQ(calls_->endCapture(s_, &ended), cudaSuccess);
  EXPECT_EQ(ended, graph);
  EXPECT_EQ(nodes(graph), 3u);
  EXPECT_EQ(edges(graph), 2u);
  launchGraph(graph);
  EXPECT_EQ(values_[0], 9);
}

TEST_F(CpuCaptureTest, StreamOrderedAllocationBecomesGraphMemory) {
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  void* memory = nullptr;
  ASSERT_EQ(calls_->allocateAsync(&memory, 64, nullptr, s_), cudaSuccess);
  ASSERT_NE(memory, nullptr);
  ASSERT_EQ(calls_->fill(memory, 1, 64, s_, true), cudaSuccess);
  ASSERT_EQ(calls_->copy(values_, memory, sizeof(int), s_, true), cudaSuccess);
  ASSERT_EQ(calls_->freeAsync(memory, s_), cudaSuccess);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(calls_->endCapture(s_, &graph), cudaSuccess);
  std::vector<cudaGraphNode_t> listed(nodes(graph));
  size_t count = listed.size();
  ASSERT_EQ(calls_->graphNodes(graph, listed.data(), &count, false), cudaSuccess);
  cudaGraphNodeType first{}, last{};
  ASSERT_EQ(calls_->graphs().nodeType(listed.front(), &first), cudaSuccess);
  ASSERT_EQ(calls_->graphs().nodeType(listed.back(), &last), cudaSuccess);
  EXPECT_EQ(first, cudaGraphNodeTypeMemAlloc);
  EXPECT_EQ(last, cudaGraphNodeTypeMemFree);
  launchGraph(graph);
  EXPECT_EQ(values_[0], 0x01010101);
}

TEST_F(CpuCaptureTest, GraphLaunchesAreCapturedAsChildGraphs) {
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(launchOn(s_, add_, 0, 1), cudaSuccess);
  cudaGraph_t inner = nullptr;
  ASSERT_EQ(calls_->endCapture(s_, &inner), cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiateParams params = {};
  ASSERT_EQ(calls_->instantiateGraph(&exec, inner, &params), cudaSuccess);
  ASSERT_EQ(calls_->beginCapture(s_, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(calls_->launchGraph(exec, s_), cudaSuccess);
  ASSERT_EQ(calls_->launchGraph(exec, s_), cudaSuccess);
  cudaGraph_t outer = nullptr;
  ASSERT_EQ(calls_->endCapture(s_, &outer), cudaSuccess);
  EXPECT_EQ(values_[0], 0);
  launchGraph(outer);
  EXPECT_EQ(values_[0], 2);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
