// BC1 (DXT1) texture compression of a synthetic 256 x 256 image, the shape of the usual CUDA
// sample: 64 threads per 4x4 block; the first 16 load the colors and reduce their sum and
// covariance in shared memory, the principal axis comes from a power iteration (1/x, fma), the
// colors are ranked along it, every thread evaluates endpoint candidates (rintf of saturated
// values, 5-6-5 rounding, least-squares errors), and a shared-memory reduction picks the best.
// Only correctly rounded operations are used, but ptxas fuses some mul/add pairs of the PTX into
// fma (a - 0.0625f * (b - a), colors[i] - palette[p]): the compressed bits are those of the
// GPU only where the CPU device fuses the same pairs. The checksum and the RMS error against the
// original are printed and compared with the GPU's output.
#include "e2e_common.h"

#include <cmath>
#include <vector>

constexpr int kWidth = 256, kHeight = 256;
constexpr int kThreads = 64;

struct Color {
  float r, g, b;
};

__device__ Color operator+(Color a, Color b) {
  return {a.r + b.r, a.g + b.g, a.b + b.b};
}
__device__ Color operator-(Color a, Color b) {
  return {a.r - b.r, a.g - b.g, a.b - b.b};
}
__device__ Color operator*(float s, Color a) {
  return {s * a.r, s * a.g, s * a.b};
}
__device__ float dot(Color a, Color b) {
  return a.r * b.r + a.g * b.g + a.b * b.b;
}

// Rounds to 5-6-5 and expands back to [0, 1], as the decoder will see the endpoint.
__device__ Color quantize(Color c, unsigned short* packed) {
  const float r = rintf(__saturatef(c.r) * 31.0f);
  const float g = rintf(__saturatef(c.g) * 63.0f);
  const float b = rintf(__saturatef(c.b) * 31.0f);
  *packed = static_cast<unsigned short>((static_cast<unsigned>(r) << 11) |
                                        (static_cast<unsigned>(g) << 5) | static_cast<unsigned>(b));
  return {r * (1.0f / 31.0f), g * (1.0f / 63.0f), b * (1.0f / 31.0f)};
}

__global__ void compress(const unsigned* image, uint2* blocks) {
  __shared__ Color colors[16];
  __shared__ Color sums[16];
  __shared__ float covariance[16][6];
  __shared__ float projection[16];
  __shared__ int order[16];
  __shared__ float errors[kThreads];
  __shared__ int winners[kThreads];
  __shared__ Color axis;
  const int t = threadIdx.x;
  const int bx = blockIdx.x % (kWidth / 4), by = blockIdx.x / (kWidth / 4);
  if (t < 16) {
    const unsigned pixel = image[(by * 4 + t / 4) * kWidth + bx * 4 + t % 4];
    colors[t] = {(pixel & 0xff) * (1.0f / 255.0f), ((pixel >> 8) & 0xff) * (1.0f / 255.0f),
                 ((pixel >> 16) & 0xff) * (1.0f / 255.0f)};
    sums[t] = colors[t];
  }
  __syncthreads();
  for (int d = 8; d > 0; d >>= 1) { // butterfly sums: every thread ends with the total
    Color other = {0, 0, 0};
    if (t < 16)
      other = sums[t ^ d];
    __syncthreads();
    if (t < 16)
      sums[t] = sums[t] + other;
    __syncthreads();
  }
  const Color mean = (1.0f / 16.0f) * sums[0];
  if (t < 16) {
    const Color x = colors[t] - mean;
    covariance[t][0] = x.r * x.r;
    covariance[t][1] = x.r * x.g;
    covariance[t][2] = x.r * x.b;
    covariance[t][3] = x.g * x.g;
    covariance[t][4] = x.g * x.b;
    covariance[t][5] = x.b * x.b;
  }
  __syncthreads();
  for (int d = 8; d > 0; d >>= 1) {
    if (t < d)
      for (int k = 0; k < 6; ++k)
        covariance[t][k] += covariance[t + d][k];
    __syncthreads();
  }
  if (t == 0) {
    const float* m = covariance[0];
    Color v = {1.0f, 1.0f, 1.0f};
    for (int i = 0; i < 8; ++i) {
      const Color w = {v.r * m[0] + v.g * m[1] + v.b * m[2], v.r * m[1] + v.g * m[3] + v.b * m[4],
                       v.r * m[2] + v.g * m[4] + v.b * m[5]};
      const float largest = fmaxf(fmaxf(w.r, w.g), w.b);
      v = largest > 0.0f ? (1.0f / largest) * w : Color{1.0f, 1.0f, 1.0f};
    }
    axis = v;
  }
  __syncthreads();
  if (t < 16)
    projection[t] = dot(colors[t], axis);
  __syncthreads();
  if (t < 16) { // rank along the axis; ties by index
    int rank = 0;
    for (int i = 0; i < 16; ++i)
      rank += projection[i] < projection[t] || (projection[i] == projection[t] && i < t);
    order[rank] = t;
  }
  __syncthreads();
  // Candidate endpoints: the colors at sorted positions (lo, hi), widened toward the extremes.
  float best = 3.0e38f;
  int bestCandidate = 0;
  for (int candidate = t; candidate < 16 * 16; candidate += kThreads) {
    const int lo = candidate / 16, hi = candidate % 16;
    if (lo >= hi)
      continue;
    const Color a = colors[order[lo]], b = colors[order[hi]];
    unsigned short pa, pb;
    const Color qa = quantize(a - 0.0625f * (b - a), &pa);
    const Color qb = quantize(b + 0.0625f * (b - a), &pb);
    const Color palette[4] = {qa, qb, (1.0f / 3.0f) * (2.0f * qa + qb),
                              (1.0f / 3.0f) * (qa + 2.0f * qb)};
    float error = 0.0f;
    for (int i = 0; i < 16; ++i) {
      float nearest = 3.0e38f;
      for (int p = 0; p < 4; ++p) {
        const Color e = colors[i] - palette[p];
        nearest = fminf(nearest, dot(e, e));
      }
      error += nearest;
    }
    if (pa == pb)
      error += 1.0f; // a degenerate pair only wins when nothing else does
    if (error < best) {
      best = error;
      bestCandidate = candidate;
    }
  }
  errors[t] = best;
  winners[t] = bestCandidate;
  __syncthreads();
  for (int d = kThreads / 2; d > 0; d >>= 1) {
    if (t < d && (errors[t + d] < errors[t] ||
                  (errors[t + d] == errors[t] && winners[t + d] < winners[t]))) {
      errors[t] = errors[t + d];
      winners[t] = winners[t + d];
    }
    __syncthreads();
  }
  if (t == 0) {
    const int lo = winners[0] / 16, hi = winners[0] % 16;
    const Color a = colors[order[lo]], b = colors[order[hi]];
    unsigned short pa, pb;
    Color qa = quantize(a - 0.0625f * (b - a), &pa);
    Color qb = quantize(b + 0.0625f * (b - a), &pb);
    if (pa < pb) { // four-color mode needs the first endpoint to be the larger
      const unsigned short p = pa;
      pa = pb;
      pb = p;
      const Color q = qa;
      qa = qb;
      qb = q;
    }
    const Color palette[4] = {qa, qb, (1.0f / 3.0f) * (2.0f * qa + qb),
                              (1.0f / 3.0f) * (qa + 2.0f * qb)};
    unsigned indices = 0;
    for (int i = 0; i < 16; ++i) {
      int chosen = 0;
      float nearest = 3.0e38f;
      for (int p = 0; p < 4; ++p) {
        const Color e = colors[i] - palette[p];
        const float d2 = dot(e, e);
        if (d2 < nearest) {
          nearest = d2;
          chosen = p;
        }
      }
      indices |= static_cast<unsigned>(pa == pb ? 0 : chosen) << (2 * i);
    }
    blocks[blockIdx.x] =
        make_uint2(static_cast<unsigned>(pa) | (static_cast<unsigned>(pb) << 16), indices);
  }
}

// Decodes one BC1 texel into 8-bit RGB (bit replication of the endpoints, 2/3-1/3 mixes).
static void decode(uint2 block, int i, int rgb[3]) {
  const unsigned c0 = block.x & 0xffff, c1 = block.x >> 16;
  auto expand = [](unsigned c, int out[3]) {
    const unsigned r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
    out[0] = static_cast<int>((r << 3) | (r >> 2));
    out[1] = static_cast<int>((g << 2) | (g >> 4));
    out[2] = static_cast<int>((b << 3) | (b >> 2));
  };
  int e0[3], e1[3];
  expand(c0, e0);
  expand(c1, e1);
  const unsigned index = (block.y >> (2 * i)) & 3;
  for (int k = 0; k < 3; ++k) {
    if (c0 > c1)
      rgb[k] = index == 0   ? e0[k]
               : index == 1 ? e1[k]
               : index == 2 ? (2 * e0[k] + e1[k]) / 3
                            : (e0[k] + 2 * e1[k]) / 3;
    else
      rgb[k] = index == 0 ? e0[k] : index == 1 ? e1[k] : index == 2 ? (e0[k] + e1[k]) / 2 : 0;
  }
}

int main() {
  std::vector<unsigned> image(kWidth * kHeight);
  e2e::Rng rng(99);
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      // Gradients, a ring, hard edges and a little noise: every kind of block.
      const int ring = ((x - 128) * (x - 128) + (y - 100) * (y - 100)) / 97 % 64;
      int r = (x + (y / 32) * 7) & 255, g = (y * 3 + ring) & 255, b = ((x ^ y) & 32) ? 220 : 30;
      r = std::min(255, r + rng.range(0, 6));
      g = std::min(255, g + rng.range(0, 6));
      image[y * kWidth + x] = static_cast<unsigned>(r | (g << 8) | (b << 16) | (255u << 24));
    }
  const int count = (kWidth / 4) * (kHeight / 4);
  unsigned* d_image;
  uint2* d_blocks;
  CHECK(cudaMalloc(&d_image, image.size() * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_blocks, count * sizeof(uint2)));
  CHECK(cudaMemcpy(d_image, image.data(), image.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  compress<<<count, kThreads>>>(d_image, d_blocks);
  CHECK_LAUNCH();
  std::vector<uint2> blocks(count);
  CHECK(cudaMemcpy(blocks.data(), d_blocks, count * sizeof(uint2), cudaMemcpyDeviceToHost));
  double squared = 0;
  int worst = 0;
  for (int k = 0; k < count; ++k) {
    const int bx = k % (kWidth / 4), by = k / (kWidth / 4);
    for (int i = 0; i < 16; ++i) {
      const unsigned pixel = image[(by * 4 + i / 4) * kWidth + bx * 4 + i % 4];
      int rgb[3];
      decode(blocks[k], i, rgb);
      for (int c = 0; c < 3; ++c) {
        const int d = rgb[c] - static_cast<int>((pixel >> (8 * c)) & 0xff);
        squared += d * d;
        worst = std::max(worst, std::abs(d));
      }
    }
  }
  const double rms = std::sqrt(squared / (3.0 * kWidth * kHeight));
  std::printf("blocks: %d, RMS error: %.4f, largest deviation: %d\n", count, rms, worst);
  std::printf("compressed checksum: %016llx\n",
              static_cast<unsigned long long>(e2e::fnv1a(blocks.data(), count * sizeof(uint2))));
  e2e::expect(rms < 6.0, "RMS error of the compressed image below 6");
  CHECK(cudaFree(d_image));
  CHECK(cudaFree(d_blocks));
  return e2e::finish();
}
