// Stand-in for the Khronos EGL header: only what cuda_egl_interop.h uses (see ../README.md).
#pragma once

#include <stdint.h>

typedef int32_t EGLint; // khronos_int32_t
