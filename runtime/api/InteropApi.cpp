// The CUDA Runtime API: graphics interoperability with OpenGL, EGL and VDPAU (CUDART_INTEROP and
// the interop headers).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.
//
// The interop headers include OpenGL, EGL and VDPAU headers; runtime/api/platform provides the few
// types they need, so this builds without those development packages (see its README).

#include "runtime/api/ApiBoundary.h"

#include <cuda_egl_interop.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>
#include <cuda_vdpau_interop.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaEGLStreamConsumerAcquireFrame(cudaEglStreamConnection* /*conn*/,
                                                        cudaGraphicsResource_t* /*pCudaResource*/,
                                                        cudaStream_t* /*pStream*/,
                                                        unsigned int /*timeout*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaEGLStreamConsumerConnect(cudaEglStreamConnection* /*conn*/,
                                                   EGLStreamKHR /*eglStream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaEGLStreamConsumerConnectWithFlags(cudaEglStreamConnection* /*conn*/,
                                                            EGLStreamKHR /*eglStream*/,
                                                            unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaEGLStreamConsumerDisconnect(cudaEglStreamConnection* /*conn*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaEGLStreamConsumerReleaseFrame(cudaEglStreamConnection* /*conn*/,
                                                        cudaGraphicsResource_t /*pCudaResource*/,
                                                        cudaStream_t* /*pStream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaEGLStreamProducerConnect(cudaEglStreamConnection* /*conn*/,
                                                   EGLStreamKHR /*eglStream*/, EGLint /*width*/,
                                                   EGLint /*height*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaEGLStreamProducerDisconnect(cudaEglStreamConnection* /*conn*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaEGLStreamProducerPresentFrame(cudaEglStreamConnection* /*conn*/,
                                                        cudaEglFrame /*eglframe*/,
                                                        cudaStream_t* /*pStream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaEGLStreamProducerReturnFrame(cudaEglStreamConnection* /*conn*/,
                                                       cudaEglFrame* /*eglframe*/,
                                                       cudaStream_t* /*pStream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaEventCreateFromEGLSync(cudaEvent_t* /*phEvent*/, EGLSyncKHR /*eglSync*/,
                                                 unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGLGetDevices(unsigned int* /*pCudaDeviceCount*/, int* /*pCudaDevices*/,
                                       unsigned int /*cudaDeviceCount*/,
                                       enum cudaGLDeviceList /*deviceList*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGLMapBufferObject(void** /*devPtr*/, GLuint /*bufObj*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGLMapBufferObjectAsync(void** /*devPtr*/, GLuint /*bufObj*/,
                                                 cudaStream_t /*stream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGLRegisterBufferObject(GLuint /*bufObj*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGLSetBufferObjectMapFlags(GLuint /*bufObj*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGLSetGLDevice(int /*device*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGLUnmapBufferObject(GLuint /*bufObj*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGLUnmapBufferObjectAsync(GLuint /*bufObj*/, cudaStream_t /*stream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGLUnregisterBufferObject(GLuint /*bufObj*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsEGLRegisterImage(struct cudaGraphicsResource** /*pCudaResource*/,
                                                   EGLImageKHR /*image*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource** /*resource*/,
                                                   GLuint /*buffer*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsGLRegisterImage(struct cudaGraphicsResource** /*resource*/,
                                                  GLuint /*image*/, GLenum /*target*/,
                                                  unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsMapResources(int /*count*/, cudaGraphicsResource_t* /*resources*/,
                                               cudaStream_t /*stream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsResourceGetMappedEglFrame(cudaEglFrame* /*eglFrame*/,
                                                            cudaGraphicsResource_t /*resource*/,
                                                            unsigned int /*index*/,
                                                            unsigned int /*mipLevel*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsResourceGetMappedMipmappedArray(
    cudaMipmappedArray_t* /*mipmappedArray*/, cudaGraphicsResource_t /*resource*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsResourceGetMappedPointer(void** /*devPtr*/, size_t* /*size*/,
                                                           cudaGraphicsResource_t /*resource*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t /*resource*/,
                                                      unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsSubResourceGetMappedArray(cudaArray_t* /*array*/,
                                                            cudaGraphicsResource_t /*resource*/,
                                                            unsigned int /*arrayIndex*/,
                                                            unsigned int /*mipLevel*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsUnmapResources(int /*count*/,
                                                 cudaGraphicsResource_t* /*resources*/,
                                                 cudaStream_t /*stream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphicsUnregisterResource(cudaGraphicsResource_t /*resource*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaGraphicsVDPAURegisterOutputSurface(struct cudaGraphicsResource** /*resource*/,
                                       VdpOutputSurface /*vdpSurface*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaGraphicsVDPAURegisterVideoSurface(struct cudaGraphicsResource** /*resource*/,
                                      VdpVideoSurface /*vdpSurface*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaVDPAUGetDevice(int* /*device*/, VdpDevice /*vdpDevice*/,
                                         VdpGetProcAddress* /*vdpGetProcAddress*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaVDPAUSetVDPAUDevice(int /*device*/, VdpDevice /*vdpDevice*/,
                                              VdpGetProcAddress* /*vdpGetProcAddress*/) {
  return notImplemented(__func__);
}

} // extern "C"
