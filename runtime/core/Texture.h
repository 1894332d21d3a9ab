#pragma once

#include "runtime/core/HandleTable.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>
#include <surface_types.h>
#include <texture_types.h>

namespace ocelot::runtime {

/// A texture object of a device (cudaTextureObject_t: the CUtexObject itself on the driver).
class Texture {
public:
  explicit Texture(cudaTextureObject_t handle) : handle_(handle) {}
  virtual ~Texture() = default;
  Texture(const Texture&) = delete;
  Texture& operator=(const Texture&) = delete;

  cudaTextureObject_t handle() const { return handle_; }

  virtual cudaError_t resource(cudaResourceDesc* resource) = 0;
  virtual cudaError_t description(cudaTextureDesc* description) = 0;
  virtual cudaError_t view(cudaResourceViewDesc* /*view*/) { return cudaErrorNotSupported; }

private:
  const cudaTextureObject_t handle_;
};

/// A surface object of a device.
class Surface {
public:
  explicit Surface(cudaSurfaceObject_t handle) : handle_(handle) {}
  virtual ~Surface() = default;
  Surface(const Surface&) = delete;
  Surface& operator=(const Surface&) = delete;

  cudaSurfaceObject_t handle() const { return handle_; }

  virtual cudaError_t resource(cudaResourceDesc* resource) = 0;

private:
  const cudaSurfaceObject_t handle_;
};

/// A device's texture and surface objects. Resource descriptions arrive validated (a resource
/// type with its pointer or array, a channel format).
class Textures {
public:
  virtual ~Textures() = default;

  virtual cudaError_t createTexture(const cudaResourceDesc& resource,
                                    const cudaTextureDesc& description,
                                    const cudaResourceViewDesc* view, Texture** texture) = 0;
  virtual cudaError_t destroy(Texture& texture) = 0;
  virtual cudaError_t createSurface(const cudaResourceDesc& resource, Surface** surface) = 0;
  virtual cudaError_t destroy(Surface& surface) = 0;
  /// cudaDeviceGetTexture1DLinearMaxWidth for a validated channel format.
  virtual cudaError_t linearMaxWidth(const cudaChannelFormatDesc& format, size_t* width) = 0;

  Texture* findTexture(cudaTextureObject_t handle) {
    if (Texture* texture = textures_.find(handle))
      return texture;
    return adoptTexture(handle);
  }
  Surface* findSurface(cudaSurfaceObject_t handle) {
    if (Surface* surface = surfaces_.find(handle))
      return surface;
    return adoptSurface(handle);
  }

protected:
  /// Handles the tables do not know (see Streams::adopt).
  virtual Texture* adoptTexture(cudaTextureObject_t /*handle*/) { return nullptr; }
  virtual Surface* adoptSurface(cudaSurfaceObject_t /*handle*/) { return nullptr; }

  HandleTable<Texture> textures_;
  HandleTable<Surface> surfaces_;
};

} // namespace ocelot::runtime
