// The CUDA Runtime API: texture and surface objects (CUDART_TEXTURE_OBJECT, CUDART_SURFACE_OBJECT).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error.

#include "runtime/api/ApiBoundary.h"
#include "runtime/core/ChannelFormat.h"

#include <cuda_runtime_api.h>

#include <cstring>

namespace ocelot::runtime::api {
namespace {

/// The checks every resource description gets before a device sees it.
cudaError_t validateResource(const cudaResourceDesc& resource) {
  int type = 0;
  std::memcpy(&type, &resource.resType, sizeof type);
  ChannelLayout layout;
  switch (type) {
  case cudaResourceTypeArray:
    return resource.res.array.array != nullptr ? cudaSuccess : cudaErrorInvalidValue;
  case cudaResourceTypeMipmappedArray:
    return resource.res.mipmap.mipmap != nullptr ? cudaSuccess : cudaErrorInvalidValue;
  case cudaResourceTypeLinear:
    if (resource.res.linear.devPtr == nullptr || resource.res.linear.sizeInBytes == 0)
      return cudaErrorInvalidValue;
    return channelLayout(resource.res.linear.desc, &layout);
  case cudaResourceTypePitch2D:
    if (resource.res.pitch2D.devPtr == nullptr || resource.res.pitch2D.width == 0 ||
        resource.res.pitch2D.height == 0)
      return cudaErrorInvalidValue;
    return channelLayout(resource.res.pitch2D.desc, &layout);
  default:
    return cudaErrorInvalidValue;
  }
}

} // namespace
} // namespace ocelot::runtime::api

using namespace ocelot::runtime::api;
using ocelot::runtime::Scope;
using ocelot::runtime::Surface;
using ocelot::runtime::Texture;

extern "C" {

struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f) {
  // The kind is copied bytewise: an application may pass any value (see api::raw).
  cudaChannelFormatDesc desc{x, y, z, w, cudaChannelFormatKindSigned};
  std::memcpy(&desc.f, &f, sizeof desc.f);
  return desc;
}

cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t* pTexObject,
                                              const struct cudaResourceDesc* pResDesc,
                                              const struct cudaTextureDesc* pTexDesc,
                                              const struct cudaResourceViewDesc* pResViewDesc) {
  return onCurrentDevice([&](Scope& scope) {
    if (pTexObject == nullptr || pResDesc == nullptr || pTexDesc == nullptr)
      return cudaErrorInvalidValue;
    if (cudaError_t error = validateResource(*pResDesc); error != cudaSuccess)
      return error;
    Texture* created = nullptr;
    cudaError_t error =
        scope.textures().createTexture(*pResDesc, *pTexDesc, pResViewDesc, &created);
    if (error == cudaSuccess)
      *pTexObject = created->handle();
    return error;
  });
}

cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  return onCurrentDevice([&](Scope& scope) {
    Texture& destroyed = scope.texture(texObject);
    return scope.textures().destroy(destroyed);
  });
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(struct cudaResourceDesc* pResDesc,
                                                       cudaTextureObject_t texObject) {
  return onCurrentDevice([&](Scope& scope) {
    return pResDesc == nullptr ? cudaErrorInvalidValue
                               : scope.texture(texObject).resource(pResDesc);
  });
}

cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(struct cudaTextureDesc* pTexDesc,
                                                      cudaTextureObject_t texObject) {
  return onCurrentDevice([&](Scope& scope) {
    return pTexDesc == nullptr ? cudaErrorInvalidValue
                               : scope.texture(texObject).description(pTexDesc);
  });
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(
    struct cudaResourceViewDesc* pResViewDesc, cudaTextureObject_t texObject) {
  return onCurrentDevice([&](Scope& scope) {
    return pResViewDesc == nullptr ? cudaErrorInvalidValue
                                   : scope.texture(texObject).view(pResViewDesc);
  });
}

cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject,
                                              const struct cudaResourceDesc* pResDesc) {
  return onCurrentDevice([&](Scope& scope) {
    if (pSurfObject == nullptr || pResDesc == nullptr)
      return cudaErrorInvalidValue;
    // Surfaces live on arrays only.
    if (pResDesc->resType != cudaResourceTypeArray || pResDesc->res.array.array == nullptr)
      return cudaErrorInvalidValue;
    Surface* created = nullptr;
    cudaError_t error = scope.textures().createSurface(*pResDesc, &created);
    if (error == cudaSuccess)
      *pSurfObject = created->handle();
    return error;
  });
}

cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  return onCurrentDevice([&](Scope& scope) {
    Surface& destroyed = scope.surface(surfObject);
    return scope.textures().destroy(destroyed);
  });
}

cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc* pResDesc,
                                                       cudaSurfaceObject_t surfObject) {
  return onCurrentDevice([&](Scope& scope) {
    return pResDesc == nullptr ? cudaErrorInvalidValue
                               : scope.surface(surfObject).resource(pResDesc);
  });
}

} // extern "C"
