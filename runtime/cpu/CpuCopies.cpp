// The CPU device's copies and fills. Each is validated when it is issued and runs in stream order
// on the stream's thread (or becomes a graph node while its stream is captured); the synchronous
// forms wait for it.

#include "runtime/cpu/CpuCopies.h"

#include "runtime/core/CopyRegion.h"
#include "runtime/cpu/CpuDevice.h"

#include <cstring>

namespace ocelot::runtime::cpu {
namespace {

/// The address of (x bytes, row y, slice z) of one side of a copy.
std::byte* endpointAddress(const CopyEndpoint& side, const ArrayLayout* array, size_t row,
                           size_t slice) {
  if (array != nullptr)
    return array->data + (side.z + slice) * array->sliceBytes + (side.y + row) * array->rowBytes +
           side.x;
  const size_t rowsPerSlice = side.rowsPerSlice;
  return static_cast<std::byte*>(side.pointer) +
         ((side.z + slice) * rowsPerSlice + side.y + row) * side.pitch + side.x;
}

/// A 1D copy as graph-node parameters (what cudaGraphAddMemcpyNode1D makes).
cudaGraphNodeParams copyNode(void* destination, const void* source, size_t bytes) {
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeMemcpy;
  cudaMemcpy3DParms& copy = params.memcpy.copyParams;
  copy.srcPtr = cudaPitchedPtr{const_cast<void*>(source), bytes, bytes, 1};
  copy.dstPtr = cudaPitchedPtr{destination, bytes, bytes, 1};
  copy.extent = cudaExtent{bytes, 1, 1};
  copy.kind = cudaMemcpyDefault;
  return params;
}

cudaGraphNodeParams fillNode(void* destination, size_t pitch, unsigned char value, size_t width,
                             size_t height) {
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeMemset;
  params.memset.dst = destination;
  params.memset.pitch = pitch;
  params.memset.value = value;
  params.memset.elementSize = 1;
  params.memset.width = width;
  params.memset.height = height;
  return params;
}

/// The bytes a pitched side of a copy spans, from its first byte to the last byte of its last row
/// (false when that does not fit in the address space).
bool pitchedSpan(const void* pointer, size_t pitch, size_t rowsPerSlice, size_t x, size_t y,
                 size_t z, size_t width, size_t height, size_t depth, uintptr_t* first,
                 size_t* bytes) {
  size_t firstRow = 0, lastRow = 0, start = 0, end = 0;
  if (__builtin_mul_overflow(z, rowsPerSlice, &firstRow) ||
      __builtin_add_overflow(firstRow, y, &firstRow) ||
      __builtin_mul_overflow(depth - 1, rowsPerSlice, &lastRow) ||
      __builtin_add_overflow(lastRow, firstRow + height - 1, &lastRow) ||
      __builtin_mul_overflow(firstRow, pitch, &start) || __builtin_add_overflow(start, x, &start) ||
      __builtin_mul_overflow(lastRow, pitch, &end) || __builtin_add_overflow(end, x, &end) ||
      __builtin_add_overflow(end, width, &end))
    return false;
  if (__builtin_add_overflow(reinterpret_cast<uintptr_t>(pointer), start, first))
    return false;
  *bytes = end - start;
  return true;
}

} // namespace

bool CpuCopies::copyable(const void* pointer, size_t bytes) const {
  return device_.memory().copyable(reinterpret_cast<uintptr_t>(pointer), bytes);
}

bool CpuCopies::copyable(const CopyRegion& region) const {
  return region.widthBytes == 0 || region.height == 0 || region.depth == 0 ||
         (copyable(region.source, region) && copyable(region.destination, region));
}

bool CpuCopies::fillable(const cudaMemsetParamsV2& fill) const {
  const size_t rows = fill.height == 0 ? 1 : fill.height;
  size_t rowBytes = 0;
  if (__builtin_mul_overflow(fill.width, fill.elementSize, &rowBytes))
    return false;
  if (rowBytes == 0)
    return true;
  uintptr_t first = 0;
  size_t bytes = 0;
  return pitchedSpan(fill.dst, rows > 1 ? fill.pitch : rowBytes, rows, 0, 0, 0, rowBytes, rows, 1,
                     &first, &bytes) &&
         device_.memory().accessible(first, bytes);
}

bool CpuCopies::copyable(const CopyEndpoint& side, const CopyRegion& region) const {
  if (side.array != nullptr)
    return true; // arrays check their own bounds (copyRegionOf)
  uintptr_t first = 0;
  size_t bytes = 0;
  return pitchedSpan(side.pointer, side.pitch, side.rowsPerSlice, side.x, side.y, side.z,
                     region.widthBytes, region.height, region.depth, &first, &bytes) &&
         device_.memory().copyable(first, bytes);
}

void CpuCopies::runCopy3D(const CopyRegion& region) {
  // The arrays are looked up again: one may have been destroyed since the copy was issued.
  const ArrayLayout* from = nullptr;
  const ArrayLayout* to = nullptr;
  CpuArrays& arrays = device_.cpuArrays();
  if (region.source.array != nullptr) {
    const CpuArray* array = arrays.array(region.source.array);
    if (array == nullptr)
      return;
    from = &array->layout();
  }
  if (region.destination.array != nullptr) {
    const CpuArray* array = arrays.array(region.destination.array);
    if (array == nullptr)
      return;
    to = &array->layout();
  }
  for (size_t z = 0; z < region.depth; ++z)
    for (size_t y = 0; y < region.height; ++y)
      std::memmove(endpointAddress(region.destination, to, y, z),
                   endpointAddress(region.source, from, y, z), region.widthBytes);
}

void CpuCopies::runMemset(const cudaMemsetParamsV2& fill) {
  const size_t rows = fill.height == 0 ? 1 : fill.height;
  const size_t rowBytes = fill.width * fill.elementSize;
  const size_t pitch = rows > 1 ? fill.pitch : rowBytes;
  for (size_t y = 0; y < rows; ++y) {
    auto* row = static_cast<std::byte*>(fill.dst) + y * pitch;
    if (fill.elementSize == 1) {
      std::memset(row, static_cast<int>(fill.value & 0xff), rowBytes);
      continue;
    }
    for (size_t x = 0; x < fill.width; ++x)
      std::memcpy(row + x * fill.elementSize, &fill.value, fill.elementSize);
  }
}

cudaError_t CpuCopies::copy(void* destination, const void* source, size_t bytes, Stream& queue,
                            bool async) {
  if (cudaError_t error = device_.sticky(); error != cudaSuccess)
    return error;
  if (bytes != 0 && (!copyable(destination, bytes) || !copyable(source, bytes)))
    return cudaErrorInvalidValue;
  auto& stream = static_cast<CpuStream&>(queue);
  if (stream.capturing()) {
    if (!async)
      return stream.refuseDuringCapture();
    return stream.capture(copyNode(destination, source, bytes));
  }
  if (cudaError_t error = stream.checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  if (bytes == 0 || destination == source)
    return async ? cudaSuccess : stream.runSynchronously(nullptr);
  // As CUDA does with pageable host memory: a copy to it completes before the call returns, and a
  // copy from it reads the source when it is issued (into a staging buffer).
  if (async && device_.isPageable(destination))
    async = false;
  if (async && device_.isPageable(source)) {
    auto staged = std::make_shared<std::vector<std::byte>>(
        static_cast<const std::byte*>(source), static_cast<const std::byte*>(source) + bytes);
    stream.enqueue(
        [destination, staged] { std::memcpy(destination, staged->data(), staged->size()); });
    return cudaSuccess;
  }
  auto run = [destination, source, bytes] { std::memmove(destination, source, bytes); };
  if (!async)
    return stream.runSynchronously(run);
  stream.enqueue(run);
  return cudaSuccess;
}

cudaError_t CpuCopies::fill(void* destination, unsigned char value, size_t bytes, Stream& queue,
                            bool async) {
  if (cudaError_t error = device_.sticky(); error != cudaSuccess)
    return error;
  if (bytes != 0 && !device_.memory().accessible(reinterpret_cast<uintptr_t>(destination), bytes))
    return cudaErrorInvalidValue;
  return static_cast<CpuStream&>(queue).submit(
      [destination, value, bytes] { std::memset(destination, value, bytes); }, async,
      [&] { return fillNode(destination, 0, value, bytes, 1); });
}

cudaError_t CpuCopies::copy3D(const CopyRegion& region, Stream& queue, bool async) {
  if (cudaError_t error = device_.sticky(); error != cudaSuccess)
    return error;
  auto& stream = static_cast<CpuStream&>(queue);
  CpuArrays& arrays = device_.cpuArrays();
  if ((region.source.array != nullptr && arrays.array(region.source.array) == nullptr) ||
      (region.destination.array != nullptr && arrays.array(region.destination.array) == nullptr))
    return cudaErrorInvalidResourceHandle;
  if (!copyable(region))
    return cudaErrorInvalidValue;
  if (stream.capturing()) {
    if (!async)
      return stream.refuseDuringCapture();
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeMemcpy;
    if (cudaError_t error = copyParamsOf(region, device_, &params.memcpy.copyParams);
        error != cudaSuccess)
      return error;
    return stream.capture(params);
  }
  if (cudaError_t error = stream.checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  // Pageable host memory on either side: the copy completes before the call returns.
  if ((region.source.array == nullptr && device_.isPageable(region.source.pointer)) ||
      (region.destination.array == nullptr && device_.isPageable(region.destination.pointer)))
    async = false;
  auto run = [this, region] { runCopy3D(region); };
  if (!async)
    return stream.runSynchronously(run);
  stream.enqueue(run);
  return cudaSuccess;
}

cudaError_t CpuCopies::fill2D(void* destination, size_t pitch, unsigned char value, size_t width,
                              size_t height, Stream& queue, bool async) {
  if (cudaError_t error = device_.sticky(); error != cudaSuccess)
    return error;
  if (width != 0 && height != 0) {
    uintptr_t first = 0;
    size_t bytes = 0;
    if (!pitchedSpan(destination, pitch, height, 0, 0, 0, width, height, 1, &first, &bytes) ||
        !device_.memory().accessible(first, bytes))
      return cudaErrorInvalidValue;
  }
  return static_cast<CpuStream&>(queue).submit(
      [destination, pitch, value, width, height] {
        for (size_t y = 0; y < height; ++y)
          std::memset(static_cast<std::byte*>(destination) + y * pitch, value, width);
      },
      async, [&] { return fillNode(destination, pitch, value, width, height); });
}

cudaError_t CpuCopies::copyPeer(void* destination, const void* source, Device&, size_t bytes,
                                Stream& stream, bool async) {
  return copy(destination, source, bytes, stream, async);
}

cudaError_t CpuCopies::copy3DPeer(const CopyRegion& region, Device&, Stream& stream, bool async) {
  return copy3D(region, stream, async);
}

cudaError_t CpuCopies::copyBatch(void* const* destinations, const void* const* sources,
                                 const size_t* sizes, size_t count, cudaMemcpyAttributes*, size_t*,
                                 size_t, Stream& stream) {
  for (size_t i = 0; i < count; ++i)
    if (cudaError_t error = copy(destinations[i], sources[i], sizes[i], stream, true);
        error != cudaSuccess)
      return error;
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
