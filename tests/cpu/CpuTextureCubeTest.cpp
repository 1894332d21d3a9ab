// tex.cube and tex.acube on cubemap (and cubemap-array) texture objects: a direction selects the
// face of its major axis and the coordinates on it as in the CUDA programming guide's cubemap
// table; each expected texel below is worked out by hand from that table.

#include "CpuDeviceFixture.h"
#include "runtime/cpu/CpuArray.h"
#include "runtime/cpu/TextureObjects.h"

#include <array>
#include <vector>

namespace ocelot::runtime::cpu::test {
namespace {

std::string cubeKernel(bool layered) {
  const std::string fetch =
      layered ? "tex.acube.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd3, {%r5, %f1, %f2, %f3}];"
              : "tex.cube.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd3, {%f1, %f2, %f3, %f4}];";
  return R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in, .param .u64 tex, .param .u32 layer)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<12>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.u64 %rd3, [tex];
  ld.param.u32 %r5, [layer];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 12;
  add.s64 %rd5, %rd2, %rd4;
  ld.global.f32 %f1, [%rd5];
  ld.global.f32 %f2, [%rd5+4];
  ld.global.f32 %f3, [%rd5+8];
  mov.f32 %f4, 0f00000000;
  )" + fetch +
         R"(
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd1, %rd6;
  st.global.f32 [%rd7], %f5;
  ret;
}
)";
}

class TextureCubeTest : public CpuDeviceTest {
protected:
  /// A 4 x 4 float cubemap with `layers` layers; texel (i, j) of face f of layer l holds
  /// 1000 l + 100 f + 4 j + i.
  cudaTextureObject_t makeCubemap(unsigned layers) {
    const cudaChannelFormatDesc format{32, 0, 0, 0, cudaChannelFormatKindFloat};
    const unsigned flags = cudaArrayCubemap | (layers > 1 ? cudaArrayLayered : 0);
    Array* created = nullptr;
    EXPECT_EQ(
        device_->arrays()->create(format, cudaExtent{4, 4, 6 * size_t{layers}}, flags, &created),
        cudaSuccess);
    cudaArray_t array = created->handle();
    cudaChannelFormatDesc got{};
    cudaExtent extent{};
    unsigned gotFlags = 0;
    EXPECT_EQ(created->info(&got, &extent, &gotFlags), cudaSuccess);
    EXPECT_EQ(extent.depth, 6u * layers);
    // The array's storage: element rows, then slices (faces), as CpuArray lays them out.
    auto* texels = reinterpret_cast<float*>(static_cast<CpuArray*>(created)->layout().data);
    for (unsigned l = 0; l < layers; ++l)
      for (unsigned f = 0; f < 6; ++f)
        for (unsigned j = 0; j < 4; ++j)
          for (unsigned i = 0; i < 4; ++i)
            texels[((l * 6 + f) * 4 + j) * 4 + i] =
                static_cast<float>(1000 * l + 100 * f + 4 * j + i);
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array;
    cudaTextureDesc description{};
    description.filterMode = cudaFilterModePoint;
    description.readMode = cudaReadModeElementType;
    description.normalizedCoords = 1;
    Texture* texture = nullptr;
    EXPECT_EQ(device_->textures()->createTexture(resource, description, nullptr, &texture),
              cudaSuccess);
    return texture->handle();
  }

  void expectFaces(bool layered, unsigned layer, float offset) {
    DeviceFunction kernel = load(cubeKernel(layered), "k");
    ASSERT_NE(kernel, nullptr);
    const cudaTextureObject_t texture = makeCubemap(layered ? 2 : 1);
    // Directions and the texel each must read (face, column i, row j by the guide's table).
    const std::vector<std::array<float, 3>> directions = {
        {1.0f, 0.6f, -0.6f},  // +x: s = -z, t = -y -> (0.8, 0.2) -> i 3, j 0
        {-1.0f, 0.6f, -0.6f}, // -x: s = z, t = -y -> (0.2, 0.2) -> i 0, j 0
        {0.3f, 1.0f, -0.7f},  // +y: s = x, t = z -> (0.65, 0.15) -> i 2, j 0
        {0.3f, -1.0f, -0.7f}, // -y: s = x, t = -z -> (0.65, 0.85) -> i 2, j 3
        {-0.5f, 0.5f, 2.0f},  // +z: s = x, t = -y -> (0.375, 0.375) -> i 1, j 1
        {-0.5f, 0.5f, -2.0f}, // -z: s = -x, t = -y -> (0.625, 0.375) -> i 2, j 1
    };
    const std::vector<float> expected = {3, 100, 202, 314, 405, 506};
    auto* in = allocate<float>(directions.size() * 3);
    auto* out = allocate<float>(directions.size());
    for (size_t d = 0; d < directions.size(); ++d)
      for (size_t k = 0; k < 3; ++k)
        in[d * 3 + k] = directions[d][k];
    ASSERT_EQ(launch(kernel, dim3(1), dim3(static_cast<unsigned>(directions.size())), 0, out, in,
                     static_cast<uint64_t>(texture), layer),
              cudaSuccess);
    ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
    for (size_t d = 0; d < directions.size(); ++d)
      EXPECT_EQ(out[d], expected[d] + offset) << "direction " << d;
  }
};

TEST_F(TextureCubeTest, CubeSelectsTheFaceOfTheMajorAxis) {
  expectFaces(false, 0, 0.0f);
}

TEST_F(TextureCubeTest, CubemapArraysSelectTheLayersSixFaces) {
  expectFaces(true, 1, 1000.0f);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
