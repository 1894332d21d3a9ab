#include "runtime/core/CopyRegion.h"

#include "runtime/core/Array.h"
#include "runtime/core/ChannelFormat.h"
#include "runtime/core/Device.h"

namespace ocelot::runtime {
namespace {

CopyEndpoint endpointOf(cudaArray_const_t array, const cudaPitchedPtr& pointer,
                        const cudaPos& position, size_t element) {
  CopyEndpoint endpoint;
  if (array != nullptr) {
    endpoint.array = const_cast<cudaArray_t>(array);
    endpoint.x = position.x * element;
  } else {
    endpoint.pointer = pointer.ptr;
    endpoint.pitch = pointer.pitch;
    endpoint.rowsPerSlice = pointer.ysize;
    endpoint.x = position.x;
  }
  endpoint.y = position.y;
  endpoint.z = position.z;
  return endpoint;
}

} // namespace

cudaError_t arrayElementBytes(Device& device, cudaArray_const_t array, size_t* elementBytes,
                              size_t* rowBytes) {
  Arrays* arrays = device.arrays();
  if (arrays == nullptr)
    return cudaErrorNotSupported;
  Array* found = arrays->find(array);
  if (found == nullptr)
    return cudaErrorInvalidResourceHandle;
  cudaChannelFormatDesc format{};
  cudaExtent extent{};
  unsigned int flags = 0;
  if (cudaError_t error = found->info(&format, &extent, &flags); error != cudaSuccess)
    return error;
  ChannelLayout layout;
  if (channelLayout(format, &layout) != cudaSuccess)
    return cudaErrorInvalidResourceHandle;
  *elementBytes = layout.elementBytes;
  if (rowBytes != nullptr)
    *rowBytes = extent.width * layout.elementBytes;
  return cudaSuccess;
}

cudaError_t copyRegionOf(const cudaMemcpy3DParms& params, Device& device, CopyRegion* region) {
  bool sourceArray = params.srcArray != nullptr;
  bool destinationArray = params.dstArray != nullptr;
  // Exactly one of array and pointer on each side.
  if (sourceArray == (params.srcPtr.ptr != nullptr) ||
      destinationArray == (params.dstPtr.ptr != nullptr))
    return cudaErrorInvalidValue;
  // Extents count elements when an array takes part (the source's, if both do), bytes otherwise.
  size_t sourceElement = 1, destinationElement = 1;
  if (sourceArray)
    if (cudaError_t error = arrayElementBytes(device, params.srcArray, &sourceElement);
        error != cudaSuccess)
      return error;
  if (destinationArray)
    if (cudaError_t error = arrayElementBytes(device, params.dstArray, &destinationElement);
        error != cudaSuccess)
      return error;
  CopyRegion copy;
  copy.source = endpointOf(params.srcArray, params.srcPtr, params.srcPos, sourceElement);
  copy.destination = endpointOf(params.dstArray, params.dstPtr, params.dstPos, destinationElement);
  copy.widthBytes = params.extent.width * (sourceArray ? sourceElement : destinationElement);
  copy.height = params.extent.height;
  copy.depth = params.extent.depth;
  *region = copy;
  return cudaSuccess;
}

cudaError_t copyParamsOf(const CopyRegion& region, Device& device, cudaMemcpy3DParms* params) {
  cudaMemcpy3DParms copy{};
  size_t sourceElement = 1, destinationElement = 1;
  if (region.source.array != nullptr)
    if (cudaError_t error = arrayElementBytes(device, region.source.array, &sourceElement);
        error != cudaSuccess)
      return error;
  if (region.destination.array != nullptr)
    if (cudaError_t error =
            arrayElementBytes(device, region.destination.array, &destinationElement);
        error != cudaSuccess)
      return error;
  copy.srcArray = region.source.array;
  copy.srcPtr =
      cudaPitchedPtr{region.source.pointer, region.source.pitch, 0, region.source.rowsPerSlice};
  copy.srcPos = cudaPos{region.source.x / sourceElement, region.source.y, region.source.z};
  copy.dstArray = region.destination.array;
  copy.dstPtr = cudaPitchedPtr{region.destination.pointer, region.destination.pitch, 0,
                               region.destination.rowsPerSlice};
  copy.dstPos = cudaPos{region.destination.x / destinationElement, region.destination.y,
                        region.destination.z};
  size_t widthElement = region.source.array != nullptr        ? sourceElement
                        : region.destination.array != nullptr ? destinationElement
                                                              : 1;
  copy.extent = cudaExtent{region.widthBytes / widthElement, region.height, region.depth};
  copy.kind = cudaMemcpyDefault;
  *params = copy;
  return cudaSuccess;
}

} // namespace ocelot::runtime
