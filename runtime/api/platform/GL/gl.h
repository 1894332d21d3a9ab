// Stand-in for the OpenGL header: only what cuda_gl_interop.h uses (see ../README.md).
#pragma once

typedef unsigned int GLenum;
typedef unsigned int GLuint;
