#pragma once

#include "runtime/core/Array.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ocelot::runtime::cpu {

class CpuDevice;

/// Where a CUDA array's elements are: row by row, slice by slice, in device memory. Copies and
/// texture objects read it.
struct ArrayLayout {
  cudaChannelFormatDesc format{};
  cudaExtent extent{}; ///< as created (height/depth 0 for lower dimensions)
  unsigned int flags = 0;
  uint32_t elementBytes = 0;
  size_t width = 0, height = 1, depth = 1;
  size_t rowBytes = 0, sliceBytes = 0;
  std::byte* data = nullptr;
};

/// A CUDA array of the CPU device (cudaArray_t: its address). Its memory goes with it.
class CpuArray final : public Array {
public:
  /// Allocates the array's memory (zeroed); null when the device has none left.
  static std::unique_ptr<CpuArray> create(CpuDevice& device, const cudaChannelFormatDesc& format,
                                          cudaExtent extent, unsigned int flags);
  ~CpuArray() override;

  const ArrayLayout& layout() const { return layout_; }

  cudaError_t info(cudaChannelFormatDesc* format, cudaExtent* extent, unsigned int* flags) override;

private:
  CpuArray(CpuDevice& device, const ArrayLayout& layout);

  CpuDevice& device_;
  const ArrayLayout layout_;
};

/// A mipmapped array of the CPU device: its levels are arrays of the device (halving extents),
/// which go with it.
class CpuMipmappedArray final : public MipmappedArray {
public:
  CpuMipmappedArray();

  const std::vector<CpuArray*>& levels() const { return levels_; }
  void addLevel(CpuArray& level) { levels_.push_back(&level); }

  cudaError_t level(unsigned int index, cudaArray_t* level) override;

private:
  std::vector<CpuArray*> levels_;
};

/// The CPU device's arrays and mipmapped arrays.
class CpuArrays final : public Arrays {
public:
  explicit CpuArrays(CpuDevice& device) : device_(device) {}

  cudaError_t create(const cudaChannelFormatDesc& format, cudaExtent extent, unsigned int flags,
                     Array** array) override;
  cudaError_t destroy(Array& array) override;
  cudaError_t createMipmapped(const cudaChannelFormatDesc& format, cudaExtent extent,
                              unsigned int levels, unsigned int flags,
                              MipmappedArray** array) override;
  cudaError_t destroy(MipmappedArray& array) override;

  /// The array of a handle (null when the device has none).
  const CpuArray* array(cudaArray_const_t handle) {
    return static_cast<const CpuArray*>(arrays_.find(handle));
  }
  const CpuMipmappedArray* mipmappedArray(cudaMipmappedArray_const_t handle) {
    return static_cast<const CpuMipmappedArray*>(mipmapped_.find(handle));
  }
  /// A device reset: every array goes.
  void reset();

private:
  CpuDevice& device_;
};

} // namespace ocelot::runtime::cpu
