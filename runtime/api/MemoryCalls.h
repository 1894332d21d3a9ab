#pragma once

// The bodies of the memory calls that have a per-thread default stream variant (_ptsz, _ptds):
// MemoryApi.cpp, CopyApi.cpp and MemoryPoolApi.cpp define them and call them with the application's
// stream, PerThreadDefaultStreamApi.cpp with the thread's. `where` is the exported function that
// called (what the API call log records).

#include "runtime/core/CopyRegion.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>
#include <source_location>

namespace ocelot::runtime::api {

/// cudaMemcpy and cudaMemcpyAsync (`kind` as the application passed it).
cudaError_t copy(void* destination, const void* source, size_t bytes, int kind, cudaStream_t stream,
                 bool async, const std::source_location& where = std::source_location::current());
cudaError_t fill(void* destination, int value, size_t bytes, cudaStream_t stream, bool async,
                 const std::source_location& where = std::source_location::current());
/// Every 2D copy (linear memory or an array on either side; see linearMemory and arrayAt).
cudaError_t copy2D(const CopyEndpoint& destination, const CopyEndpoint& source, size_t width,
                   size_t height, int kind, cudaStream_t stream, bool async,
                   const std::source_location& where = std::source_location::current());
/// The deprecated 1D copies to, from and between arrays (each endpoint an array position or a
/// pointer).
cudaError_t copyArrayLinear(const CopyEndpoint& destination, const CopyEndpoint& source,
                            size_t bytes, int kind, cudaStream_t stream, bool async,
                            const std::source_location& where = std::source_location::current());
cudaError_t copy3D(const cudaMemcpy3DParms* params, cudaStream_t stream, bool async,
                   const std::source_location& where = std::source_location::current());
cudaError_t copy3DPeer(const cudaMemcpy3DPeerParms* params, cudaStream_t stream, bool async,
                       const std::source_location& where = std::source_location::current());
cudaError_t copyBatch(void* const* destinations, const void* const* sources, const size_t* sizes,
                      size_t count, cudaMemcpyAttributes* attributes, size_t* attributeIndices,
                      size_t attributeCount, cudaStream_t stream);
cudaError_t copy3DBatch(size_t count, cudaMemcpy3DBatchOp* operations, unsigned long long flags,
                        cudaStream_t stream);
cudaError_t fill2D(void* destination, size_t pitch, int value, size_t width, size_t height,
                   cudaStream_t stream, bool async,
                   const std::source_location& where = std::source_location::current());
cudaError_t fill3D(cudaPitchedPtr destination, int value, cudaExtent extent, cudaStream_t stream,
                   bool async, const std::source_location& where = std::source_location::current());

cudaError_t copyToSymbol(const void* symbol, const void* source, size_t bytes, size_t offset,
                         int kind, cudaStream_t stream, bool async,
                         const std::source_location& where = std::source_location::current());
cudaError_t copyFromSymbol(void* destination, const void* symbol, size_t bytes, size_t offset,
                           int kind, cudaStream_t stream, bool async,
                           const std::source_location& where = std::source_location::current());

/// cudaMallocAsync (`pool` null: the device's current pool) and cudaMallocFromPoolAsync.
cudaError_t allocateAsync(void** pointer, size_t bytes, cudaMemPool_t pool, cudaStream_t stream);
cudaError_t allocateFromPoolAsync(void** pointer, size_t bytes, cudaMemPool_t pool,
                                  cudaStream_t stream);
cudaError_t freeAsync(void* pointer, cudaStream_t stream);

cudaError_t prefetch(const void* pointer, size_t bytes, cudaMemLocation location,
                     unsigned int flags, cudaStream_t stream);
/// cudaMemPrefetchBatchAsync, cudaMemDiscardBatchAsync (locations null) and
/// cudaMemDiscardAndPrefetchBatchAsync (`discard` with locations).
cudaError_t prefetchBatch(void** pointers, size_t* sizes, size_t count, bool discard,
                          cudaMemLocation* locations, size_t* locationIndices, size_t locationCount,
                          unsigned long long flags, cudaStream_t stream);

} // namespace ocelot::runtime::api
