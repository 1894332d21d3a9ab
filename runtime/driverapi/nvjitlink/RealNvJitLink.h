#pragma once

// The library defines the functions nvJitLink.h would otherwise wrap inline.
#define NVJITLINK_NO_INLINE
#include <nvJitLink.h>
#include <string>

namespace ocelot::runtime::driverapi::nvjitlink {

/// NVIDIA's libnvJitLink.so.13 behind Ocelot's: found by absolute path (Ocelot's own library has
/// its soname, so a search by name would find Ocelot's again) and loaded with RTLD_DEEPBIND, so
/// that its calls of its own exported functions stay inside it and never reach Ocelot's, which
/// LD_PRELOAD puts first in the global scope.
struct RealNvJitLink {
  using Create = nvJitLinkResult (*)(nvJitLinkHandle*, uint32_t, const char* const*);
  using Destroy = nvJitLinkResult (*)(nvJitLinkHandle*);
  using AddData = nvJitLinkResult (*)(nvJitLinkHandle, nvJitLinkInputType, const void*, size_t,
                                      const char*);
  using AddFile = nvJitLinkResult (*)(nvJitLinkHandle, nvJitLinkInputType, const char*);
  using Complete = nvJitLinkResult (*)(nvJitLinkHandle);
  using GetSize = nvJitLinkResult (*)(nvJitLinkHandle, size_t*);
  using GetBytes = nvJitLinkResult (*)(nvJitLinkHandle, void*);
  using GetText = nvJitLinkResult (*)(nvJitLinkHandle, char*);
  using Version = nvJitLinkResult (*)(unsigned int*, unsigned int*);

  Create create = nullptr;
  Destroy destroy = nullptr;
  AddData addData = nullptr;
  AddFile addFile = nullptr;
  Complete complete = nullptr;
  GetSize linkedCubinSize = nullptr;
  GetBytes linkedCubin = nullptr;
  GetSize linkedPtxSize = nullptr;
  GetText linkedPtx = nullptr;
  GetSize errorLogSize = nullptr;
  GetText errorLog = nullptr;
  GetSize infoLogSize = nullptr;
  GetText infoLog = nullptr;
  Version version = nullptr;

  std::string path; ///< where it was loaded from

  /// The process's real library, loaded on first use; null where none was found (`problem()`
  /// says what was tried). $OCELOT_REAL_NVJITLINK names it; otherwise the library path's folders
  /// and the CUDA toolkit's are searched for a libnvJitLink.so.13 that is not Ocelot's.
  static const RealNvJitLink* get();
  static const std::string& problem();
};

} // namespace ocelot::runtime::driverapi::nvjitlink
