#pragma once

#include "runtime/core/Array.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

/// A CUDA array of a GPU: the CUarray is the handle. `device` is the GPU memory requirements are
/// asked for.
class DriverArray final : public Array {
public:
  DriverArray(const DriverApi& api, CUdevice device, cudaArray_t array)
      : Array(array), api_(api), device_(device) {}

  cudaError_t info(cudaChannelFormatDesc* format, cudaExtent* extent, unsigned int* flags) override;
  cudaError_t plane(unsigned int index, cudaArray_t* plane) override;
  cudaError_t memoryRequirements(cudaArrayMemoryRequirements* requirements) override;
  cudaError_t sparseProperties(cudaArraySparseProperties* properties) override;

private:
  CUarray driverHandle() const { return reinterpret_cast<CUarray>(handle()); }

  const DriverApi& api_;
  CUdevice device_;
};

/// A mipmapped array of a GPU: the CUmipmappedArray is the handle.
class DriverMipmappedArray final : public MipmappedArray {
public:
  DriverMipmappedArray(const DriverApi& api, CUdevice device, cudaMipmappedArray_t array)
      : MipmappedArray(array), api_(api), device_(device) {}

  cudaError_t level(unsigned int index, cudaArray_t* level) override;
  cudaError_t memoryRequirements(cudaArrayMemoryRequirements* requirements) override;
  cudaError_t sparseProperties(cudaArraySparseProperties* properties) override;

private:
  CUmipmappedArray driverHandle() const { return reinterpret_cast<CUmipmappedArray>(handle()); }

  const DriverApi& api_;
  CUdevice device_;
};

/// A GPU's arrays. Arrays the table does not know (planes, mipmap levels, arrays of external
/// memory, arrays made through the driver API) are wrapped when first seen.
class DriverArrays final : public Arrays {
public:
  DriverArrays(const DriverApi& api, CUdevice device) : api_(api), device_(device) {}

  cudaError_t create(const cudaChannelFormatDesc& format, cudaExtent extent, unsigned int flags,
                     Array** array) override;
  cudaError_t destroy(Array& array) override;
  cudaError_t createMipmapped(const cudaChannelFormatDesc& format, cudaExtent extent,
                              unsigned int levels, unsigned int flags,
                              MipmappedArray** array) override;
  cudaError_t destroy(MipmappedArray& array) override;

protected:
  Array* adopt(cudaArray_t handle) override;
  MipmappedArray* adopt(cudaMipmappedArray_t handle) override;

private:
  const DriverApi& api_;
  CUdevice device_;
};

} // namespace ocelot::runtime::driver
