#pragma once

#include <cstddef>
#include <driver_types.h>

namespace ocelot::runtime {

/// One side of a 2D or 3D copy: linear memory (host or device, told apart by unified addressing)
/// or a CUDA array. Offsets are in bytes, rows and slices.
struct CopyEndpoint {
  void* pointer = nullptr;     ///< linear memory, or null for an array
  size_t pitch = 0;            ///< linear memory: bytes from one row to the next
  size_t rowsPerSlice = 0;     ///< linear memory: rows from one slice to the next
  cudaArray_t array = nullptr; ///< a CUDA array, or null for linear memory
  size_t x = 0;                ///< offset in bytes within a row
  size_t y = 0;                ///< first row
  size_t z = 0;                ///< first slice
};

/// The endpoints of the 2D copy APIs, which count bytes (also within arrays).
inline CopyEndpoint linearMemory(const void* pointer, size_t pitch) {
  CopyEndpoint endpoint;
  endpoint.pointer = const_cast<void*>(pointer);
  endpoint.pitch = pitch;
  return endpoint;
}

inline CopyEndpoint arrayAt(cudaArray_const_t array, size_t xBytes, size_t y) {
  CopyEndpoint endpoint;
  endpoint.array = const_cast<cudaArray_t>(array);
  endpoint.x = xBytes;
  endpoint.y = y;
  return endpoint;
}

/// Every 2D and 3D copy of the Runtime API, as the runtime hands it to a device: the runtime has
/// validated it and turned the API's element counts (for arrays) into bytes.
struct CopyRegion {
  CopyEndpoint source;
  CopyEndpoint destination;
  size_t widthBytes = 0;
  size_t height = 1;
  size_t depth = 1;
};

} // namespace ocelot::runtime

namespace ocelot::runtime {

class Device;

/// The bytes of one element of an array (and of one of its rows), from its channel format.
cudaError_t arrayElementBytes(Device& device, cudaArray_const_t array, size_t* elementBytes,
                              size_t* rowBytes = nullptr);

/// A cudaMemcpy3DParms (extents and positions in elements when an array takes part, in bytes
/// otherwise) as the region a device copies. Checks that each side is exactly one of an array and
/// a pointer; `kind` is the caller's to check.
cudaError_t copyRegionOf(const cudaMemcpy3DParms& params, Device& device, CopyRegion* region);

/// The reverse for reports (graph memcpy node parameters): positions and width of array sides in
/// elements again.
cudaError_t copyParamsOf(const CopyRegion& region, Device& device, cudaMemcpy3DParms* params);

} // namespace ocelot::runtime
