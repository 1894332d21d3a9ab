// Texture and surface objects of the CPU device: a handle is a slot of the device's object table
// (plus one); the object holds the resolved memory layout the tex/suld/sust handlers read.

#include "runtime/cpu/CpuTexture.h"

#include "runtime/core/ChannelFormat.h"
#include "runtime/cpu/CpuDevice.h"

#include <algorithm>
#include <memory>

namespace ocelot::runtime::cpu {
namespace {

/// Fills the layout of `object` from its resource; false for resources this device lacks.
bool resolveLayout(const cudaResourceDesc& resource, const ArrayLayout* array,
                   TextureObject* object) {
  cudaChannelFormatDesc format{};
  switch (resource.resType) {
  case cudaResourceTypeArray:
    if (array == nullptr)
      return false;
    format = array->format;
    object->data = array->data;
    object->width = array->width;
    object->height = array->height;
    object->depth = array->depth;
    object->pitch = array->rowBytes;
    object->slicePitch = array->sliceBytes;
    break;
  case cudaResourceTypeLinear:
    format = resource.res.linear.desc;
    object->data = static_cast<const std::byte*>(resource.res.linear.devPtr);
    break;
  case cudaResourceTypePitch2D:
    format = resource.res.pitch2D.desc;
    object->data = static_cast<const std::byte*>(resource.res.pitch2D.devPtr);
    object->width = resource.res.pitch2D.width;
    object->height = resource.res.pitch2D.height;
    object->pitch = resource.res.pitch2D.pitchInBytes;
    break;
  default:
    return false;
  }
  object->kind = format.f;
  const int bits[4] = {format.x, format.y, format.z, format.w};
  uint32_t total = 0;
  for (int i = 0; i < 4; ++i) {
    object->channelBits[i] = static_cast<uint32_t>(bits[i]);
    if (bits[i] > 0)
      ++object->channels;
    total += static_cast<uint32_t>(std::max(bits[i], 0));
  }
  object->elementBytes = std::max<uint32_t>(total / 8, 1);
  if (resource.resType == cudaResourceTypeLinear) {
    object->width = resource.res.linear.sizeInBytes / object->elementBytes;
    object->pitch = resource.res.linear.sizeInBytes;
  }
  if (object->slicePitch == 0)
    object->slicePitch = object->pitch * object->height;
  return true;
}

} // namespace

cudaError_t CpuTexture::resource(cudaResourceDesc* resource) {
  *resource = object_.resource;
  return cudaSuccess;
}

cudaError_t CpuTexture::description(cudaTextureDesc* description) {
  *description = object_.description;
  return cudaSuccess;
}

cudaError_t CpuSurface::resource(cudaResourceDesc* resource) {
  *resource = object_.resource;
  return cudaSuccess;
}

// --- CpuTextures --------------------------------------------------------------------------------

CpuTextures::CpuTextures(CpuDevice& device)
    : device_(device), slots_(kMaxTextureObjects, nullptr) {}

cudaError_t CpuTextures::resolve(const cudaResourceDesc& resource,
                                 const cudaTextureDesc& description, TextureObject* object) {
  object->resource = resource;
  object->description = description;
  CpuArrays& arrays = device_.cpuArrays();
  if (resource.resType == cudaResourceTypeMipmappedArray) {
    const CpuMipmappedArray* mipmapped = arrays.mipmappedArray(resource.res.mipmap.mipmap);
    if (mipmapped == nullptr)
      return cudaErrorInvalidResourceHandle;
    std::vector<TextureObject> levels;
    for (CpuArray* level : mipmapped->levels()) {
      TextureObject levelView;
      levelView.description = description;
      levelView.resource.resType = cudaResourceTypeArray;
      levelView.resource.res.array.array = level->handle();
      if (!resolveLayout(levelView.resource, &level->layout(), &levelView))
        return cudaErrorNotSupported;
      levels.push_back(levelView);
    }
    *object = levels.front();
    object->levels = std::move(levels);
    object->resource = resource;
    return cudaSuccess;
  }
  const ArrayLayout* array = nullptr;
  if (resource.resType == cudaResourceTypeArray) {
    const CpuArray* found = arrays.array(resource.res.array.array);
    if (found == nullptr)
      return cudaErrorInvalidResourceHandle;
    array = &found->layout();
  }
  return resolveLayout(resource, array, object) ? cudaSuccess : cudaErrorNotSupported;
}

unsigned long long CpuTextures::freeSlot() const {
  auto slot = std::find(slots_.begin(), slots_.end(), nullptr);
  return slot == slots_.end() ? 0 : static_cast<unsigned long long>(slot - slots_.begin() + 1);
}

cudaError_t CpuTextures::createTexture(const cudaResourceDesc& resource,
                                       const cudaTextureDesc& description,
                                       const cudaResourceViewDesc* view, Texture** texture) {
  if (view != nullptr)
    return cudaErrorNotSupported;
  TextureObject object;
  if (cudaError_t error = resolve(resource, description, &object); error != cudaSuccess)
    return error;
  std::lock_guard lock(mutex_);
  const unsigned long long handle = freeSlot();
  if (handle == 0)
    return cudaErrorMemoryAllocation;
  auto* created = textures_.insert(handle, std::make_unique<CpuTexture>(handle, object));
  slots_[handle - 1] = &created->object();
  *texture = created;
  return cudaSuccess;
}

cudaError_t CpuTextures::destroy(Texture& texture) {
  std::lock_guard lock(mutex_);
  slots_[texture.handle() - 1] = nullptr;
  textures_.remove(texture.handle());
  return cudaSuccess;
}

cudaError_t CpuTextures::createSurface(const cudaResourceDesc& resource, Surface** surface) {
  TextureObject object;
  if (cudaError_t error = resolve(resource, cudaTextureDesc{}, &object); error != cudaSuccess)
    return error;
  object.surface = true;
  std::lock_guard lock(mutex_);
  const unsigned long long handle = freeSlot();
  if (handle == 0)
    return cudaErrorMemoryAllocation;
  auto* created = surfaces_.insert(handle, std::make_unique<CpuSurface>(handle, object));
  slots_[handle - 1] = &created->object();
  *surface = created;
  return cudaSuccess;
}

cudaError_t CpuTextures::destroy(Surface& surface) {
  std::lock_guard lock(mutex_);
  slots_[surface.handle() - 1] = nullptr;
  surfaces_.remove(surface.handle());
  return cudaSuccess;
}

cudaError_t CpuTextures::linearMaxWidth(const cudaChannelFormatDesc& format, size_t* width) {
  ChannelLayout layout;
  if (channelLayout(format, &layout) != cudaSuccess || layout.elementBytes == 0)
    return cudaErrorInvalidChannelDescriptor;
  // Linear textures address up to 4 GiB (what an H100's driver answers for every format).
  *width = (size_t{1} << 32) / layout.elementBytes;
  return cudaSuccess;
}

void CpuTextures::reset() {
  std::lock_guard lock(mutex_);
  std::fill(slots_.begin(), slots_.end(), nullptr);
  textures_.clear();
  surfaces_.clear();
}

} // namespace ocelot::runtime::cpu
