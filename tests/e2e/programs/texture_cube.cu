// Cubemap textures: cudaMalloc3DArray with cudaArrayCubemap (and cudaArrayLayered for a cubemap
// array), texCubemap and texCubemapLayered over directions on every face, with point filtering and
// with linear filtering at texel centers (so every result is exact). The host computes each
// expected texel from the CUDA programming guide's face table.
#include "e2e_common.h"

#include <cmath>
#include <vector>

constexpr int kSize = 8;

__global__ void sample_cube(cudaTextureObject_t cube, const float4* directions, int n, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = texCubemap<float>(cube, directions[i].x, directions[i].y, directions[i].z);
}

__global__ void sample_cube_layered(cudaTextureObject_t cube, const float4* directions, int n,
                                    int layer, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] =
        texCubemapLayered<float>(cube, directions[i].x, directions[i].y, directions[i].z, layer);
}

// The face and normalized coordinates of a direction (CUDA programming guide, cubemap textures).
static void face_of(float x, float y, float z, int* face, float* u, float* v) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float s, t, m;
  if (ax >= ay && ax >= az) {
    *face = x >= 0 ? 0 : 1;
    s = x >= 0 ? -z : z;
    t = -y;
    m = ax;
  } else if (ay >= az) {
    *face = y >= 0 ? 2 : 3;
    s = x;
    t = y >= 0 ? z : -z;
    m = ay;
  } else {
    *face = z >= 0 ? 4 : 5;
    s = z >= 0 ? x : -x;
    t = -y;
    m = az;
  }
  *u = (s / m + 1.0f) * 0.5f;
  *v = (t / m + 1.0f) * 0.5f;
}

static float texel_value(int layer, int face, int i, int j) {
  return static_cast<float>(1000 * layer + 100 * face + kSize * j + i);
}

static cudaTextureObject_t make_cube(int layers, cudaTextureFilterMode filter, cudaArray_t* array) {
  const cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  const unsigned flags = cudaArrayCubemap | (layers > 1 ? cudaArrayLayered : 0);
  CHECK(cudaMalloc3DArray(array, &format, make_cudaExtent(kSize, kSize, 6 * layers), flags));
  std::vector<float> texels(static_cast<size_t>(kSize) * kSize * 6 * layers);
  for (int l = 0; l < layers; ++l)
    for (int f = 0; f < 6; ++f)
      for (int j = 0; j < kSize; ++j)
        for (int i = 0; i < kSize; ++i)
          texels[((static_cast<size_t>(l) * 6 + f) * kSize + j) * kSize + i] =
              texel_value(l, f, i, j);
  cudaMemcpy3DParms copy{};
  copy.srcPtr = make_cudaPitchedPtr(texels.data(), kSize * sizeof(float), kSize, kSize);
  copy.dstArray = *array;
  copy.extent = make_cudaExtent(kSize, kSize, 6 * layers);
  copy.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&copy));
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = *array;
  cudaTextureDesc description{};
  description.filterMode = filter;
  description.readMode = cudaReadModeElementType;
  description.normalizedCoords = 1;
  description.addressMode[0] = description.addressMode[1] = cudaAddressModeClamp;
  cudaTextureObject_t texture = 0;
  CHECK(cudaCreateTextureObject(&texture, &resource, &description, nullptr));
  return texture;
}

int main() {
  // Directions at texel centers of every face: (i + 0.5) / kSize on the face, turned back into a
  // direction through the face table.
  std::vector<float4> directions;
  std::vector<int> faces, columns, rows;
  for (int f = 0; f < 6; ++f)
    for (int j = 0; j < kSize; j += 3)
      for (int i = 0; i < kSize; i += 2) {
        const float s = 2.0f * (i + 0.5f) / kSize - 1.0f, t = 2.0f * (j + 0.5f) / kSize - 1.0f;
        float x = 0, y = 0, z = 0;
        switch (f) {
        case 0:
          x = 1, z = -s, y = -t;
          break;
        case 1:
          x = -1, z = s, y = -t;
          break;
        case 2:
          y = 1, x = s, z = t;
          break;
        case 3:
          y = -1, x = s, z = -t;
          break;
        case 4:
          z = 1, x = s, y = -t;
          break;
        default:
          z = -1, x = -s, y = -t;
          break;
        }
        directions.push_back(make_float4(x, y, z, 0));
        faces.push_back(f);
        columns.push_back(i);
        rows.push_back(j);
      }
  const int n = static_cast<int>(directions.size());
  float4* d_directions;
  float* d_out;
  CHECK(cudaMalloc(&d_directions, n * sizeof(float4)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_directions, directions.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  std::vector<float> out(n);
  const char* names[2] = {"point", "linear at texel centers"};
  for (int mode = 0; mode < 2; ++mode) {
    cudaArray_t array = nullptr;
    const cudaTextureObject_t cube =
        make_cube(1, mode == 0 ? cudaFilterModePoint : cudaFilterModeLinear, &array);
    sample_cube<<<1, 256>>>(cube, d_directions, n, d_out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int k = 0; k < n; ++k) {
      int face;
      float u, v;
      face_of(directions[k].x, directions[k].y, directions[k].z, &face, &u, &v);
      bad += face != faces[k] || out[k] != texel_value(0, faces[k], columns[k], rows[k]);
    }
    char what[96];
    std::snprintf(what, sizeof what, "texCubemap, %s, %d directions on six faces", names[mode], n);
    e2e::expect(bad == 0, what);
    CHECK(cudaDestroyTextureObject(cube));
    CHECK(cudaFreeArray(array));
  }
  {
    cudaArray_t array = nullptr;
    const cudaTextureObject_t cube = make_cube(3, cudaFilterModePoint, &array);
    int bad = 0;
    for (int layer = 0; layer < 3; ++layer) {
      sample_cube_layered<<<1, 256>>>(cube, d_directions, n, layer, d_out);
      CHECK_LAUNCH();
      CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
      for (int k = 0; k < n; ++k)
        bad += out[k] != texel_value(layer, faces[k], columns[k], rows[k]);
    }
    e2e::expect(bad == 0, "texCubemapLayered, three layers");
    std::printf("sample: layer 2, face %d, texel (%d,%d) = %.0f\n", faces[n - 1], columns[n - 1],
                rows[n - 1], static_cast<double>(out[n - 1]));
    CHECK(cudaDestroyTextureObject(cube));
    CHECK(cudaFreeArray(array));
  }
  CHECK(cudaFree(d_directions));
  CHECK(cudaFree(d_out));
  return e2e::finish();
}
