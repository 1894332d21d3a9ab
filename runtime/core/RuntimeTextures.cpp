// Runtime: texture and surface objects.

#include "runtime/core/ChannelFormat.h"
#include "runtime/core/Runtime.h"

#include <cstring>

namespace ocelot::runtime {
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

cudaError_t Runtime::createTextureObject(cudaTextureObject_t* texture,
                                         const cudaResourceDesc* resource,
                                         const cudaTextureDesc* description,
                                         const cudaResourceViewDesc* view) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (texture == nullptr || resource == nullptr || description == nullptr)
    return cudaErrorInvalidValue;
  if (cudaError_t error = validateResource(*resource); error != cudaSuccess)
    return error;
  return deviceResult(device->createTexture(texture, *resource, *description, view));
}

cudaError_t Runtime::destroyTextureObject(cudaTextureObject_t texture) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  return deviceResult(device->destroyTexture(texture));
}

cudaError_t Runtime::getTextureObjectResourceDesc(cudaResourceDesc* resource,
                                                  cudaTextureObject_t texture) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (resource == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->textureResource(resource, texture));
}

cudaError_t Runtime::getTextureObjectTextureDesc(cudaTextureDesc* description,
                                                 cudaTextureObject_t texture) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (description == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->textureDescription(description, texture));
}

cudaError_t Runtime::getTextureObjectResourceViewDesc(cudaResourceViewDesc* view,
                                                      cudaTextureObject_t texture) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (view == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->textureView(view, texture));
}

cudaError_t Runtime::createSurfaceObject(cudaSurfaceObject_t* surface,
                                         const cudaResourceDesc* resource) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (surface == nullptr || resource == nullptr)
    return cudaErrorInvalidValue;
  // Surfaces live on arrays only.
  if (resource->resType != cudaResourceTypeArray || resource->res.array.array == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->createSurface(surface, *resource));
}

cudaError_t Runtime::destroySurfaceObject(cudaSurfaceObject_t surface) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  return deviceResult(device->destroySurface(surface));
}

cudaError_t Runtime::getSurfaceObjectResourceDesc(cudaResourceDesc* resource,
                                                  cudaSurfaceObject_t surface) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (resource == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->surfaceResource(resource, surface));
}

} // namespace ocelot::runtime
