#pragma once

#include "runtime/core/HandleTable.h"

#include <cuda_runtime_api.h>

#include <driver_types.h>

namespace ocelot::runtime {

/// A CUDA array of a device (cudaArray_t: the CUarray itself on the driver).
class Array {
public:
  explicit Array(cudaArray_t handle) : handle_(handle) {}
  virtual ~Array() = default;
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;

  cudaArray_t handle() const { return handle_; }

  /// The channel format, extent (in elements, as created) and flags.
  virtual cudaError_t info(cudaChannelFormatDesc* format, cudaExtent* extent,
                           unsigned int* flags) = 0;
  /// A plane of a multi-planar (NV12) array.
  virtual cudaError_t plane(unsigned int /*index*/, cudaArray_t* /*plane*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t memoryRequirements(cudaArrayMemoryRequirements* /*requirements*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t sparseProperties(cudaArraySparseProperties* /*properties*/) {
    return cudaErrorNotSupported;
  }

private:
  const cudaArray_t handle_;
};

/// A mipmapped array: its levels are arrays of halving extents.
class MipmappedArray {
public:
  explicit MipmappedArray(cudaMipmappedArray_t handle) : handle_(handle) {}
  virtual ~MipmappedArray() = default;
  MipmappedArray(const MipmappedArray&) = delete;
  MipmappedArray& operator=(const MipmappedArray&) = delete;

  cudaMipmappedArray_t handle() const { return handle_; }

  virtual cudaError_t level(unsigned int index, cudaArray_t* level) = 0;
  virtual cudaError_t memoryRequirements(cudaArrayMemoryRequirements* /*requirements*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t sparseProperties(cudaArraySparseProperties* /*properties*/) {
    return cudaErrorNotSupported;
  }

private:
  const cudaMipmappedArray_t handle_;
};

/// A device's CUDA arrays and mipmapped arrays.
class Arrays {
public:
  virtual ~Arrays() = default;

  /// cudaMallocArray / cudaMalloc3DArray: `format` is a validated channel description; extent in
  /// elements (height 0 for 1D, depth 0 for 1D and 2D; the layer count for layered arrays).
  virtual cudaError_t create(const cudaChannelFormatDesc& format, cudaExtent extent,
                             unsigned int flags, Array** array) = 0;
  virtual cudaError_t destroy(Array& array) = 0;
  virtual cudaError_t createMipmapped(const cudaChannelFormatDesc& format, cudaExtent extent,
                                      unsigned int levels, unsigned int flags,
                                      MipmappedArray** array) = 0;
  virtual cudaError_t destroy(MipmappedArray& array) = 0;

  Array* find(cudaArray_const_t handle) {
    if (Array* array = arrays_.find(handle))
      return array;
    return adopt(const_cast<cudaArray_t>(handle));
  }
  MipmappedArray* find(cudaMipmappedArray_const_t handle) {
    if (MipmappedArray* array = mipmapped_.find(handle))
      return array;
    return adopt(const_cast<cudaMipmappedArray_t>(handle));
  }

protected:
  /// Handles the tables do not know (see Streams::adopt): the driver's planes, mipmap levels and
  /// arrays of external memory.
  virtual Array* adopt(cudaArray_t /*handle*/) { return nullptr; }
  virtual MipmappedArray* adopt(cudaMipmappedArray_t /*handle*/) { return nullptr; }

  HandleTable<Array> arrays_;
  HandleTable<MipmappedArray> mipmapped_;
};

} // namespace ocelot::runtime
