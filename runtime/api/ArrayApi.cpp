// The CUDA Runtime API: CUDA arrays and mipmapped arrays (CUDART_MEMORY).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error.

#include "runtime/api/ApiBoundary.h"
#include "runtime/core/ChannelFormat.h"

#include <cuda_runtime_api.h>

namespace ocelot::runtime::api {
namespace {

constexpr unsigned int k2DArrayFlags =
    cudaArraySurfaceLoadStore | cudaArrayTextureGather | cudaArraySparse | cudaArrayDeferredMapping;
constexpr unsigned int k3DArrayFlags =
    k2DArrayFlags | cudaArrayLayered | cudaArrayCubemap | cudaArrayColorAttachment;

cudaError_t allocateArray(cudaArray_t* array, const cudaChannelFormatDesc* format,
                          cudaExtent extent, unsigned int flags, bool threeD) {
  return onCurrentDevice([&](Scope& scope) {
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
    Array* created = nullptr;
    cudaError_t error = scope.arrays().create(*format, extent, flags, &created);
    if (error == cudaSuccess)
      *array = created->handle();
    return error;
  });
}

cudaError_t arrayInfo(cudaChannelFormatDesc* format, cudaExtent* extent, unsigned int* flags,
                      cudaArray_const_t array) {
  return onCurrentDevice([&](Scope& scope) {
    cudaChannelFormatDesc formatResult{};
    cudaExtent extentResult{};
    unsigned int flagsResult = 0;
    if (cudaError_t error = scope.array(array).info(&formatResult, &extentResult, &flagsResult);
        error != cudaSuccess)
      return error;
    // Each result may be null.
    if (format != nullptr)
      *format = formatResult;
    if (extent != nullptr)
      *extent = extentResult;
    if (flags != nullptr)
      *flags = flagsResult;
    return cudaSuccess;
  });
}

} // namespace
} // namespace ocelot::runtime::api

using namespace ocelot::runtime::api;
using ocelot::runtime::Array;
using ocelot::runtime::ChannelLayout;
using ocelot::runtime::channelLayout;
using ocelot::runtime::Device;
using ocelot::runtime::MipmappedArray;
using ocelot::runtime::Scope;

extern "C" {

cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc,
                                      size_t width, size_t height, unsigned int flags) {
  return allocateArray(array, desc, cudaExtent{width, height, 0}, flags, false);
}

cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t* array,
                                        const struct cudaChannelFormatDesc* desc,
                                        struct cudaExtent extent, unsigned int flags) {
  return allocateArray(array, desc, extent, flags, true);
}

cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array) {
  return onCurrentDevice([&](Scope& scope) {
    if (array == nullptr)
      return cudaSuccess;
    Array& freed = scope.array(array);
    return scope.arrays().destroy(freed);
  });
}

cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc* desc,
                                       struct cudaExtent* extent, unsigned int* flags,
                                       cudaArray_t array) {
  return arrayInfo(desc, extent, flags, array);
}

cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc* desc,
                                         cudaArray_const_t array) {
  if (desc == nullptr)
    return call([] {
      cudaError_t error = runtime().initialize();
      return error != cudaSuccess ? error : cudaErrorInvalidValue;
    });
  return arrayInfo(desc, nullptr, nullptr, array);
}

cudaError_t CUDARTAPI cudaArrayGetPlane(cudaArray_t* pPlaneArray, cudaArray_t hArray,
                                        unsigned int planeIdx) {
  return onCurrentDevice([&](Scope& scope) {
    if (pPlaneArray == nullptr)
      return cudaErrorInvalidValue;
    return scope.array(hArray).plane(planeIdx, pPlaneArray);
  });
}

cudaError_t CUDARTAPI cudaArrayGetMemoryRequirements(
    struct cudaArrayMemoryRequirements* memoryRequirements, cudaArray_t array, int device) {
  return call([&] {
    Scope scope(runtime());
    Device& selected = scope.device(device);
    if (memoryRequirements == nullptr)
      return cudaErrorInvalidValue;
    return scope.result(Scope::array(selected, array).memoryRequirements(memoryRequirements));
  });
}

cudaError_t CUDARTAPI cudaArrayGetSparseProperties(
    struct cudaArraySparseProperties* sparseProperties, cudaArray_t array) {
  return onCurrentDevice([&](Scope& scope) {
    if (sparseProperties == nullptr)
      return cudaErrorInvalidValue;
    return scope.array(array).sparseProperties(sparseProperties);
  });
}

cudaError_t CUDARTAPI cudaMallocMipmappedArray(cudaMipmappedArray_t* mipmappedArray,
                                               const struct cudaChannelFormatDesc* desc,
                                               struct cudaExtent extent, unsigned int numLevels,
                                               unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (mipmappedArray == nullptr || desc == nullptr)
      return cudaErrorInvalidValue;
    ChannelLayout layout;
    if (cudaError_t error = channelLayout(*desc, &layout); error != cudaSuccess)
      return error;
    if (extent.width == 0 || numLevels == 0 || (flags & ~k3DArrayFlags) != 0)
      return cudaErrorInvalidValue;
    MipmappedArray* created = nullptr;
    cudaError_t error = scope.arrays().createMipmapped(*desc, extent, numLevels, flags, &created);
    if (error == cudaSuccess)
      *mipmappedArray = created->handle();
    return error;
  });
}

cudaError_t CUDARTAPI cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
  return onCurrentDevice([&](Scope& scope) {
    if (mipmappedArray == nullptr)
      return cudaSuccess;
    MipmappedArray& freed = scope.mipmappedArray(mipmappedArray);
    return scope.arrays().destroy(freed);
  });
}

cudaError_t CUDARTAPI cudaGetMipmappedArrayLevel(cudaArray_t* levelArray,
                                                 cudaMipmappedArray_const_t mipmappedArray,
                                                 unsigned int level) {
  return onCurrentDevice([&](Scope& scope) {
    if (levelArray == nullptr)
      return cudaErrorInvalidValue;
    return scope.mipmappedArray(mipmappedArray).level(level, levelArray);
  });
}

cudaError_t CUDARTAPI
cudaMipmappedArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements* memoryRequirements,
                                        cudaMipmappedArray_t mipmap, int device) {
  return call([&] {
    Scope scope(runtime());
    Device& selected = scope.device(device);
    if (memoryRequirements == nullptr)
      return cudaErrorInvalidValue;
    return scope.result(
        Scope::mipmappedArray(selected, mipmap).memoryRequirements(memoryRequirements));
  });
}

cudaError_t CUDARTAPI cudaMipmappedArrayGetSparseProperties(
    struct cudaArraySparseProperties* sparseProperties, cudaMipmappedArray_t mipmap) {
  return onCurrentDevice([&](Scope& scope) {
    if (sparseProperties == nullptr)
      return cudaErrorInvalidValue;
    return scope.mipmappedArray(mipmap).sparseProperties(sparseProperties);
  });
}

} // extern "C"
