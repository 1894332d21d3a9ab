#include "runtime/driver/DriverStream.h"

#include "runtime/core/Event.h"
#include "runtime/core/Graph.h"

namespace ocelot::runtime::driver {
namespace {

// cudaLaunchAttributeValue and CUlaunchAttributeValue (= CUstreamAttrValue) are the same union.
static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUlaunchAttributeValue));
static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData));

} // namespace

cudaError_t DriverStream::synchronize() {
  return toCudaError(api_.streamSynchronize(handle()));
}

cudaError_t DriverStream::query() {
  return toCudaError(api_.streamQuery(handle()));
}

cudaError_t DriverStream::waitEvent(Event& event, unsigned int flags) {
  return toCudaError(api_.streamWaitEvent(handle(), event.handle(), flags));
}

cudaError_t DriverStream::launchHostFunction(cudaHostFn_t function, void* userData) {
  return toCudaError(invoke(api_.launchHostFunc, handle(), function, userData));
}

cudaError_t DriverStream::flags(unsigned int* flags) {
  return toCudaError(invoke(api_.streamGetFlags, handle(), flags));
}

cudaError_t DriverStream::priority(int* priority) {
  return toCudaError(invoke(api_.streamGetPriority, handle(), priority));
}

cudaError_t DriverStream::id(unsigned long long* id) {
  return toCudaError(invoke(api_.streamGetId, handle(), id));
}

cudaError_t DriverStream::device(int* ordinal) {
  // The driver numbers its devices as the runtime does (CUdevice is the ordinal).
  CUdevice device = 0;
  CUresult result = invoke(api_.streamGetDevice, handle(), &device);
  if (result == CUDA_SUCCESS)
    *ordinal = static_cast<int>(device);
  return toCudaError(result);
}

cudaError_t DriverStream::attribute(cudaLaunchAttributeID id, cudaLaunchAttributeValue* value) {
  return toCudaError(invoke(api_.streamGetAttribute, handle(), static_cast<CUstreamAttrID>(id),
                            reinterpret_cast<CUstreamAttrValue*>(value)));
}

cudaError_t DriverStream::setAttribute(cudaLaunchAttributeID id,
                                       const cudaLaunchAttributeValue* value) {
  return toCudaError(invoke(api_.streamSetAttribute, handle(), static_cast<CUstreamAttrID>(id),
                            reinterpret_cast<const CUstreamAttrValue*>(value)));
}

cudaError_t DriverStream::copyAttributesFrom(Stream& source) {
  return toCudaError(invoke(api_.streamCopyAttributes, handle(), source.handle()));
}

cudaError_t DriverStream::attachMemory(void* pointer, size_t bytes, unsigned int flags) {
  return toCudaError(invoke(api_.streamAttachMemAsync, handle(),
                            reinterpret_cast<CUdeviceptr>(pointer), bytes, flags));
}

cudaError_t DriverStream::beginCapture(cudaStreamCaptureMode mode) {
  return toCudaError(
      invoke(api_.streamBeginCapture, handle(), static_cast<CUstreamCaptureMode>(mode)));
}

cudaError_t DriverStream::beginCaptureToGraph(Graph& graph, const cudaGraphNode_t* dependencies,
                                              const cudaGraphEdgeData* edges, size_t count,
                                              cudaStreamCaptureMode mode) {
  return toCudaError(invoke(api_.streamBeginCaptureToGraph, handle(), graph.handle(), dependencies,
                            reinterpret_cast<const CUgraphEdgeData*>(edges), count,
                            static_cast<CUstreamCaptureMode>(mode)));
}

cudaError_t DriverStream::endCapture(cudaGraph_t* graph) {
  return toCudaError(invoke(api_.streamEndCapture, handle(), graph));
}

cudaError_t DriverStream::captureStatus(cudaStreamCaptureStatus* status) {
  CUstreamCaptureStatus driverStatus{};
  CUresult result = invoke(api_.streamIsCapturing, handle(), &driverStatus);
  if (result == CUDA_SUCCESS)
    *status = static_cast<cudaStreamCaptureStatus>(driverStatus);
  return toCudaError(result);
}

cudaError_t DriverStream::captureInfo(cudaStreamCaptureStatus* status, unsigned long long* id,
                                      cudaGraph_t* graph, const cudaGraphNode_t** dependencies,
                                      const cudaGraphEdgeData** edges, size_t* count) {
  CUstreamCaptureStatus driverStatus{};
  cuuint64_t captureId = 0;
  CUresult result = invoke(api_.streamGetCaptureInfo, handle(), &driverStatus, &captureId, graph,
                           dependencies, reinterpret_cast<const CUgraphEdgeData**>(edges), count);
  if (result != CUDA_SUCCESS)
    return toCudaError(result);
  if (status != nullptr)
    *status = static_cast<cudaStreamCaptureStatus>(driverStatus);
  if (id != nullptr)
    *id = captureId;
  return cudaSuccess;
}

cudaError_t DriverStream::updateCaptureDependencies(cudaGraphNode_t* dependencies,
                                                    const cudaGraphEdgeData* edges, size_t count,
                                                    unsigned int flags) {
  return toCudaError(invoke(api_.streamUpdateCaptureDependencies, handle(), dependencies,
                            reinterpret_cast<const CUgraphEdgeData*>(edges), count, flags));
}

DriverStreams::DriverStreams(const DriverApi& api)
    : api_(api), null_(api, nullptr), legacy_(api, CU_STREAM_LEGACY),
      perThread_(api, CU_STREAM_PER_THREAD) {
  nullStream_ = &null_;
  legacyStream_ = &legacy_;
}

cudaError_t DriverStreams::create(unsigned int flags, int priority, Stream** stream) {
  CUstream created = nullptr;
  if (CUresult result = api_.streamCreateWithPriority(&created, flags, priority);
      result != CUDA_SUCCESS)
    return toCudaError(result);
  *stream = created_.insert(created, std::make_unique<DriverStream>(api_, created));
  return cudaSuccess;
}

cudaError_t DriverStreams::destroy(Stream& stream) {
  const cudaStream_t handle = stream.handle();
  cudaError_t result = toCudaError(api_.streamDestroy(handle));
  // Whatever the driver answered, the handle no longer names a stream of ours.
  created_.remove(handle);
  return result;
}

cudaError_t DriverStreams::priorityRange(int* least, int* greatest) {
  return toCudaError(invoke(api_.ctxGetStreamPriorityRange, least, greatest));
}

cudaError_t DriverStreams::exchangeCaptureMode(cudaStreamCaptureMode* mode) {
  auto* driverMode = reinterpret_cast<CUstreamCaptureMode*>(mode);
  return toCudaError(invoke(api_.threadExchangeStreamCaptureMode, driverMode));
}

Stream* DriverStreams::adopt(cudaStream_t handle) {
  return created_.findOrInsert(handle,
                               [&] { return std::make_unique<DriverStream>(api_, handle); });
}

} // namespace ocelot::runtime::driver
