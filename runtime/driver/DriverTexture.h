#pragma once

#include "runtime/core/Texture.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

/// A texture object of a GPU: the CUtexObject is the handle.
class DriverTexture final : public Texture {
public:
  DriverTexture(const DriverApi& api, cudaTextureObject_t texture) : Texture(texture), api_(api) {}

  cudaError_t resource(cudaResourceDesc* resource) override;
  cudaError_t description(cudaTextureDesc* description) override;
  cudaError_t view(cudaResourceViewDesc* view) override;

private:
  const DriverApi& api_;
};

/// A surface object of a GPU: the CUsurfObject is the handle.
class DriverSurface final : public Surface {
public:
  DriverSurface(const DriverApi& api, cudaSurfaceObject_t surface) : Surface(surface), api_(api) {}

  cudaError_t resource(cudaResourceDesc* resource) override;

private:
  const DriverApi& api_;
};

/// A GPU's texture and surface objects (descriptions translated, see DriverConversions). Handles
/// the tables do not know (made through the driver API, or never made: the driver answers for
/// them) are wrapped when first seen.
class DriverTextures final : public Textures {
public:
  DriverTextures(const DriverApi& api, CUdevice device) : api_(api), device_(device) {}

  cudaError_t createTexture(const cudaResourceDesc& resource, const cudaTextureDesc& description,
                            const cudaResourceViewDesc* view, Texture** texture) override;
  cudaError_t destroy(Texture& texture) override;
  cudaError_t createSurface(const cudaResourceDesc& resource, Surface** surface) override;
  cudaError_t destroy(Surface& surface) override;
  cudaError_t linearMaxWidth(const cudaChannelFormatDesc& format, size_t* width) override;

protected:
  Texture* adoptTexture(cudaTextureObject_t handle) override;
  Surface* adoptSurface(cudaSurfaceObject_t handle) override;

private:
  const DriverApi& api_;
  CUdevice device_;
};

} // namespace ocelot::runtime::driver
