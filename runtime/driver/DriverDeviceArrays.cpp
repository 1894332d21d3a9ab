// DriverDevice: CUDA arrays and mipmapped arrays (cudaArray_t is the driver's CUarray).
#include "runtime/driver/DriverConversions.h"
#include "runtime/driver/DriverDevice.h"

namespace ocelot::runtime::driver {
namespace {

CUarray toDriver(cudaArray_const_t array) {
  return reinterpret_cast<CUarray>(const_cast<cudaArray_t>(array));
}

CUmipmappedArray toDriver(cudaMipmappedArray_const_t array) {
  return reinterpret_cast<CUmipmappedArray>(const_cast<cudaMipmappedArray_t>(array));
}

/// The driver's descriptor of an array: extents in elements (0 for unused dimensions), and the
/// cudaArray* flags, which have the values of the CUDA_ARRAY3D_* flags.
bool describe(const cudaChannelFormatDesc& format, cudaExtent extent, unsigned int flags,
              CUDA_ARRAY3D_DESCRIPTOR* descriptor) {
  *descriptor = CUDA_ARRAY3D_DESCRIPTOR{};
  descriptor->Width = extent.width;
  descriptor->Height = extent.height;
  descriptor->Depth = extent.depth;
  descriptor->Flags = flags;
  return toArrayFormat(format, &descriptor->Format, &descriptor->NumChannels);
}

} // namespace

cudaError_t DriverDevice::createArray(cudaArray_t* array, const cudaChannelFormatDesc& format,
                                      cudaExtent extent, unsigned int flags) {
  CUDA_ARRAY3D_DESCRIPTOR descriptor;
  if (!describe(format, extent, flags, &descriptor))
    return cudaErrorInvalidChannelDescriptor;
  CUarray created = nullptr;
  CUresult result = invoke(api_.array3DCreate, &created, &descriptor);
  if (result == CUDA_SUCCESS)
    *array = reinterpret_cast<cudaArray_t>(created);
  return toCudaError(result);
}

cudaError_t DriverDevice::destroyArray(cudaArray_t array) {
  return toCudaError(invoke(api_.arrayDestroy, toDriver(array)));
}

cudaError_t DriverDevice::arrayInfo(cudaChannelFormatDesc* format, cudaExtent* extent,
                                    unsigned int* flags, cudaArray_const_t array) {
  CUDA_ARRAY3D_DESCRIPTOR descriptor{};
  if (CUresult result = invoke(api_.array3DGetDescriptor, &descriptor, toDriver(array));
      result != CUDA_SUCCESS)
    return toCudaError(result);
  if (format != nullptr)
    *format = toChannelFormat(descriptor.Format, descriptor.NumChannels);
  if (extent != nullptr)
    *extent = cudaExtent{descriptor.Width, descriptor.Height, descriptor.Depth};
  if (flags != nullptr)
    *flags = descriptor.Flags;
  return cudaSuccess;
}

cudaError_t DriverDevice::arrayPlane(cudaArray_t* plane, cudaArray_t array, unsigned int index) {
  CUarray found = nullptr;
  CUresult result = invoke(api_.arrayGetPlane, &found, toDriver(array), index);
  if (result == CUDA_SUCCESS)
    *plane = reinterpret_cast<cudaArray_t>(found);
  return toCudaError(result);
}

cudaError_t DriverDevice::arrayMemoryRequirements(cudaArrayMemoryRequirements* requirements,
                                                  cudaArray_t array) {
  static_assert(sizeof(cudaArrayMemoryRequirements) == sizeof(CUDA_ARRAY_MEMORY_REQUIREMENTS));
  return toCudaError(invoke(api_.arrayGetMemoryRequirements,
                            reinterpret_cast<CUDA_ARRAY_MEMORY_REQUIREMENTS*>(requirements),
                            toDriver(array), device_));
}

cudaError_t DriverDevice::arraySparseProperties(cudaArraySparseProperties* properties,
                                                cudaArray_t array) {
  static_assert(sizeof(cudaArraySparseProperties) == sizeof(CUDA_ARRAY_SPARSE_PROPERTIES));
  return toCudaError(invoke(api_.arrayGetSparseProperties,
                            reinterpret_cast<CUDA_ARRAY_SPARSE_PROPERTIES*>(properties),
                            toDriver(array)));
}

cudaError_t DriverDevice::createMipmappedArray(cudaMipmappedArray_t* array,
                                               const cudaChannelFormatDesc& format,
                                               cudaExtent extent, unsigned int levels,
                                               unsigned int flags) {
  CUDA_ARRAY3D_DESCRIPTOR descriptor;
  if (!describe(format, extent, flags, &descriptor))
    return cudaErrorInvalidChannelDescriptor;
  CUmipmappedArray created = nullptr;
  CUresult result = invoke(api_.mipmappedArrayCreate, &created, &descriptor, levels);
  if (result == CUDA_SUCCESS)
    *array = reinterpret_cast<cudaMipmappedArray_t>(created);
  return toCudaError(result);
}

cudaError_t DriverDevice::destroyMipmappedArray(cudaMipmappedArray_t array) {
  return toCudaError(invoke(api_.mipmappedArrayDestroy, toDriver(array)));
}

cudaError_t DriverDevice::mipmappedArrayLevel(cudaArray_t* level, cudaMipmappedArray_const_t array,
                                              unsigned int index) {
  CUarray found = nullptr;
  CUresult result = invoke(api_.mipmappedArrayGetLevel, &found, toDriver(array), index);
  if (result == CUDA_SUCCESS)
    *level = reinterpret_cast<cudaArray_t>(found);
  return toCudaError(result);
}

cudaError_t
DriverDevice::mipmappedArrayMemoryRequirements(cudaArrayMemoryRequirements* requirements,
                                               cudaMipmappedArray_t array) {
  return toCudaError(invoke(api_.mipmappedArrayGetMemoryRequirements,
                            reinterpret_cast<CUDA_ARRAY_MEMORY_REQUIREMENTS*>(requirements),
                            toDriver(array), device_));
}

cudaError_t DriverDevice::mipmappedArraySparseProperties(cudaArraySparseProperties* properties,
                                                         cudaMipmappedArray_t array) {
  return toCudaError(invoke(api_.mipmappedArrayGetSparseProperties,
                            reinterpret_cast<CUDA_ARRAY_SPARSE_PROPERTIES*>(properties),
                            toDriver(array)));
}

} // namespace ocelot::runtime::driver
