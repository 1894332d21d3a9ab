// Texture and surface objects: tex1Dfetch, tex1D/2D/3D with float and integer element types,
// layered and cubemap textures, texture gathers, LOD/gradient lookups, and surface reads and
// writes in 1D, 2D, 3D and layered forms (tex/tld4/suld/sust with vector coordinates).
#include <cuda_runtime.h>

__global__ void fetchLinear(cudaTextureObject_t tex, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch<float>(tex, i) + tex1Dfetch<int>(tex, i + 1);
}

__global__ void sample1D2D3D(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                             float4* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float u = (x + 0.5f) / width, v = (y + 0.5f) / height;
  float a = tex1D<float>(t1, u);
  float4 b = tex2D<float4>(t2, u, v);
  float4 c = tex3D<float4>(t3, u, v, 0.5f);
  uchar4 d = tex2D<uchar4>(t2, u, 1.0f - v);
  out[y * width + x] = make_float4(a + b.x, b.y * c.y, c.z + d.x, b.w - c.w);
}

__global__ void sampleLayeredAndCube(cudaTextureObject_t layered1, cudaTextureObject_t layered2,
                                     cudaTextureObject_t cube, cudaTextureObject_t cubeLayered,
                                     float* out, int layers) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = i * 0.001f;
  float acc = 0.0f;
  for (int layer = 0; layer < layers; ++layer) {
    acc += tex1DLayered<float>(layered1, s, layer);
    acc += tex2DLayered<float>(layered2, s, 1.0f - s, layer);
  }
  acc += texCubemap<float>(cube, s, 1.0f, -s);
  acc += texCubemapLayered<float>(cubeLayered, 1.0f, s, s, i & 3);
  out[i] = acc;
}

__global__ void gatherAndLod(cudaTextureObject_t tex, float4* out, float lod) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float u = i * (1.0f / 256.0f);
  float4 g0 = tex2Dgather<float4>(tex, u, 0.5f, 0);
  float4 g2 = tex2Dgather<float4>(tex, u, 0.5f, 2);
  float4 l = tex2DLod<float4>(tex, u, 0.25f, lod);
  float4 gr = tex2DGrad<float4>(tex, u, 0.75f, make_float2(0.01f, 0), make_float2(0, 0.01f));
  float4 l3 = tex1DLod<float4>(tex, u, lod + 1.0f);
  out[i] = make_float4(g0.x + g2.y, l.z, gr.w, l3.x);
}

__global__ void surfaces1D2D(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, int width,
                             int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float v = surf2Dread<float>(s2, x * static_cast<int>(sizeof(float)), y);
  surf2Dwrite(v * 2.0f, s2, x * static_cast<int>(sizeof(float)), y);
  uchar4 px = surf2Dread<uchar4>(s2, x * 4, y, cudaBoundaryModeClamp);
  px.x = static_cast<unsigned char>(255 - px.x);
  surf2Dwrite(px, s2, x * 4, (height - 1 - y), cudaBoundaryModeZero);
  if (y == 0) {
    int w = surf1Dread<int>(s1, x * 4);
    surf1Dwrite(w + 1, s1, x * 4);
    float2 pair = surf1Dread<float2>(s1, x * 8, cudaBoundaryModeTrap);
    surf1Dwrite(make_float2(pair.y, pair.x), s1, x * 8);
  }
}

__global__ void surfaces3DLayered(cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, int depth) {
  int x = threadIdx.x, y = blockIdx.x;
  for (int z = 0; z < depth; ++z) {
    float4 v = surf3Dread<float4>(s3, x * 16, y, z);
    v.w += 1.0f;
    surf3Dwrite(v, s3, x * 16, y, z);
    short2 t = surf2DLayeredread<short2>(sl, x * 4, y, z);
    surf2DLayeredwrite(make_short2(t.y, t.x), sl, x * 4, y, z);
  }
  unsigned u = surf1DLayeredread<unsigned>(sl, x * 4, 0);
  surf1DLayeredwrite(u ^ 0xffu, sl, x * 4, 1);
}

// Texture queries through inline PTX (txq) and a texture sampled in a loop with a carried
// coordinate.
__global__ void textureQueries(cudaTextureObject_t tex, int* out) {
  int w, h;
  asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(tex));
  asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(tex));
  float u = 0.0f;
  for (int k = 0; k < 16; ++k)
    u = tex2D<float>(tex, u + 0.03f, k * 0.0625f);
  out[threadIdx.x] = w * h + static_cast<int>(u);
}
