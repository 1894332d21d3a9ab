// Runtime: CUDA arrays and mipmapped arrays.

#include "runtime/core/ChannelFormat.h"
#include "runtime/core/Runtime.h"

namespace ocelot::runtime {
namespace {

constexpr unsigned int k2DArrayFlags =
    cudaArraySurfaceLoadStore | cudaArrayTextureGather | cudaArraySparse | cudaArrayDeferredMapping;
constexpr unsigned int k3DArrayFlags =
    k2DArrayFlags | cudaArrayLayered | cudaArrayCubemap | cudaArrayColorAttachment;

} // namespace

cudaError_t Runtime::mallocArray(cudaArray_t* array, const cudaChannelFormatDesc* format,
                                 cudaExtent extent, unsigned int flags, bool threeD) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (array == nullptr || format == nullptr)
    return cudaErrorInvalidValue;
  ChannelLayout layout;
  if (cudaError_t error = channelLayout(*format, &layout); error != cudaSuccess)
    return error;
  if (extent.width == 0 || (flags & ~(threeD ? k3DArrayFlags : k2DArrayFlags)) != 0)
    return cudaErrorInvalidValue;
  // A layered or cubemap array needs its layers; a 3D array without height is not a 3D array.
  if (threeD && extent.depth != 0 && extent.height == 0 && (flags & cudaArrayLayered) == 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->createArray(array, *format, extent, flags));
}

cudaError_t Runtime::freeArray(cudaArray_t array) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (array == nullptr)
    return cudaSuccess;
  return deviceResult(device->destroyArray(array));
}

cudaError_t Runtime::arrayGetInfo(cudaChannelFormatDesc* format, cudaExtent* extent,
                                  unsigned int* flags, cudaArray_const_t array) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (array == nullptr)
    return cudaErrorInvalidResourceHandle;
  cudaChannelFormatDesc formatResult{};
  cudaExtent extentResult{};
  unsigned int flagsResult = 0;
  if (cudaError_t error = device->arrayInfo(&formatResult, &extentResult, &flagsResult, array);
      error != cudaSuccess)
    return deviceResult(error);
  // Each result may be null.
  if (format != nullptr)
    *format = formatResult;
  if (extent != nullptr)
    *extent = extentResult;
  if (flags != nullptr)
    *flags = flagsResult;
  return cudaSuccess;
}

cudaError_t Runtime::getChannelDesc(cudaChannelFormatDesc* format, cudaArray_const_t array) {
  if (format == nullptr) {
    if (cudaError_t error = initialize(); error != cudaSuccess)
      return error;
    return cudaErrorInvalidValue;
  }
  return arrayGetInfo(format, nullptr, nullptr, array);
}

cudaError_t Runtime::arrayGetPlane(cudaArray_t* plane, cudaArray_t array, unsigned int index) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (plane == nullptr)
    return cudaErrorInvalidValue;
  if (array == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->arrayPlane(plane, array, index));
}

cudaError_t Runtime::arrayGetMemoryRequirements(cudaArrayMemoryRequirements* requirements,
                                                cudaArray_t array, int ordinal) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(ordinal, &device); error != cudaSuccess)
    return error;
  if (requirements == nullptr)
    return cudaErrorInvalidValue;
  if (array == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->arrayMemoryRequirements(requirements, array));
}

cudaError_t Runtime::arrayGetSparseProperties(cudaArraySparseProperties* properties,
                                              cudaArray_t array) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (properties == nullptr)
    return cudaErrorInvalidValue;
  if (array == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->arraySparseProperties(properties, array));
}

cudaError_t Runtime::mallocMipmappedArray(cudaMipmappedArray_t* array,
                                          const cudaChannelFormatDesc* format, cudaExtent extent,
                                          unsigned int levels, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (array == nullptr || format == nullptr)
    return cudaErrorInvalidValue;
  ChannelLayout layout;
  if (cudaError_t error = channelLayout(*format, &layout); error != cudaSuccess)
    return error;
  if (extent.width == 0 || levels == 0 || (flags & ~k3DArrayFlags) != 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->createMipmappedArray(array, *format, extent, levels, flags));
}

cudaError_t Runtime::freeMipmappedArray(cudaMipmappedArray_t array) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (array == nullptr)
    return cudaSuccess;
  return deviceResult(device->destroyMipmappedArray(array));
}

cudaError_t Runtime::getMipmappedArrayLevel(cudaArray_t* level, cudaMipmappedArray_const_t array,
                                            unsigned int index) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (level == nullptr)
    return cudaErrorInvalidValue;
  if (array == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->mipmappedArrayLevel(level, array, index));
}

cudaError_t Runtime::mipmappedArrayGetMemoryRequirements(cudaArrayMemoryRequirements* requirements,
                                                         cudaMipmappedArray_t array, int ordinal) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(ordinal, &device); error != cudaSuccess)
    return error;
  if (requirements == nullptr)
    return cudaErrorInvalidValue;
  if (array == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->mipmappedArrayMemoryRequirements(requirements, array));
}

cudaError_t Runtime::mipmappedArrayGetSparseProperties(cudaArraySparseProperties* properties,
                                                       cudaMipmappedArray_t array) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (properties == nullptr)
    return cudaErrorInvalidValue;
  if (array == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->mipmappedArraySparseProperties(properties, array));
}

} // namespace ocelot::runtime
