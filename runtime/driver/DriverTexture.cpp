// A GPU's texture and surface objects (the handles are the driver's; the descriptions are
// translated, see DriverConversions).
#include "runtime/driver/DriverTexture.h"

#include "runtime/driver/DriverConversions.h"

#include <memory>

namespace ocelot::runtime::driver {

cudaError_t DriverTexture::resource(cudaResourceDesc* resource) {
  CUDA_RESOURCE_DESC driverResource{};
  CUresult result = invoke(api_.texObjectGetResourceDesc, &driverResource, handle());
  if (result == CUDA_SUCCESS)
    *resource = toRuntimeResource(driverResource);
  return toCudaError(result);
}

cudaError_t DriverTexture::description(cudaTextureDesc* description) {
  CUDA_TEXTURE_DESC driverDescription{};
  CUresult result = invoke(api_.texObjectGetTextureDesc, &driverDescription, handle());
  if (result == CUDA_SUCCESS)
    *description = toRuntimeTexture(driverDescription);
  return toCudaError(result);
}

cudaError_t DriverTexture::view(cudaResourceViewDesc* view) {
  CUDA_RESOURCE_VIEW_DESC driverView{};
  CUresult result = invoke(api_.texObjectGetResourceViewDesc, &driverView, handle());
  if (result == CUDA_SUCCESS)
    *view = toRuntimeView(driverView);
  return toCudaError(result);
}

cudaError_t DriverSurface::resource(cudaResourceDesc* resource) {
  CUDA_RESOURCE_DESC driverResource{};
  CUresult result = invoke(api_.surfObjectGetResourceDesc, &driverResource, handle());
  if (result == CUDA_SUCCESS)
    *resource = toRuntimeResource(driverResource);
  return toCudaError(result);
}

// --- DriverTextures -----------------------------------------------------------------------------

cudaError_t DriverTextures::createTexture(const cudaResourceDesc& resource,
                                          const cudaTextureDesc& description,
                                          const cudaResourceViewDesc* view, Texture** texture) {
  CUDA_RESOURCE_DESC driverResource;
  if (!toDriverResource(resource, &driverResource))
    return cudaErrorInvalidChannelDescriptor;
  CUDA_TEXTURE_DESC driverDescription = toDriverTexture(description);
  CUDA_RESOURCE_VIEW_DESC driverView{};
  if (view != nullptr)
    driverView = toDriverView(*view);
  CUtexObject created = 0;
  if (CUresult result = invoke(api_.texObjectCreate, &created, &driverResource, &driverDescription,
                               view != nullptr ? &driverView : nullptr);
      result != CUDA_SUCCESS)
    return toCudaError(result);
  *texture = textures_.insert(created, std::make_unique<DriverTexture>(api_, created));
  return cudaSuccess;
}

cudaError_t DriverTextures::destroy(Texture& texture) {
  const cudaTextureObject_t handle = texture.handle();
  cudaError_t result = toCudaError(invoke(api_.texObjectDestroy, handle));
  textures_.remove(handle);
  return result;
}

cudaError_t DriverTextures::createSurface(const cudaResourceDesc& resource, Surface** surface) {
  CUDA_RESOURCE_DESC driverResource;
  if (!toDriverResource(resource, &driverResource))
    return cudaErrorInvalidChannelDescriptor;
  CUsurfObject created = 0;
  if (CUresult result = invoke(api_.surfObjectCreate, &created, &driverResource);
      result != CUDA_SUCCESS)
    return toCudaError(result);
  *surface = surfaces_.insert(created, std::make_unique<DriverSurface>(api_, created));
  return cudaSuccess;
}

cudaError_t DriverTextures::destroy(Surface& surface) {
  const cudaSurfaceObject_t handle = surface.handle();
  cudaError_t result = toCudaError(invoke(api_.surfObjectDestroy, handle));
  surfaces_.remove(handle);
  return result;
}

cudaError_t DriverTextures::linearMaxWidth(const cudaChannelFormatDesc& format, size_t* width) {
  CUarray_format arrayFormat{};
  unsigned int channels = 0;
  if (!toArrayFormat(format, &arrayFormat, &channels))
    return cudaErrorInvalidChannelDescriptor;
  return toCudaError(
      invoke(api_.deviceGetTexture1DLinearMaxWidth, width, arrayFormat, channels, device_));
}

Texture* DriverTextures::adoptTexture(cudaTextureObject_t handle) {
  return textures_.findOrInsert(handle,
                                [&] { return std::make_unique<DriverTexture>(api_, handle); });
}

Surface* DriverTextures::adoptSurface(cudaSurfaceObject_t handle) {
  return surfaces_.findOrInsert(handle,
                                [&] { return std::make_unique<DriverSurface>(api_, handle); });
}

} // namespace ocelot::runtime::driver
