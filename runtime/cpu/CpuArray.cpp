// CUDA arrays of the CPU device: plain device memory with a row/slice layout (ArrayLayout).

#include "runtime/cpu/CpuArray.h"

#include "runtime/cpu/CpuDevice.h"

#include <algorithm>
#include <cstring>

namespace ocelot::runtime::cpu {

// --- CpuArray -----------------------------------------------------------------------------------

CpuArray::CpuArray(CpuDevice& device, const ArrayLayout& layout)
    : Array(reinterpret_cast<cudaArray_t>(this)), device_(device), layout_(layout) {}

std::unique_ptr<CpuArray> CpuArray::create(CpuDevice& device, const cudaChannelFormatDesc& format,
                                           cudaExtent extent, unsigned int flags) {
  ArrayLayout layout;
  layout.format = format;
  layout.extent = extent;
  layout.flags = flags;
  const int bits = format.x + format.y + format.z + format.w;
  layout.elementBytes = static_cast<uint32_t>(std::max(bits / 8, 1));
  layout.width = std::max<size_t>(extent.width, 1);
  layout.height = std::max<size_t>(extent.height, 1);
  layout.depth = std::max<size_t>(extent.depth, 1);
  layout.rowBytes = layout.width * layout.elementBytes;
  layout.sliceBytes = layout.rowBytes * layout.height;
  const size_t bytes = layout.sliceBytes * layout.depth;
  layout.data =
      static_cast<std::byte*>(device.memory().allocate(bytes, DeviceMemory::Kind::Device));
  if (layout.data == nullptr)
    return nullptr;
  std::memset(layout.data, 0, bytes);
  return std::unique_ptr<CpuArray>(new CpuArray(device, layout));
}

CpuArray::~CpuArray() {
  device_.memory().release(layout_.data);
}

cudaError_t CpuArray::info(cudaChannelFormatDesc* format, cudaExtent* extent, unsigned int* flags) {
  *format = layout_.format;
  *extent = layout_.extent;
  *flags = layout_.flags;
  return cudaSuccess;
}

// --- CpuMipmappedArray --------------------------------------------------------------------------

CpuMipmappedArray::CpuMipmappedArray()
    : MipmappedArray(reinterpret_cast<cudaMipmappedArray_t>(this)) {}

cudaError_t CpuMipmappedArray::level(unsigned int index, cudaArray_t* level) {
  if (index >= levels_.size())
    return cudaErrorInvalidValue;
  *level = levels_[index]->handle();
  return cudaSuccess;
}

// --- CpuArrays ----------------------------------------------------------------------------------

cudaError_t CpuArrays::create(const cudaChannelFormatDesc& format, cudaExtent extent,
                              unsigned int flags, Array** array) {
  std::unique_ptr<CpuArray> created = CpuArray::create(device_, format, extent, flags);
  if (created == nullptr)
    return cudaErrorMemoryAllocation;
  const cudaArray_t handle = created->handle();
  *array = arrays_.insert(handle, std::move(created));
  return cudaSuccess;
}

cudaError_t CpuArrays::destroy(Array& array) {
  arrays_.remove(array.handle());
  return cudaSuccess;
}

cudaError_t CpuArrays::createMipmapped(const cudaChannelFormatDesc& format, cudaExtent extent,
                                       unsigned int levels, unsigned int flags,
                                       MipmappedArray** array) {
  auto mipmapped = std::make_unique<CpuMipmappedArray>();
  cudaExtent level = extent;
  for (unsigned int i = 0; i < std::max(levels, 1u); ++i) {
    Array* created = nullptr;
    if (cudaError_t error = create(format, level, flags, &created); error != cudaSuccess) {
      for (CpuArray* made : mipmapped->levels())
        arrays_.remove(made->handle());
      return error;
    }
    mipmapped->addLevel(static_cast<CpuArray&>(*created));
    level.width = std::max<size_t>(level.width / 2, 1);
    level.height = level.height != 0 ? std::max<size_t>(level.height / 2, 1) : 0;
    level.depth = level.depth != 0 ? std::max<size_t>(level.depth / 2, 1) : 0;
  }
  const cudaMipmappedArray_t handle = mipmapped->handle();
  *array = mipmapped_.insert(handle, std::move(mipmapped));
  return cudaSuccess;
}

cudaError_t CpuArrays::destroy(MipmappedArray& array) {
  std::unique_ptr<MipmappedArray> removed = mipmapped_.remove(array.handle());
  if (removed == nullptr)
    return cudaErrorInvalidResourceHandle;
  for (CpuArray* level : static_cast<CpuMipmappedArray&>(*removed).levels())
    arrays_.remove(level->handle());
  return cudaSuccess;
}

void CpuArrays::reset() {
  mipmapped_.clear();
  arrays_.clear();
}

} // namespace ocelot::runtime::cpu
