// DriverDevice: texture and surface objects (the handles are the driver's; the descriptions are
// translated, see DriverConversions).
#include "runtime/driver/DriverConversions.h"
#include "runtime/driver/DriverDevice.h"

namespace ocelot::runtime::driver {

cudaError_t DriverDevice::createTexture(cudaTextureObject_t* texture,
                                        const cudaResourceDesc& resource,
                                        const cudaTextureDesc& description,
                                        const cudaResourceViewDesc* view) {
  CUDA_RESOURCE_DESC driverResource;
  if (!toDriverResource(resource, &driverResource))
    return cudaErrorInvalidChannelDescriptor;
  CUDA_TEXTURE_DESC driverDescription = toDriverTexture(description);
  CUDA_RESOURCE_VIEW_DESC driverView{};
  if (view != nullptr)
    driverView = toDriverView(*view);
  return toCudaError(invoke(api_.texObjectCreate, texture, &driverResource, &driverDescription,
                            view != nullptr ? &driverView : nullptr));
}

cudaError_t DriverDevice::destroyTexture(cudaTextureObject_t texture) {
  return toCudaError(invoke(api_.texObjectDestroy, texture));
}

cudaError_t DriverDevice::textureResource(cudaResourceDesc* resource, cudaTextureObject_t texture) {
  CUDA_RESOURCE_DESC driverResource{};
  CUresult result = invoke(api_.texObjectGetResourceDesc, &driverResource, texture);
  if (result == CUDA_SUCCESS)
    *resource = toRuntimeResource(driverResource);
  return toCudaError(result);
}

cudaError_t DriverDevice::textureDescription(cudaTextureDesc* description,
                                             cudaTextureObject_t texture) {
  CUDA_TEXTURE_DESC driverDescription{};
  CUresult result = invoke(api_.texObjectGetTextureDesc, &driverDescription, texture);
  if (result == CUDA_SUCCESS)
    *description = toRuntimeTexture(driverDescription);
  return toCudaError(result);
}

cudaError_t DriverDevice::textureView(cudaResourceViewDesc* view, cudaTextureObject_t texture) {
  CUDA_RESOURCE_VIEW_DESC driverView{};
  CUresult result = invoke(api_.texObjectGetResourceViewDesc, &driverView, texture);
  if (result == CUDA_SUCCESS)
    *view = toRuntimeView(driverView);
  return toCudaError(result);
}

cudaError_t DriverDevice::createSurface(cudaSurfaceObject_t* surface,
                                        const cudaResourceDesc& resource) {
  CUDA_RESOURCE_DESC driverResource;
  if (!toDriverResource(resource, &driverResource))
    return cudaErrorInvalidChannelDescriptor;
  return toCudaError(invoke(api_.surfObjectCreate, surface, &driverResource));
}

cudaError_t DriverDevice::destroySurface(cudaSurfaceObject_t surface) {
  return toCudaError(invoke(api_.surfObjectDestroy, surface));
}

cudaError_t DriverDevice::surfaceResource(cudaResourceDesc* resource, cudaSurfaceObject_t surface) {
  CUDA_RESOURCE_DESC driverResource{};
  CUresult result = invoke(api_.surfObjectGetResourceDesc, &driverResource, surface);
  if (result == CUDA_SUCCESS)
    *resource = toRuntimeResource(driverResource);
  return toCudaError(result);
}

} // namespace ocelot::runtime::driver
