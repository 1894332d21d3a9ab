// Texture and surface objects of the CPU device: a handle is a slot of the device's object table
// (plus one); the object holds the resolved memory layout the tex/suld/sust handlers read.

#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/TextureObjects.h"

namespace ocelot::runtime::cpu {
namespace {

/// Fills the layout of `object` from its resource; false for resources this device lacks.
bool resolve(const cudaResourceDesc& resource, const CpuArray* array, TextureObject* object) {
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

cudaError_t CpuDevice::createTexture(cudaTextureObject_t* texture, const cudaResourceDesc& resource,
                                     const cudaTextureDesc& description,
                                     const cudaResourceViewDesc* view) {
  if (view != nullptr)
    return cudaErrorNotSupported;
  auto object = std::make_unique<TextureObject>();
  object->resource = resource;
  object->description = description;
  std::lock_guard lock(mutex_);
  const CpuArray* array = nullptr;
  if (resource.resType == cudaResourceTypeMipmappedArray) {
    auto mip = mipmaps_.find(resource.res.mipmap.mipmap);
    if (mip == mipmaps_.end())
      return cudaErrorInvalidResourceHandle;
    for (cudaArray_t level : mip->second->levels) {
      TextureObject levelView;
      levelView.description = description;
      cudaResourceDesc levelResource{};
      levelResource.resType = cudaResourceTypeArray;
      levelResource.res.array.array = level;
      levelView.resource = levelResource;
      if (!resolve(levelResource, arrays_.at(level).get(), &levelView))
        return cudaErrorNotSupported;
      object->levels.push_back(levelView);
    }
    TextureObject first = object->levels.front();
    first.levels = std::move(object->levels);
    first.resource = resource;
    *object = std::move(first);
  } else if (resource.resType == cudaResourceTypeArray) {
    auto it = arrays_.find(resource.res.array.array);
    if (it == arrays_.end())
      return cudaErrorInvalidResourceHandle;
    array = it->second.get();
  }
  if (resource.resType != cudaResourceTypeMipmappedArray && !resolve(resource, array, object.get()))
    return cudaErrorNotSupported;
  auto slot = std::find(textureSlots_.begin(), textureSlots_.end(), nullptr);
  if (slot == textureSlots_.end())
    return cudaErrorMemoryAllocation;
  *slot = object.get();
  *texture = static_cast<cudaTextureObject_t>(slot - textureSlots_.begin() + 1);
  textureObjects_.push_back(std::move(object));
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyTexture(cudaTextureObject_t texture) {
  std::lock_guard lock(mutex_);
  if (texture == 0 || texture > textureSlots_.size() || textureSlots_[texture - 1] == nullptr)
    return cudaErrorInvalidValue;
  TextureObject* object = textureSlots_[texture - 1];
  textureSlots_[texture - 1] = nullptr;
  std::erase_if(textureObjects_, [&](const auto& owned) { return owned.get() == object; });
  return cudaSuccess;
}

cudaError_t CpuDevice::textureResource(cudaResourceDesc* resource, cudaTextureObject_t texture) {
  std::lock_guard lock(mutex_);
  if (texture == 0 || texture > textureSlots_.size() || textureSlots_[texture - 1] == nullptr)
    return cudaErrorInvalidValue;
  *resource = textureSlots_[texture - 1]->resource;
  return cudaSuccess;
}

cudaError_t CpuDevice::textureDescription(cudaTextureDesc* description,
                                          cudaTextureObject_t texture) {
  std::lock_guard lock(mutex_);
  if (texture == 0 || texture > textureSlots_.size() || textureSlots_[texture - 1] == nullptr)
    return cudaErrorInvalidValue;
  *description = textureSlots_[texture - 1]->description;
  return cudaSuccess;
}

cudaError_t CpuDevice::createSurface(cudaSurfaceObject_t* surface,
                                     const cudaResourceDesc& resource) {
  cudaTextureDesc none{};
  cudaTextureObject_t handle = 0;
  if (cudaError_t error = createTexture(&handle, resource, none, nullptr); error != cudaSuccess)
    return error;
  std::lock_guard lock(mutex_);
  textureSlots_[handle - 1]->surface = true;
  *surface = handle;
  return cudaSuccess;
}

cudaError_t CpuDevice::destroySurface(cudaSurfaceObject_t surface) {
  return destroyTexture(surface);
}

cudaError_t CpuDevice::surfaceResource(cudaResourceDesc* resource, cudaSurfaceObject_t surface) {
  return textureResource(resource, surface);
}

cudaError_t CpuDevice::createMipmappedArray(cudaMipmappedArray_t* array,
                                            const cudaChannelFormatDesc& format, cudaExtent extent,
                                            unsigned int levels, unsigned int flags) {
  auto mip = std::make_unique<CpuMipmappedArray>();
  cudaExtent level = extent;
  for (unsigned int i = 0; i < std::max(levels, 1u); ++i) {
    cudaArray_t created = nullptr;
    if (cudaError_t error = createArray(&created, format, level, flags); error != cudaSuccess) {
      for (cudaArray_t made : mip->levels)
        destroyArray(made);
      return error;
    }
    mip->levels.push_back(created);
    level.width = std::max<size_t>(level.width / 2, 1);
    level.height = level.height != 0 ? std::max<size_t>(level.height / 2, 1) : 0;
    level.depth = level.depth != 0 ? std::max<size_t>(level.depth / 2, 1) : 0;
  }
  *array = reinterpret_cast<cudaMipmappedArray_t>(mip.get());
  std::lock_guard lock(mutex_);
  mipmaps_[*array] = std::move(mip);
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyMipmappedArray(cudaMipmappedArray_t array) {
  std::unique_ptr<CpuMipmappedArray> mip;
  {
    std::lock_guard lock(mutex_);
    auto it = mipmaps_.find(array);
    if (it == mipmaps_.end())
      return cudaErrorInvalidResourceHandle;
    mip = std::move(it->second);
    mipmaps_.erase(it);
  }
  for (cudaArray_t level : mip->levels)
    destroyArray(level);
  return cudaSuccess;
}

cudaError_t CpuDevice::mipmappedArrayLevel(cudaArray_t* level, cudaMipmappedArray_const_t array,
                                           unsigned int index) {
  std::lock_guard lock(mutex_);
  auto it = mipmaps_.find(const_cast<cudaMipmappedArray_t>(array));
  if (it == mipmaps_.end())
    return cudaErrorInvalidResourceHandle;
  if (index >= it->second->levels.size())
    return cudaErrorInvalidValue;
  *level = it->second->levels[index];
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
