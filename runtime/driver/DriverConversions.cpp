#include "runtime/driver/DriverConversions.h"

#include <array>
#include <cstring>

namespace ocelot::runtime::driver {
namespace {

/// The normalized kinds carry their channel count in the kind; the driver has one format each.
struct NormalizedFormat {
  cudaChannelFormatKind kind;
  CUarray_format format;
  unsigned int channels;
  int bits;
};

constexpr std::array<NormalizedFormat, 12> kNormalizedFormats{{
    {cudaChannelFormatKindUnsignedNormalized8X1, CU_AD_FORMAT_UNORM_INT8X1, 1, 8},
    {cudaChannelFormatKindUnsignedNormalized8X2, CU_AD_FORMAT_UNORM_INT8X2, 2, 8},
    {cudaChannelFormatKindUnsignedNormalized8X4, CU_AD_FORMAT_UNORM_INT8X4, 4, 8},
    {cudaChannelFormatKindUnsignedNormalized16X1, CU_AD_FORMAT_UNORM_INT16X1, 1, 16},
    {cudaChannelFormatKindUnsignedNormalized16X2, CU_AD_FORMAT_UNORM_INT16X2, 2, 16},
    {cudaChannelFormatKindUnsignedNormalized16X4, CU_AD_FORMAT_UNORM_INT16X4, 4, 16},
    {cudaChannelFormatKindSignedNormalized8X1, CU_AD_FORMAT_SNORM_INT8X1, 1, 8},
    {cudaChannelFormatKindSignedNormalized8X2, CU_AD_FORMAT_SNORM_INT8X2, 2, 8},
    {cudaChannelFormatKindSignedNormalized8X4, CU_AD_FORMAT_SNORM_INT8X4, 4, 8},
    {cudaChannelFormatKindSignedNormalized16X1, CU_AD_FORMAT_SNORM_INT16X1, 1, 16},
    {cudaChannelFormatKindSignedNormalized16X2, CU_AD_FORMAT_SNORM_INT16X2, 2, 16},
    {cudaChannelFormatKindSignedNormalized16X4, CU_AD_FORMAT_SNORM_INT16X4, 4, 16},
}};

unsigned int channelCount(const cudaChannelFormatDesc& format) {
  return (format.x != 0) + (format.y != 0) + (format.z != 0) + (format.w != 0);
}

void setChannels(cudaChannelFormatDesc* format, unsigned int channels, int bits) {
  format->x = channels > 0 ? bits : 0;
  format->y = channels > 1 ? bits : 0;
  format->z = channels > 2 ? bits : 0;
  format->w = channels > 3 ? bits : 0;
}

void setEndpoint(const CopyEndpoint& endpoint, CUmemorytype* type, CUdeviceptr* device,
                 CUarray* array, size_t* pitch, size_t* height, size_t* x, size_t* y, size_t* z) {
  if (endpoint.array != nullptr) {
    *type = CU_MEMORYTYPE_ARRAY;
    *array = reinterpret_cast<CUarray>(endpoint.array);
  } else {
    *type = CU_MEMORYTYPE_UNIFIED;
    *device = reinterpret_cast<CUdeviceptr>(endpoint.pointer);
    *pitch = endpoint.pitch;
    *height = endpoint.rowsPerSlice;
  }
  *x = endpoint.x;
  *y = endpoint.y;
  *z = endpoint.z;
}

CopyEndpoint endpointOf(CUmemorytype type, const void* host, CUdeviceptr device, CUarray array,
                        size_t pitch, size_t height, size_t x, size_t y, size_t z) {
  CopyEndpoint endpoint;
  if (type == CU_MEMORYTYPE_ARRAY)
    endpoint.array = reinterpret_cast<cudaArray_t>(array);
  else {
    endpoint.pointer =
        type == CU_MEMORYTYPE_HOST ? const_cast<void*>(host) : reinterpret_cast<void*>(device);
    endpoint.pitch = pitch;
    endpoint.rowsPerSlice = height;
  }
  endpoint.x = x;
  endpoint.y = y;
  endpoint.z = z;
  return endpoint;
}

} // namespace

bool toArrayFormat(const cudaChannelFormatDesc& format, CUarray_format* arrayFormat,
                   unsigned int* channels) {
  for (const NormalizedFormat& normalized : kNormalizedFormats) {
    if (normalized.kind == format.f) {
      *arrayFormat = normalized.format;
      *channels = normalized.channels;
      return true;
    }
  }
  *channels = channelCount(format);
  switch (format.f) {
  case cudaChannelFormatKindSigned:
    *arrayFormat = format.x == 8    ? CU_AD_FORMAT_SIGNED_INT8
                   : format.x == 16 ? CU_AD_FORMAT_SIGNED_INT16
                                    : CU_AD_FORMAT_SIGNED_INT32;
    return format.x == 8 || format.x == 16 || format.x == 32;
  case cudaChannelFormatKindUnsigned:
    *arrayFormat = format.x == 8    ? CU_AD_FORMAT_UNSIGNED_INT8
                   : format.x == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
                                    : CU_AD_FORMAT_UNSIGNED_INT32;
    return format.x == 8 || format.x == 16 || format.x == 32;
  case cudaChannelFormatKindFloat:
    *arrayFormat = format.x == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
    return format.x == 16 || format.x == 32;
  default:
    return false;
  }
}

cudaChannelFormatDesc toChannelFormat(CUarray_format format, unsigned int channels) {
  cudaChannelFormatDesc desc{};
  for (const NormalizedFormat& normalized : kNormalizedFormats) {
    if (normalized.format == format) {
      desc.f = normalized.kind;
      setChannels(&desc, normalized.channels, normalized.bits);
      return desc;
    }
  }
  int bits = 0;
  switch (format) {
  case CU_AD_FORMAT_UNSIGNED_INT8:
    desc.f = cudaChannelFormatKindUnsigned;
    bits = 8;
    break;
  case CU_AD_FORMAT_UNSIGNED_INT16:
    desc.f = cudaChannelFormatKindUnsigned;
    bits = 16;
    break;
  case CU_AD_FORMAT_UNSIGNED_INT32:
    desc.f = cudaChannelFormatKindUnsigned;
    bits = 32;
    break;
  case CU_AD_FORMAT_SIGNED_INT8:
    desc.f = cudaChannelFormatKindSigned;
    bits = 8;
    break;
  case CU_AD_FORMAT_SIGNED_INT16:
    desc.f = cudaChannelFormatKindSigned;
    bits = 16;
    break;
  case CU_AD_FORMAT_SIGNED_INT32:
    desc.f = cudaChannelFormatKindSigned;
    bits = 32;
    break;
  case CU_AD_FORMAT_HALF:
    desc.f = cudaChannelFormatKindFloat;
    bits = 16;
    break;
  case CU_AD_FORMAT_FLOAT:
    desc.f = cudaChannelFormatKindFloat;
    bits = 32;
    break;
  default:
    desc.f = cudaChannelFormatKindNone;
    break;
  }
  setChannels(&desc, channels, bits);
  return desc;
}

CUDA_MEMCPY3D toDriverCopy(const CopyRegion& region) {
  CUDA_MEMCPY3D copy{};
  setEndpoint(region.source, &copy.srcMemoryType, &copy.srcDevice, &copy.srcArray, &copy.srcPitch,
              &copy.srcHeight, &copy.srcXInBytes, &copy.srcY, &copy.srcZ);
  setEndpoint(region.destination, &copy.dstMemoryType, &copy.dstDevice, &copy.dstArray,
              &copy.dstPitch, &copy.dstHeight, &copy.dstXInBytes, &copy.dstY, &copy.dstZ);
  copy.WidthInBytes = region.widthBytes;
  copy.Height = region.height;
  copy.Depth = region.depth;
  return copy;
}

CopyRegion toCopyRegion(const CUDA_MEMCPY3D& copy) {
  CopyRegion region;
  region.source = endpointOf(copy.srcMemoryType, copy.srcHost, copy.srcDevice, copy.srcArray,
                             copy.srcPitch, copy.srcHeight, copy.srcXInBytes, copy.srcY, copy.srcZ);
  region.destination =
      endpointOf(copy.dstMemoryType, copy.dstHost, copy.dstDevice, copy.dstArray, copy.dstPitch,
                 copy.dstHeight, copy.dstXInBytes, copy.dstY, copy.dstZ);
  region.widthBytes = copy.WidthInBytes;
  region.height = copy.Height;
  region.depth = copy.Depth;
  return region;
}

bool toDriverResource(const cudaResourceDesc& resource, CUDA_RESOURCE_DESC* out) {
  *out = CUDA_RESOURCE_DESC{};
  // cudaResourceType and CUresourcetype number the kinds alike.
  out->resType = static_cast<CUresourcetype>(resource.resType);
  out->flags = resource.flags;
  switch (resource.resType) {
  case cudaResourceTypeArray:
    out->res.array.hArray = reinterpret_cast<CUarray>(resource.res.array.array);
    return true;
  case cudaResourceTypeMipmappedArray:
    out->res.mipmap.hMipmappedArray =
        reinterpret_cast<CUmipmappedArray>(resource.res.mipmap.mipmap);
    return true;
  case cudaResourceTypeLinear:
    out->res.linear.devPtr = reinterpret_cast<CUdeviceptr>(resource.res.linear.devPtr);
    out->res.linear.sizeInBytes = resource.res.linear.sizeInBytes;
    return toArrayFormat(resource.res.linear.desc, &out->res.linear.format,
                         &out->res.linear.numChannels);
  case cudaResourceTypePitch2D:
    out->res.pitch2D.devPtr = reinterpret_cast<CUdeviceptr>(resource.res.pitch2D.devPtr);
    out->res.pitch2D.width = resource.res.pitch2D.width;
    out->res.pitch2D.height = resource.res.pitch2D.height;
    out->res.pitch2D.pitchInBytes = resource.res.pitch2D.pitchInBytes;
    return toArrayFormat(resource.res.pitch2D.desc, &out->res.pitch2D.format,
                         &out->res.pitch2D.numChannels);
  }
  return false;
}

cudaResourceDesc toRuntimeResource(const CUDA_RESOURCE_DESC& resource) {
  cudaResourceDesc out{};
  out.resType = static_cast<cudaResourceType>(resource.resType);
  out.flags = resource.flags;
  switch (resource.resType) {
  case CU_RESOURCE_TYPE_ARRAY:
    out.res.array.array = reinterpret_cast<cudaArray_t>(resource.res.array.hArray);
    break;
  case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
    out.res.mipmap.mipmap =
        reinterpret_cast<cudaMipmappedArray_t>(resource.res.mipmap.hMipmappedArray);
    break;
  case CU_RESOURCE_TYPE_LINEAR:
    out.res.linear.devPtr = reinterpret_cast<void*>(resource.res.linear.devPtr);
    out.res.linear.sizeInBytes = resource.res.linear.sizeInBytes;
    out.res.linear.desc =
        toChannelFormat(resource.res.linear.format, resource.res.linear.numChannels);
    break;
  case CU_RESOURCE_TYPE_PITCH2D:
    out.res.pitch2D.devPtr = reinterpret_cast<void*>(resource.res.pitch2D.devPtr);
    out.res.pitch2D.width = resource.res.pitch2D.width;
    out.res.pitch2D.height = resource.res.pitch2D.height;
    out.res.pitch2D.pitchInBytes = resource.res.pitch2D.pitchInBytes;
    out.res.pitch2D.desc =
        toChannelFormat(resource.res.pitch2D.format, resource.res.pitch2D.numChannels);
    break;
  }
  return out;
}

CUDA_TEXTURE_DESC toDriverTexture(const cudaTextureDesc& description) {
  CUDA_TEXTURE_DESC out{};
  for (int i = 0; i < 3; ++i)
    out.addressMode[i] = static_cast<CUaddress_mode>(description.addressMode[i]);
  out.filterMode = static_cast<CUfilter_mode>(description.filterMode);
  if (description.readMode == cudaReadModeElementType)
    out.flags |= CU_TRSF_READ_AS_INTEGER;
  if (description.normalizedCoords != 0)
    out.flags |= CU_TRSF_NORMALIZED_COORDINATES;
  if (description.sRGB != 0)
    out.flags |= CU_TRSF_SRGB;
  if (description.disableTrilinearOptimization != 0)
    out.flags |= CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
  if (description.seamlessCubemap != 0)
    out.flags |= CU_TRSF_SEAMLESS_CUBEMAP;
  out.maxAnisotropy = description.maxAnisotropy;
  out.mipmapFilterMode = static_cast<CUfilter_mode>(description.mipmapFilterMode);
  out.mipmapLevelBias = description.mipmapLevelBias;
  out.minMipmapLevelClamp = description.minMipmapLevelClamp;
  out.maxMipmapLevelClamp = description.maxMipmapLevelClamp;
  std::memcpy(out.borderColor, description.borderColor, sizeof out.borderColor);
  return out;
}

cudaTextureDesc toRuntimeTexture(const CUDA_TEXTURE_DESC& description) {
  cudaTextureDesc out{};
  for (int i = 0; i < 3; ++i)
    out.addressMode[i] = static_cast<cudaTextureAddressMode>(description.addressMode[i]);
  out.filterMode = static_cast<cudaTextureFilterMode>(description.filterMode);
  out.readMode = (description.flags & CU_TRSF_READ_AS_INTEGER) != 0 ? cudaReadModeElementType
                                                                    : cudaReadModeNormalizedFloat;
  out.normalizedCoords = (description.flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
  out.sRGB = (description.flags & CU_TRSF_SRGB) != 0;
  out.disableTrilinearOptimization =
      (description.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) != 0;
  out.seamlessCubemap = (description.flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
  out.maxAnisotropy = description.maxAnisotropy;
  out.mipmapFilterMode = static_cast<cudaTextureFilterMode>(description.mipmapFilterMode);
  out.mipmapLevelBias = description.mipmapLevelBias;
  out.minMipmapLevelClamp = description.minMipmapLevelClamp;
  out.maxMipmapLevelClamp = description.maxMipmapLevelClamp;
  std::memcpy(out.borderColor, description.borderColor, sizeof out.borderColor);
  return out;
}

CUDA_RESOURCE_VIEW_DESC toDriverView(const cudaResourceViewDesc& view) {
  CUDA_RESOURCE_VIEW_DESC out{};
  // cudaResourceViewFormat and CUresourceViewFormat number the formats alike.
  out.format = static_cast<CUresourceViewFormat>(view.format);
  out.width = view.width;
  out.height = view.height;
  out.depth = view.depth;
  out.firstMipmapLevel = view.firstMipmapLevel;
  out.lastMipmapLevel = view.lastMipmapLevel;
  out.firstLayer = view.firstLayer;
  out.lastLayer = view.lastLayer;
  return out;
}

cudaResourceViewDesc toRuntimeView(const CUDA_RESOURCE_VIEW_DESC& view) {
  cudaResourceViewDesc out{};
  out.format = static_cast<cudaResourceViewFormat>(view.format);
  out.width = view.width;
  out.height = view.height;
  out.depth = view.depth;
  out.firstMipmapLevel = view.firstMipmapLevel;
  out.lastMipmapLevel = view.lastMipmapLevel;
  out.firstLayer = view.firstLayer;
  out.lastLayer = view.lastLayer;
  return out;
}

} // namespace ocelot::runtime::driver
