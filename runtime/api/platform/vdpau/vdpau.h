// Stand-in for the VDPAU header: only what cuda_vdpau_interop.h uses (see ../README.md). Handles
// are 32-bit integers in VDPAU; VdpStatus is an enumeration whose ABI is that of an int.
#pragma once

#include <stdint.h>

typedef uint32_t VdpDevice;
typedef uint32_t VdpVideoSurface;
typedef uint32_t VdpOutputSurface;
typedef uint32_t VdpFuncId;
typedef enum { VDP_STATUS_OK = 0 } VdpStatus;
typedef VdpStatus VdpGetProcAddress(VdpDevice device, VdpFuncId function_id,
                                    void** function_pointer);
