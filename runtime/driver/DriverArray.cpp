// A GPU's CUDA arrays and mipmapped arrays (cudaArray_t is the driver's CUarray).
#include "runtime/driver/DriverArray.h"

#include "runtime/driver/DriverConversions.h"

#include <memory>

namespace ocelot::runtime::driver {
namespace {

static_assert(sizeof(cudaArrayMemoryRequirements) == sizeof(CUDA_ARRAY_MEMORY_REQUIREMENTS));
static_assert(sizeof(cudaArraySparseProperties) == sizeof(CUDA_ARRAY_SPARSE_PROPERTIES));

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

// --- DriverArray --------------------------------------------------------------------------------

cudaError_t DriverArray::info(cudaChannelFormatDesc* format, cudaExtent* extent,
                              unsigned int* flags) {
  CUDA_ARRAY3D_DESCRIPTOR descriptor{};
  if (CUresult result = invoke(api_.array3DGetDescriptor, &descriptor, driverHandle());
      result != CUDA_SUCCESS)
    return toCudaError(result);
  *format = toChannelFormat(descriptor.Format, descriptor.NumChannels);
  *extent = cudaExtent{descriptor.Width, descriptor.Height, descriptor.Depth};
  *flags = descriptor.Flags;
  return cudaSuccess;
}

cudaError_t DriverArray::plane(unsigned int index, cudaArray_t* plane) {
  CUarray found = nullptr;
  CUresult result = invoke(api_.arrayGetPlane, &found, driverHandle(), index);
  if (result == CUDA_SUCCESS)
    *plane = reinterpret_cast<cudaArray_t>(found);
  return toCudaError(result);
}

cudaError_t DriverArray::memoryRequirements(cudaArrayMemoryRequirements* requirements) {
  return toCudaError(invoke(api_.arrayGetMemoryRequirements,
                            reinterpret_cast<CUDA_ARRAY_MEMORY_REQUIREMENTS*>(requirements),
                            driverHandle(), device_));
}

cudaError_t DriverArray::sparseProperties(cudaArraySparseProperties* properties) {
  return toCudaError(invoke(api_.arrayGetSparseProperties,
                            reinterpret_cast<CUDA_ARRAY_SPARSE_PROPERTIES*>(properties),
                            driverHandle()));
}

// --- DriverMipmappedArray -----------------------------------------------------------------------

cudaError_t DriverMipmappedArray::level(unsigned int index, cudaArray_t* level) {
  CUarray found = nullptr;
  CUresult result = invoke(api_.mipmappedArrayGetLevel, &found, driverHandle(), index);
  if (result == CUDA_SUCCESS)
    *level = reinterpret_cast<cudaArray_t>(found);
  return toCudaError(result);
}

cudaError_t DriverMipmappedArray::memoryRequirements(cudaArrayMemoryRequirements* requirements) {
  return toCudaError(invoke(api_.mipmappedArrayGetMemoryRequirements,
                            reinterpret_cast<CUDA_ARRAY_MEMORY_REQUIREMENTS*>(requirements),
                            driverHandle(), device_));
}

cudaError_t DriverMipmappedArray::sparseProperties(cudaArraySparseProperties* properties) {
  return toCudaError(invoke(api_.mipmappedArrayGetSparseProperties,
                            reinterpret_cast<CUDA_ARRAY_SPARSE_PROPERTIES*>(properties),
                            driverHandle()));
}

// --- DriverArrays -------------------------------------------------------------------------------

cudaError_t DriverArrays::create(const cudaChannelFormatDesc& format, cudaExtent extent,
                                 unsigned int flags, Array** array) {
  CUDA_ARRAY3D_DESCRIPTOR descriptor;
  if (!describe(format, extent, flags, &descriptor))
    return cudaErrorInvalidChannelDescriptor;
  CUarray created = nullptr;
  if (CUresult result = invoke(api_.array3DCreate, &created, &descriptor); result != CUDA_SUCCESS)
    return toCudaError(result);
  auto handle = reinterpret_cast<cudaArray_t>(created);
  *array = arrays_.insert(handle, std::make_unique<DriverArray>(api_, device_, handle));
  return cudaSuccess;
}

cudaError_t DriverArrays::destroy(Array& array) {
  const cudaArray_t handle = array.handle();
  cudaError_t result = toCudaError(invoke(api_.arrayDestroy, reinterpret_cast<CUarray>(handle)));
  arrays_.remove(handle);
  return result;
}

cudaError_t DriverArrays::createMipmapped(const cudaChannelFormatDesc& format, cudaExtent extent,
                                          unsigned int levels, unsigned int flags,
                                          MipmappedArray** array) {
  CUDA_ARRAY3D_DESCRIPTOR descriptor;
  if (!describe(format, extent, flags, &descriptor))
    return cudaErrorInvalidChannelDescriptor;
  CUmipmappedArray created = nullptr;
  if (CUresult result = invoke(api_.mipmappedArrayCreate, &created, &descriptor, levels);
      result != CUDA_SUCCESS)
    return toCudaError(result);
  auto handle = reinterpret_cast<cudaMipmappedArray_t>(created);
  *array = mipmapped_.insert(handle, std::make_unique<DriverMipmappedArray>(api_, device_, handle));
  return cudaSuccess;
}

cudaError_t DriverArrays::destroy(MipmappedArray& array) {
  const cudaMipmappedArray_t handle = array.handle();
  cudaError_t result =
      toCudaError(invoke(api_.mipmappedArrayDestroy, reinterpret_cast<CUmipmappedArray>(handle)));
  mipmapped_.remove(handle);
  return result;
}

Array* DriverArrays::adopt(cudaArray_t handle) {
  return arrays_.findOrInsert(handle,
                              [&] { return std::make_unique<DriverArray>(api_, device_, handle); });
}

MipmappedArray* DriverArrays::adopt(cudaMipmappedArray_t handle) {
  return mipmapped_.findOrInsert(
      handle, [&] { return std::make_unique<DriverMipmappedArray>(api_, device_, handle); });
}

} // namespace ocelot::runtime::driver
