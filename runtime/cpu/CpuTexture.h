#pragma once

#include "runtime/core/Texture.h"
#include "runtime/cpu/TextureObjects.h"

#include <mutex>
#include <vector>

namespace ocelot::runtime::cpu {

class CpuDevice;

/// A texture object of the CPU device: the resolved layout the tex handlers read, in the slot of
/// the device's object table its handle names (handle = slot + 1).
class CpuTexture final : public Texture {
public:
  CpuTexture(cudaTextureObject_t handle, const TextureObject& object)
      : Texture(handle), object_(object) {}

  TextureObject& object() { return object_; }

  cudaError_t resource(cudaResourceDesc* resource) override;
  cudaError_t description(cudaTextureDesc* description) override;

private:
  TextureObject object_;
};

/// A surface object of the CPU device (an array's layout the suld/sust handlers read); surfaces
/// and textures share the object table.
class CpuSurface final : public Surface {
public:
  CpuSurface(cudaSurfaceObject_t handle, const TextureObject& object)
      : Surface(handle), object_(object) {}

  TextureObject& object() { return object_; }

  cudaError_t resource(cudaResourceDesc* resource) override;

private:
  TextureObject object_;
};

/// The CPU device's texture and surface objects and the table launches read them from.
class CpuTextures final : public Textures {
public:
  explicit CpuTextures(CpuDevice& device);

  cudaError_t createTexture(const cudaResourceDesc& resource, const cudaTextureDesc& description,
                            const cudaResourceViewDesc* view, Texture** texture) override;
  cudaError_t destroy(Texture& texture) override;
  cudaError_t createSurface(const cudaResourceDesc& resource, Surface** surface) override;
  cudaError_t destroy(Surface& surface) override;
  cudaError_t linearMaxWidth(const cudaChannelFormatDesc& format, size_t* width) override;

  /// The object table (by handle - 1) and its size, for launches.
  TextureObject* const* slots() const { return slots_.data(); }
  uint32_t slotCount() const { return static_cast<uint32_t>(slots_.size()); }
  /// A device reset: every object goes.
  void reset();

private:
  /// Resolves `resource` into `object` (cudaErrorInvalidResourceHandle for unknown arrays).
  cudaError_t resolve(const cudaResourceDesc& resource, const cudaTextureDesc& description,
                      TextureObject* object);
  /// A free slot's handle (0 when the table is full), under mutex_.
  unsigned long long freeSlot() const;

  CpuDevice& device_;
  std::mutex mutex_; ///< the slots
  /// Never resized, so launches read it without the lock (TextureObjects.h).
  std::vector<TextureObject*> slots_;
};

} // namespace ocelot::runtime::cpu
