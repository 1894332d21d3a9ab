// Stand-in for the Khronos EGL extension header: only what cuda_egl_interop.h uses (see
// ../README.md). The three handles are opaque pointers in EGL_KHR_image_base, EGL_KHR_stream and
// EGL_KHR_fence_sync.
#pragma once

#include "EGL/egl.h"

typedef void* EGLImageKHR;
typedef void* EGLStreamKHR;
typedef void* EGLSyncKHR;
