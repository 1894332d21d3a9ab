// CUDA graphs on the CPU device: topology queries and edits, instantiation (cycles), launches of
// kernel/memset/memcpy/host/child/event nodes, executable-graph edits (node parameters, enabling),
// cudaGraphExecUpdate's pairing rules, conditional nodes driven by cudaGraphSetConditional in a
// kernel, clones, user objects, and the error codes of bad input.

#include "CpuDeviceFixture.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <unistd.h>

namespace ocelot::runtime::cpu::test {
namespace {

class CpuGraphTest : public CpuDeviceTest {
protected:
  void SetUp() override {
    CpuDeviceTest::SetUp();
    write_ = load(kernelsPtx(), "write_value");
    add_ = load(kernelsPtx(), "add_value");
    values_ = allocate<int>(16);
    std::memset(values_, 0, 16 * sizeof(int));
    ASSERT_EQ(calls_->createGraph(&graph_, 0), cudaSuccess);
  }

  cudaGraphNode_t add(cudaGraph_t graph, cudaGraphNodeParams params,
                      std::vector<cudaGraphNode_t> after = {}) {
    cudaGraphNode_t node = nullptr;
    EXPECT_EQ(calls_->addGraphNode(&node, graph, after.data(), nullptr, after.size(), &params),
              cudaSuccess);
    return node;
  }
  static cudaGraphNodeParams empty() {
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeEmpty;
    return params;
  }
  /// A one-thread kernel node; the arguments are copied when the node is added.
  static cudaGraphNodeParams kernel(DeviceFunction function, void** args) {
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeKernel;
    params.kernel.func = function;
    params.kernel.gridDim = dim3(1);
    params.kernel.blockDim = dim3(32);
    params.kernel.kernelParams = args;
    return params;
  }
  cudaGraphNode_t writeNode(cudaGraph_t graph, int index, int value,
                            std::vector<cudaGraphNode_t> after = {}) {
    int* target = values_ + index;
    void* args[] = {&target, &value};
    return add(graph, kernel(write_, args), std::move(after));
  }
  cudaGraphNode_t addNode(cudaGraph_t graph, int index, int value,
                          std::vector<cudaGraphNode_t> after = {}) {
    int* target = values_ + index;
    void* args[] = {&target, &value};
    return add(graph, kernel(add_, args), std::move(after));
  }
  cudaGraphExec_t instantiate(cudaGraph_t graph) {
    cudaGraphExec_t exec = nullptr;
    cudaGraphInstantiateParams params = {};
    EXPECT_EQ(calls_->instantiateGraph(&exec, graph, &params), cudaSuccess);
    return exec;
  }
  void run(cudaGraphExec_t exec) {
    ASSERT_EQ(calls_->launchGraph(exec, nullptr), cudaSuccess);
    ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  }
  size_t count(cudaGraph_t graph, bool roots = false) {
    size_t n = 0;
    EXPECT_EQ(calls_->graphNodes(graph, nullptr, &n, roots), cudaSuccess);
    return n;
  }

  DeviceFunction write_ = nullptr, add_ = nullptr;
  int* values_ = nullptr;
  cudaGraph_t graph_ = nullptr;
};

TEST_F(CpuGraphTest, TopologyQueriesFollowTheTwoCallProtocol) {
  cudaGraphNode_t a = add(graph_, empty());
  cudaGraphNode_t b = add(graph_, empty(), {a});
  cudaGraphNode_t c = add(graph_, empty(), {a, b});
  add(graph_, empty());
  EXPECT_EQ(count(graph_), 4u);
  EXPECT_EQ(count(graph_, true), 2u);
  size_t edges = 0;
  ASSERT_EQ(calls_->graphEdges(graph_, nullptr, nullptr, nullptr, &edges), cudaSuccess);
  EXPECT_EQ(edges, 3u);
  cudaGraphNode_t from[4], to[4];
  edges = 4;
  ASSERT_EQ(calls_->graphEdges(graph_, from, to, nullptr, &edges), cudaSuccess);
  EXPECT_EQ(edges, 3u); // the array was larger: the rest is cleared
  EXPECT_EQ(from[0], a);
  EXPECT_EQ(to[0], b);
  EXPECT_EQ(from[3], nullptr);
  cudaGraphNode_t listed[2];
  size_t n = 2;
  ASSERT_EQ(calls_->graphs().neighbours(c, listed, nullptr, &n, false), cudaSuccess);
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(listed[0], a);
  EXPECT_EQ(listed[1], b);
  n = 0;
  ASSERT_EQ(calls_->graphs().neighbours(a, nullptr, nullptr, &n, true), cudaSuccess);
  EXPECT_EQ(n, 2u);
  // Removing an edge and a node.
  ASSERT_EQ(calls_->changeGraphDependencies(graph_, &a, &c, nullptr, 1, false), cudaSuccess);
  ASSERT_EQ(calls_->graphs().destroyNode(b), cudaSuccess);
  EXPECT_EQ(count(graph_), 3u);
  EXPECT_EQ(count(graph_, true), 3u);
  cudaGraphNodeType type{};
  EXPECT_EQ(calls_->graphs().nodeType(b, &type), cudaErrorInvalidValue); // destroyed
}

TEST_F(CpuGraphTest, BadEdgesAndHandlesAreInvalidValues) {
  cudaGraph_t other = nullptr;
  ASSERT_EQ(calls_->createGraph(&other, 0), cudaSuccess);
  cudaGraphNode_t a = add(graph_, empty());
  cudaGraphNode_t b = add(graph_, empty(), {a});
  cudaGraphNode_t foreign = add(other, empty());
  EXPECT_EQ(calls_->changeGraphDependencies(graph_, &a, &b, nullptr, 1, true),
            cudaErrorInvalidValue); // exists already
  EXPECT_EQ(calls_->changeGraphDependencies(graph_, &b, &a, nullptr, 1, false),
            cudaErrorInvalidValue); // does not exist
  EXPECT_EQ(calls_->changeGraphDependencies(graph_, &a, &a, nullptr, 1, true),
            cudaErrorInvalidValue); // self edge
  EXPECT_EQ(calls_->changeGraphDependencies(graph_, &a, &foreign, nullptr, 1, true),
            cudaErrorInvalidValue); // another graph's node
  cudaGraphNodeParams params = empty();
  cudaGraphNode_t node = nullptr;
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, &foreign, nullptr, 1, &params),
            cudaErrorInvalidValue);
  cudaGraphNode_t twice[] = {a, a};
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, twice, nullptr, 2, &params), cudaErrorInvalidValue);
  auto bogus = reinterpret_cast<cudaGraph_t>(0x1000);
  EXPECT_EQ(calls_->addGraphNode(&node, bogus, nullptr, nullptr, 0, &params),
            cudaErrorInvalidValue);
  EXPECT_EQ(calls_->destroyGraph(bogus), cudaErrorInvalidValue);
  size_t n = 0;
  EXPECT_EQ(calls_->graphNodes(bogus, nullptr, &n, false), cudaErrorInvalidValue);
  EXPECT_EQ(count(graph_), 2u); // failed calls changed nothing
  EXPECT_EQ(calls_->destroyGraph(other), cudaSuccess);
  EXPECT_EQ(calls_->destroyGraph(other), cudaErrorInvalidValue);
}

TEST_F(CpuGraphTest, CyclesFailInstantiation) {
  cudaGraphNode_t a = add(graph_, empty());
  cudaGraphNode_t b = add(graph_, empty(), {a});
  ASSERT_EQ(calls_->changeGraphDependencies(graph_, &b, &a, nullptr, 1, true), cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiateParams params = {};
  EXPECT_EQ(calls_->instantiateGraph(&exec, graph_, &params), cudaErrorInvalidValue);
  EXPECT_EQ(params.result_out, cudaGraphInstantiateInvalidStructure);
  params = {};
  params.flags = 1ull << 40;
  EXPECT_EQ(calls_->instantiateGraph(&exec, graph_, &params), cudaErrorInvalidValue);
}

TEST_F(CpuGraphTest, CopyAndFillNodesOfMemoryTheDeviceDoesNotOwnAreRefused) {
  // As copies issued to a stream: a node made with them would crash or write into the neighbour
  // each time the graph runs.
  cudaGraphNodeParams fill = {};
  fill.type = cudaGraphNodeTypeMemset;
  fill.memset.dst = values_ + 8;
  fill.memset.elementSize = 4;
  fill.memset.width = 16; // values_ holds 16 ints: 8 past the end
  fill.memset.height = 1;
  cudaGraphNode_t node = nullptr;
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &fill), cudaErrorInvalidValue);
  fill.memset.width = 8;
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &fill), cudaSuccess);

  cudaGraphNodeParams copy = {};
  copy.type = cudaGraphNodeTypeMemcpy;
  copy.memcpy.copyParams.srcPtr = cudaPitchedPtr{values_, 64, 64, 1};
  // Mapped by nothing: 48 TiB, above the heap and below mmap's area, and outside ASan's shadow on
  // x86-64 (2 TiB to 16 TiB + 2 GiB, mapped: there msync finds a mapping and the copy is taken).
  copy.memcpy.copyParams.dstPtr =
      cudaPitchedPtr{reinterpret_cast<void*>(uintptr_t{3} << 44), 64, 64, 1};
  copy.memcpy.copyParams.extent = cudaExtent{64, 1, 1};
  copy.memcpy.copyParams.kind = cudaMemcpyDefault;
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &copy), cudaErrorInvalidValue);
  copy.memcpy.copyParams.dstPtr = cudaPitchedPtr{values_, 64, 64, 1};
  copy.memcpy.copyParams.srcPtr = cudaPitchedPtr{values_ + 8, 64, 64, 1}; // 32 bytes past the end
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &copy), cudaErrorInvalidValue);
  EXPECT_EQ(count(graph_), 1u);
}

TEST_F(CpuGraphTest, NodesRunInDependencyOrderWithArgumentsCopiedAtCreation) {
  // memset(values[0..4)) -> write 5 to [0] -> add 1 to [0]; a memcpy copies [0] to [1]; a host
  // node sees the result.
  cudaGraphNodeParams fill = {};
  fill.type = cudaGraphNodeTypeMemset;
  fill.memset.dst = values_;
  fill.memset.value = 0x01020304;
  fill.memset.elementSize = 4;
  fill.memset.width = 4;
  fill.memset.height = 1;
  cudaGraphNode_t filled = add(graph_, fill);
  int value = 5;
  int* target = values_;
  void* args[] = {&target, &value};
  cudaGraphNode_t written = add(graph_, kernel(write_, args), {filled});
  value = 6; // too late: the node copied its arguments
  cudaGraphNode_t added = addNode(graph_, 0, 1, {written});
  cudaGraphNodeParams copy = {};
  copy.type = cudaGraphNodeTypeMemcpy;
  copy.memcpy.copyParams.srcPtr = cudaPitchedPtr{values_, 4, 4, 1};
  copy.memcpy.copyParams.dstPtr = cudaPitchedPtr{values_ + 1, 4, 4, 1};
  copy.memcpy.copyParams.extent = cudaExtent{4, 1, 1};
  copy.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
  cudaGraphNode_t copied = add(graph_, copy, {added});
  struct Seen {
    int* values;
    int second = 0;
  } seen{values_};
  cudaGraphNodeParams host = {};
  host.type = cudaGraphNodeTypeHost;
  host.host.fn = [](void* data) {
    auto* s = static_cast<Seen*>(data);
    s->second = s->values[1];
  };
  host.host.userData = &seen;
  add(graph_, host, {copied});
  cudaGraphExec_t exec = instantiate(graph_);
  run(exec);
  EXPECT_EQ(values_[0], 6);
  EXPECT_EQ(values_[1], 6);
  EXPECT_EQ(values_[2], 0x01020304);
  EXPECT_EQ(seen.second, 6);
  // The reported kernel arguments are the node's copies.
  cudaGraphNodeParams got = {};
  ASSERT_EQ(calls_->graphs().nodeParams(written, &got), cudaSuccess);
  EXPECT_EQ(*static_cast<int*>(got.kernel.kernelParams[1]), 5);
  EXPECT_EQ(calls_->destroyGraphExec(exec), cudaSuccess);
  EXPECT_EQ(calls_->destroyGraphExec(exec), cudaErrorInvalidValue);
}

TEST_F(CpuGraphTest, ChildGraphsAndEventRecordNodes) {
  cudaGraph_t child = nullptr;
  ASSERT_EQ(calls_->createGraph(&child, 0), cudaSuccess);
  addNode(child, 2, 10);
  cudaGraphNodeParams embedded = {};
  embedded.type = cudaGraphNodeTypeGraph;
  embedded.graph.graph = child;
  cudaGraphNode_t node = add(graph_, embedded);
  addNode(child, 2, 1000); // the node holds a copy made when it was added
  cudaEvent_t event = nullptr;
  ASSERT_EQ(calls_->createEvent(&event, 0), cudaSuccess);
  cudaGraphNodeParams record = {};
  record.type = cudaGraphNodeTypeEventRecord;
  record.eventRecord.event = event;
  add(graph_, record, {node});
  cudaGraphExec_t exec = instantiate(graph_);
  run(exec);
  run(exec);
  EXPECT_EQ(values_[2], 20);
  EXPECT_EQ(calls_->queryEvent(event), cudaSuccess);
  cudaGraphNodeParams got = {};
  ASSERT_EQ(calls_->graphs().nodeParams(node, &got), cudaSuccess);
  EXPECT_NE(got.graph.graph, child);
  EXPECT_EQ(count(got.graph.graph), 1u);
  EXPECT_EQ(calls_->destroyGraph(got.graph.graph), cudaErrorInvalidValue); // owned by its node
}

TEST_F(CpuGraphTest, ExecutableGraphsChangeWithoutTheirTemplate) {
  cudaGraphNode_t written = writeNode(graph_, 0, 1);
  cudaGraphNode_t added = addNode(graph_, 0, 10, {written});
  cudaGraphExec_t exec = instantiate(graph_);
  int* target = values_;
  int value = 2;
  void* args[] = {&target, &value};
  cudaGraphNodeParams changed = kernel(write_, args);
  ASSERT_EQ(calls_->setExecNodeParams(exec, written, &changed), cudaSuccess);
  run(exec);
  EXPECT_EQ(values_[0], 12);
  ASSERT_EQ(calls_->setGraphNodeEnabled(exec, added, 0), cudaSuccess);
  unsigned int enabled = 1;
  ASSERT_EQ(calls_->graphNodeEnabled(exec, added, &enabled), cudaSuccess);
  EXPECT_EQ(enabled, 0u);
  run(exec);
  EXPECT_EQ(values_[0], 2);
  // The template still has the original parameters.
  cudaGraphExec_t fresh = instantiate(graph_);
  run(fresh);
  EXPECT_EQ(values_[0], 11);
  // Wrong node types and foreign nodes.
  cudaGraphNode_t other = add(graph_, empty());
  EXPECT_EQ(calls_->setGraphNodeEnabled(fresh, other, 0), cudaErrorInvalidValue); // not in exec
  cudaGraphNodeParams wrongType = empty();
  EXPECT_EQ(calls_->setExecNodeParams(exec, written, &wrongType), cudaErrorInvalidValue);
  EXPECT_EQ(calls_->graphs().setNodeParams(written, &wrongType), cudaErrorInvalidValue);
  cudaLaunchAttributeValue attribute = {};
  EXPECT_EQ(calls_->graphs().kernelNodeAttribute(other, cudaLaunchAttributePriority, &attribute),
            cudaErrorInvalidValue);
  attribute.priority = -3;
  ASSERT_EQ(
      calls_->graphs().setKernelNodeAttribute(written, cudaLaunchAttributePriority, &attribute),
      cudaSuccess);
  ASSERT_EQ(calls_->graphs().copyKernelNodeAttributes(added, written), cudaSuccess);
  cudaLaunchAttributeValue read = {};
  ASSERT_EQ(calls_->graphs().kernelNodeAttribute(added, cudaLaunchAttributePriority, &read),
            cudaSuccess);
  EXPECT_EQ(read.priority, -3);
}

TEST_F(CpuGraphTest, UpdatePairsNodesAndRefusesTopologyChanges) {
  writeNode(graph_, 0, 1);
  cudaGraphExec_t exec = instantiate(graph_);
  cudaGraph_t same = nullptr;
  ASSERT_EQ(calls_->createGraph(&same, 0), cudaSuccess);
  writeNode(same, 0, 2);
  cudaGraphExecUpdateResultInfo info = {};
  ASSERT_EQ(calls_->updateGraphExec(exec, same, &info), cudaSuccess);
  EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess);
  run(exec);
  EXPECT_EQ(values_[0], 2);

  cudaGraph_t bigger = nullptr;
  ASSERT_EQ(calls_->createGraph(&bigger, 0), cudaSuccess);
  cudaGraphNode_t first = writeNode(bigger, 0, 3);
  writeNode(bigger, 1, 3, {first});
  EXPECT_EQ(calls_->updateGraphExec(exec, bigger, &info), cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
  run(exec);
  EXPECT_EQ(values_[0], 2); // unchanged by the failed update

  cudaGraph_t otherType = nullptr;
  ASSERT_EQ(calls_->createGraph(&otherType, 0), cudaSuccess);
  cudaGraphNode_t emptyNode = add(otherType, empty());
  EXPECT_EQ(calls_->updateGraphExec(exec, otherType, &info), cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorNodeTypeChanged);
  EXPECT_EQ(info.errorNode, emptyNode);

  // A different kernel is a supported change.
  cudaGraph_t otherKernel = nullptr;
  ASSERT_EQ(calls_->createGraph(&otherKernel, 0), cudaSuccess);
  addNode(otherKernel, 0, 40);
  ASSERT_EQ(calls_->updateGraphExec(exec, otherKernel, &info), cudaSuccess);
  run(exec);
  EXPECT_EQ(values_[0], 42);
}

TEST_F(CpuGraphTest, ConditionalNodesFollowTheHandleKernelsSet) {
  DeviceFunction countdown = load(kernelsPtx(), "countdown");
  DeviceFunction setCondition = load(kernelsPtx(), "set_condition");
  // WHILE: the body counts values[0] down to 0, running values[0] times.
  cudaGraphConditionalHandle loop = 0;
  ASSERT_EQ(calls_->createConditionalHandle(&loop, graph_, 1, cudaGraphCondAssignDefault),
            cudaSuccess);
  cudaGraphNodeParams whileNode = {};
  whileNode.type = cudaGraphNodeTypeConditional;
  whileNode.conditional.handle = loop;
  whileNode.conditional.type = cudaGraphCondTypeWhile;
  whileNode.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
  ASSERT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &whileNode), cudaSuccess);
  ASSERT_NE(whileNode.conditional.phGraph_out, nullptr);
  int* counter = values_;
  int* steps = values_ + 1;
  void* args[] = {&loop, &counter, &steps};
  add(whileNode.conditional.phGraph_out[0], kernel(countdown, args));
  cudaGraphExec_t exec = instantiate(graph_);
  values_[0] = 5;
  run(exec);
  EXPECT_EQ(values_[0], 0);
  EXPECT_EQ(values_[1], 5);

  // SWITCH on a value a kernel reads from memory.
  cudaGraph_t switched = nullptr;
  ASSERT_EQ(calls_->createGraph(&switched, 0), cudaSuccess);
  cudaGraphConditionalHandle selector = 0;
  ASSERT_EQ(calls_->createConditionalHandle(&selector, switched, 0, 0), cudaSuccess);
  int* source = values_ + 2;
  void* setArgs[] = {&selector, &source};
  cudaGraphNode_t setter = add(switched, kernel(setCondition, setArgs));
  cudaGraphNodeParams switchNode = {};
  switchNode.type = cudaGraphNodeTypeConditional;
  switchNode.conditional.handle = selector;
  switchNode.conditional.type = cudaGraphCondTypeSwitch;
  switchNode.conditional.size = 3;
  ASSERT_EQ(calls_->addGraphNode(&node, switched, &setter, nullptr, 1, &switchNode), cudaSuccess);
  for (int c = 0; c < 3; ++c)
    writeNode(switchNode.conditional.phGraph_out[c], 3, 100 + c);
  cudaGraphExec_t switchExec = instantiate(switched);
  for (int selected : {2, 0, 7}) {
    values_[2] = selected;
    values_[3] = -1;
    run(switchExec);
    EXPECT_EQ(values_[3], selected < 3 ? 100 + selected : -1) << selected;
  }

  // Bad conditional nodes.
  cudaGraphNodeParams bad = whileNode;
  bad.conditional.size = 2; // a WHILE has one body
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &bad), cudaErrorInvalidValue);
  bad = whileNode;
  bad.conditional.handle = selector; // another graph's handle
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &bad), cudaErrorInvalidValue);
  bad = whileNode;
  bad.conditional.type = cudaGraphCondTypeIf;
  bad.conditional.size = 3;
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &bad), cudaErrorInvalidValue);
}

TEST_F(CpuGraphTest, BadNodeParameters) {
  cudaGraphNode_t node = nullptr;
  cudaGraphNodeParams fill = {};
  fill.type = cudaGraphNodeTypeMemset;
  fill.memset.dst = values_;
  fill.memset.elementSize = 3;
  fill.memset.width = 1;
  fill.memset.height = 1;
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &fill), cudaErrorInvalidValue);
  cudaGraphNodeParams host = {};
  host.type = cudaGraphNodeTypeHost;
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &host), cudaErrorInvalidValue);
  cudaGraphNodeParams launch = kernel(reinterpret_cast<DeviceFunction>(0x10), nullptr);
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &launch),
            cudaErrorInvalidDeviceFunction);
  cudaGraphNodeParams release = {};
  release.type = cudaGraphNodeTypeMemFree;
  release.free.dptr = values_; // not a graph allocation
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &release),
            cudaErrorInvalidValue);
  cudaGraphNodeParams record = {};
  record.type = cudaGraphNodeTypeEventRecord;
  record.eventRecord.event = reinterpret_cast<cudaEvent_t>(0x20);
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &record),
            cudaErrorInvalidValue);
  EXPECT_EQ(count(graph_), 0u);
}

TEST_F(CpuGraphTest, MemAllocNodesOwnTheirMemory) {
  cudaGraphNodeParams alloc = {};
  alloc.type = cudaGraphNodeTypeMemAlloc;
  alloc.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.alloc.poolProps.location = {cudaMemLocationTypeDevice, 0};
  alloc.alloc.bytesize = 64;
  cudaGraphNode_t allocated = nullptr;
  ASSERT_EQ(calls_->addGraphNode(&allocated, graph_, nullptr, nullptr, 0, &alloc), cudaSuccess);
  ASSERT_NE(alloc.alloc.dptr, nullptr); // the address is known when the node is made
  auto* memory = static_cast<int*>(alloc.alloc.dptr);
  int value = 77;
  void* writeArgs[] = {&memory, &value};
  cudaGraphNode_t written = add(graph_, kernel(write_, writeArgs), {allocated});
  cudaGraphNodeParams release = {};
  release.type = cudaGraphNodeTypeMemFree;
  release.free.dptr = memory;
  add(graph_, release, {written});
  cudaGraphNode_t node = nullptr;
  EXPECT_EQ(calls_->addGraphNode(&node, graph_, nullptr, nullptr, 0, &release),
            cudaErrorInvalidValue); // freed twice in one graph
  cudaGraphExec_t exec = instantiate(graph_);
  run(exec);
  EXPECT_EQ(memory[0], 77);
  EXPECT_EQ(device_->free(memory), cudaSuccess); // the graph's: nothing happens
  run(exec);
}

TEST_F(CpuGraphTest, ClonesAreIndependentAndFindTheirNodes) {
  cudaGraphNode_t written = writeNode(graph_, 0, 3);
  cudaGraph_t clone = nullptr;
  ASSERT_EQ(calls_->cloneGraph(&clone, graph_), cudaSuccess);
  cudaGraphNode_t twin = nullptr;
  ASSERT_EQ(calls_->findInClone(&twin, written, clone), cudaSuccess);
  EXPECT_NE(twin, written);
  cudaGraphNodeParams params = {};
  ASSERT_EQ(calls_->graphs().nodeParams(twin, &params), cudaSuccess);
  EXPECT_EQ(*static_cast<int*>(params.kernel.kernelParams[1]), 3);
  addNode(graph_, 0, 1, {written});
  EXPECT_EQ(count(clone), 1u);
  cudaGraphNode_t foreign = add(clone, empty());
  EXPECT_EQ(calls_->findInClone(&twin, foreign, graph_), cudaErrorInvalidValue);
}

TEST_F(CpuGraphTest, UserObjectsAreDestroyedWithTheirLastReference) {
  static int destroyed = 0;
  destroyed = 0;
  cudaUserObject_t object = nullptr;
  ASSERT_EQ(calls_->graphs().createUserObject(
                &object, nullptr, [](void*) { ++destroyed; }, 1, cudaUserObjectNoDestructorSync),
            cudaSuccess);
  ASSERT_EQ(calls_->changeGraphUserObject(graph_, object, 1, cudaGraphUserObjectMove), cudaSuccess);
  cudaGraphExec_t exec = instantiate(graph_);
  ASSERT_EQ(calls_->destroyGraph(graph_), cudaSuccess);
  EXPECT_EQ(destroyed, 0); // the executable graph holds a reference
  ASSERT_EQ(calls_->destroyGraphExec(exec), cudaSuccess);
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(calls_->graphs().changeUserObjectReferences(object, 1), cudaErrorInvalidValue);
}

TEST_F(CpuGraphTest, DebugDotPrintWritesGraphviz) {
  cudaGraphNode_t a = writeNode(graph_, 0, 1);
  addNode(graph_, 0, 1, {a});
  char path[] = "/tmp/ocelot_cpu_graph_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(calls_->printGraph(graph_, path, cudaGraphDebugDotFlagsVerbose), cudaSuccess);
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first.rfind("digraph", 0), 0u) << first;
  std::remove(path);
  EXPECT_EQ(calls_->printGraph(graph_, "/nonexistent/dir/file.dot", 0), cudaErrorOperatingSystem);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
