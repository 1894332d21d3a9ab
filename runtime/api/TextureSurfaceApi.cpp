// The CUDA Runtime API: texture and surface objects (CUDART_TEXTURE_OBJECT, CUDART_SURFACE_OBJECT).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Every function forwards to ocelot::runtime::Runtime.

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

cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject,
                                              const struct cudaResourceDesc* pResDesc) {
  return call([&] { return runtime().createSurfaceObject(pSurfObject, pResDesc); });
}

cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t* pTexObject,
                                              const struct cudaResourceDesc* pResDesc,
                                              const struct cudaTextureDesc* pTexDesc,
                                              const struct cudaResourceViewDesc* pResViewDesc) {
  return call(
      [&] { return runtime().createTextureObject(pTexObject, pResDesc, pTexDesc, pResViewDesc); });
}

cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  return call([&] { return runtime().destroySurfaceObject(surfObject); });
}

cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  return call([&] { return runtime().destroyTextureObject(texObject); });
}

cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc* desc,
                                         cudaArray_const_t array) {
  return call([&] { return runtime().getChannelDesc(desc, array); });
}

cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc* pResDesc,
                                                       cudaSurfaceObject_t surfObject) {
  return call([&] { return runtime().getSurfaceObjectResourceDesc(pResDesc, surfObject); });
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(struct cudaResourceDesc* pResDesc,
                                                       cudaTextureObject_t texObject) {
  return call([&] { return runtime().getTextureObjectResourceDesc(pResDesc, texObject); });
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(
    struct cudaResourceViewDesc* pResViewDesc, cudaTextureObject_t texObject) {
  return call([&] { return runtime().getTextureObjectResourceViewDesc(pResViewDesc, texObject); });
}

cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(struct cudaTextureDesc* pTexDesc,
                                                      cudaTextureObject_t texObject) {
  return call([&] { return runtime().getTextureObjectTextureDesc(pTexDesc, texObject); });
}

} // extern "C"
