// The CUDA Runtime API: texture and surface objects (CUDART_TEXTURE_OBJECT, CUDART_SURFACE_OBJECT).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f) {
  // The kind is copied bytewise: an application may pass any value (see api::raw).
  cudaChannelFormatDesc desc{x, y, z, w, cudaChannelFormatKindSigned};
  std::memcpy(&desc.f, &f, sizeof desc.f);
  return desc;
}

cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t* /*pSurfObject*/,
                                              const struct cudaResourceDesc* /*pResDesc*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t* /*pTexObject*/,
                                              const struct cudaResourceDesc* /*pResDesc*/,
                                              const struct cudaTextureDesc* /*pTexDesc*/,
                                              const struct cudaResourceViewDesc* /*pResViewDesc*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t /*surfObject*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t /*texObject*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc* /*desc*/,
                                         cudaArray_const_t /*array*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc* /*pResDesc*/,
                                                       cudaSurfaceObject_t /*surfObject*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(struct cudaResourceDesc* /*pResDesc*/,
                                                       cudaTextureObject_t /*texObject*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(
    struct cudaResourceViewDesc* /*pResViewDesc*/, cudaTextureObject_t /*texObject*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(struct cudaTextureDesc* /*pTexDesc*/,
                                                      cudaTextureObject_t /*texObject*/) {
  return notImplemented(__func__);
}

} // extern "C"
