// Texture and surface instructions through texture and surface objects created by the CPU device
// (TextureObjects.h): tex (1d, 2d, 3d, a1d, a2d, cube, acube; .level picks a mipmap level),
// suld.b and sust.b (1d, 2d, 3d; .trap/.clamp/.zero), txq/suq width, height and depth. Point and
// linear filtering follow the hardware: linear weights have 8 fractional bits. Cubemaps are
// arrays of six faces (cubemap arrays: six per layer); a direction selects the face of its major
// axis and the face coordinates as the CUDA programming guide's cubemap table states them.

#include "runtime/cpu/HalfPrecision.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"
#include "runtime/cpu/LaunchServices.h"
#include "runtime/cpu/TextureObjects.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ocelot::runtime::cpu {
namespace {

enum TextureFlags : uint32_t {
  kDimensionsMask = 3, ///< 1, 2 or 3 coordinates
  kLayered = 1u << 2,  ///< a1d/a2d: op[5] is the layer (an integer)
  kIntegerCoords = 1u << 3,
  kResultSigned = 1u << 4,
  kResultUnsigned = 1u << 5,
  kClampOut = 1u << 6, ///< surfaces: .clamp
  kZeroOut = 1u << 7,  ///< surfaces: .zero
  kLevel = 1u << 8,    ///< tex.level: op[9] is the level of detail
  kCube = 1u << 9,     ///< cube/acube: three direction coordinates
};

/// The face of a cubemap a direction points at, and the normalized [0, 1] coordinates on it.
struct CubeFace {
  uint32_t face = 0;
  float u = 0, v = 0;
};

CubeFace cubeFace(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float s, t, major;
  uint32_t face;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    s = x >= 0 ? -z : z;
    t = -y;
    major = ax;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    s = x;
    t = y >= 0 ? z : -z;
    major = ay;
  } else {
    face = z >= 0 ? 4 : 5;
    s = z >= 0 ? x : -x;
    t = -y;
    major = az;
  }
  if (major == 0)
    return {face, 0.5f, 0.5f};
  return {face, (s / major + 1.0f) * 0.5f, (t / major + 1.0f) * 0.5f};
}

const TextureObject* objectFor(ExecutionContext& c, uint64_t handle, uint32_t lane) {
  const LaunchState* launch = c.services != nullptr ? c.services->launch : nullptr;
  if (launch == nullptr || handle == 0 || handle > launch->textureCount ||
      launch->textures[handle - 1] == nullptr) {
    c.fail(FaultKind::IllegalAddress, lane, handle, 0, "texture or surface handle");
    return nullptr;
  }
  return launch->textures[handle - 1];
}

/// Channel i of the element at `texel` as a float (normalized integers for
/// cudaReadModeNormalizedFloat) or as raw integer bits.
float channelFloat(const TextureObject& t, const std::byte* texel, uint32_t channel) {
  uint32_t offset = 0;
  for (uint32_t i = 0; i < channel; ++i)
    offset += t.channelBits[i] / 8;
  const uint32_t bits = t.channelBits[channel];
  const std::byte* at = texel + offset;
  const bool normalize = t.description.readMode == cudaReadModeNormalizedFloat;
  switch (t.kind) {
  case cudaChannelFormatKindFloat:
    if (bits == 16) {
      uint16_t h;
      std::memcpy(&h, at, 2);
      return halfToFloat(h);
    } else {
      float f;
      std::memcpy(&f, at, 4);
      return f;
    }
  case cudaChannelFormatKindSigned: {
    int32_t v = 0;
    if (bits == 8)
      v = static_cast<int8_t>(*reinterpret_cast<const uint8_t*>(at));
    else if (bits == 16) {
      int16_t s;
      std::memcpy(&s, at, 2);
      v = s;
    } else
      std::memcpy(&v, at, 4);
    if (normalize && bits < 32)
      return std::max(-1.0f, static_cast<float>(v) / static_cast<float>((1 << (bits - 1)) - 1));
    return static_cast<float>(v);
  }
  default: {
    uint32_t v = 0;
    std::memcpy(&v, at, std::min<uint32_t>(bits / 8, 4));
    if (normalize && bits < 32)
      return static_cast<float>(v) / static_cast<float>((1u << bits) - 1);
    return static_cast<float>(v);
  }
  }
}

uint32_t channelBitsRaw(const TextureObject& t, const std::byte* texel, uint32_t channel) {
  uint32_t offset = 0;
  for (uint32_t i = 0; i < channel; ++i)
    offset += t.channelBits[i] / 8;
  const uint32_t bits = t.channelBits[channel];
  uint32_t v = 0;
  std::memcpy(&v, texel + offset, std::min<uint32_t>(bits / 8, 4));
  if (t.kind == cudaChannelFormatKindSigned && bits < 32) {
    const uint32_t shift = 32 - bits;
    v = static_cast<uint32_t>(static_cast<int32_t>(v << shift) >> shift);
  }
  return v;
}

/// Applies the address mode to an integer texel index; false: outside (border: zero).
bool addressIndex(int64_t* index, int64_t size, cudaTextureAddressMode mode) {
  switch (mode) {
  case cudaAddressModeWrap:
    *index = ((*index % size) + size) % size;
    return true;
  case cudaAddressModeMirror: {
    const int64_t period = 2 * size;
    int64_t i = ((*index % period) + period) % period;
    *index = i < size ? i : period - 1 - i;
    return true;
  }
  case cudaAddressModeBorder:
    return *index >= 0 && *index < size;
  default:
    *index = std::clamp<int64_t>(*index, 0, size - 1);
    return true;
  }
}

struct Texel4 {
  float f[4] = {0, 0, 0, 0};
  uint32_t u[4] = {0, 0, 0, 0};
};

/// One texel by integer coordinates (after addressing), or zeros at the border.
Texel4 fetch(const TextureObject& t, int64_t x, int64_t y, int64_t z, uint32_t dimensions) {
  Texel4 result;
  int64_t coords[3] = {x, y, z};
  const int64_t sizes[3] = {static_cast<int64_t>(t.width), static_cast<int64_t>(t.height),
                            static_cast<int64_t>(t.depth)};
  for (uint32_t d = 0; d < 3; ++d) {
    if (d >= dimensions) {
      coords[d] = std::clamp<int64_t>(coords[d], 0, sizes[d] - 1);
      continue;
    }
    if (!addressIndex(&coords[d], sizes[d], t.description.addressMode[d]))
      return result;
  }
  const std::byte* texel = t.data + coords[2] * static_cast<int64_t>(t.slicePitch) +
                           coords[1] * static_cast<int64_t>(t.pitch) +
                           coords[0] * static_cast<int64_t>(t.elementBytes);
  for (uint32_t i = 0; i < t.channels; ++i) {
    result.f[i] = channelFloat(t, texel, i);
    result.u[i] = channelBitsRaw(t, texel, i);
  }
  return result;
}

/// Samples at float coordinates with the texture's filter.
Texel4 sample(const TextureObject& t, const float* coordinates, uint32_t dimensions) {
  const double sizes[3] = {static_cast<double>(t.width), static_cast<double>(t.height),
                           static_cast<double>(t.depth)};
  double x[3] = {0, 0, 0};
  for (uint32_t d = 0; d < dimensions; ++d) {
    double u = coordinates[d];
    if (t.description.normalizedCoords) {
      const auto mode = t.description.addressMode[d];
      if (mode == cudaAddressModeWrap)
        u -= std::floor(u);
      else if (mode == cudaAddressModeMirror) {
        const double period = std::fmod(std::fabs(u), 2.0);
        u = period <= 1.0 ? period : 2.0 - period;
      }
      u *= sizes[d];
    }
    x[d] = u;
  }
  if (t.description.filterMode != cudaFilterModeLinear) {
    return fetch(t, static_cast<int64_t>(std::floor(x[0])), static_cast<int64_t>(std::floor(x[1])),
                 static_cast<int64_t>(std::floor(x[2])), dimensions);
  }
  // Linear: weights in 1.8 fixed point, as the texture unit computes them.
  int64_t base[3] = {0, 0, 0};
  double weight[3] = {0, 0, 0};
  for (uint32_t d = 0; d < dimensions; ++d) {
    const double shifted = x[d] - 0.5;
    base[d] = static_cast<int64_t>(std::floor(shifted));
    weight[d] = std::round((shifted - std::floor(shifted)) * 256.0) / 256.0;
  }
  Texel4 result;
  const uint32_t corners = 1u << dimensions;
  for (uint32_t corner = 0; corner < corners; ++corner) {
    double w = 1.0;
    int64_t at[3] = {base[0], base[1], base[2]};
    for (uint32_t d = 0; d < dimensions; ++d) {
      const bool upper = (corner >> d) & 1u;
      at[d] += upper ? 1 : 0;
      w *= upper ? weight[d] : 1.0 - weight[d];
    }
    if (w == 0.0)
      continue;
    const Texel4 texel = fetch(t, at[0], at[1], at[2], dimensions);
    for (uint32_t i = 0; i < 4; ++i)
      result.f[i] += static_cast<float>(w * texel.f[i]);
  }
  return result;
}

bool executeTexture(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint32_t dimensions = in.aux & kDimensionsMask;
  const bool layered = (in.aux & kLayered) != 0;
  const bool integerCoords = (in.aux & kIntegerCoords) != 0;
  const bool integerResult = (in.aux & (kResultSigned | kResultUnsigned)) != 0;
  bool ok = true;
  alignas(64) uint64_t values[4][kWarpSize] = {};
  forEachLane(m, [&](uint32_t lane) {
    if (!ok)
      return;
    const TextureObject* t = objectFor(c, c.row(in.op[4])[lane], lane);
    if (t == nullptr) {
      ok = false;
      return;
    }
    if (!t->levels.empty()) {
      // Mipmaps: the level of detail picks a level (point mipmap filtering: the nearest one).
      const float lod = (in.aux & kLevel) ? laneValue<float>(c.row(in.op[9]), lane) : 0.0f;
      const float low = t->description.minMipmapLevelClamp;
      const float clamped = std::clamp(lod, low, std::max(low, t->description.maxMipmapLevelClamp));
      const auto index = static_cast<size_t>(std::max(0.0f, std::floor(clamped + 0.5f)));
      t = &t->levels[std::min(index, t->levels.size() - 1)];
    }
    const uint32_t first = layered ? 6 : 5;
    Texel4 texel;
    int64_t layer = layered ? static_cast<int32_t>(c.row(in.op[5])[lane]) : 0;
    if (in.aux & kCube) {
      // The face is a slice sampled in 2D with normalized, clamped coordinates.
      const CubeFace face = cubeFace(laneValue<float>(c.row(in.op[first]), lane),
                                     laneValue<float>(c.row(in.op[first + 1]), lane),
                                     laneValue<float>(c.row(in.op[first + 2]), lane));
      const size_t slice = static_cast<size_t>(std::max<int64_t>(layer, 0)) * 6 + face.face;
      TextureObject view = *t;
      view.data = t->data + std::min(slice, t->depth - 1) * t->slicePitch;
      view.depth = 1;
      view.description.normalizedCoords = 1;
      view.description.addressMode[0] = view.description.addressMode[1] = cudaAddressModeClamp;
      const float coords[2] = {face.u, face.v};
      texel = sample(view, coords, 2);
    } else if (integerCoords) {
      int64_t i[3] = {0, 0, 0};
      for (uint32_t d = 0; d < dimensions; ++d)
        i[d] = static_cast<int32_t>(c.row(in.op[first + d])[lane]);
      if (t->resource.resType == cudaResourceTypeLinear &&
          (i[0] < 0 || i[0] >= static_cast<int64_t>(t->width))) {
        texel = Texel4{}; // tex1Dfetch outside the buffer reads zero
      } else {
        texel = fetch(*t, i[0], layered ? layer : i[1], i[2], dimensions + (layered ? 1 : 0));
      }
    } else {
      float coords[3] = {0, 0, 0};
      for (uint32_t d = 0; d < dimensions; ++d)
        coords[d] = laneValue<float>(c.row(in.op[first + d]), lane);
      if (layered) {
        // Layers are whole slices: sample within the layer.
        TextureObject view = *t;
        const size_t slice = dimensions == 1 ? t->pitch : t->slicePitch;
        view.data = t->data + static_cast<size_t>(std::max<int64_t>(layer, 0)) * slice;
        texel = sample(view, coords, dimensions);
      } else {
        texel = sample(*t, coords, dimensions);
      }
    }
    for (uint32_t i = 0; i < 4; ++i)
      values[i][lane] = integerResult ? uint64_t{texel.u[i]} : rowBits(texel.f[i]);
  });
  if (!ok)
    return false;
  for (uint32_t i = 0; i < 4; ++i)
    if (in.op[i] != kNone)
      forEachLane(m, [&](uint32_t lane) { c.row(in.op[i])[lane] = values[i][lane]; });
  return true;
}

/// suld.b / sust.b: op[0..3] values, op[4] handle, op[5..7] coordinates (x in bytes); aux:
/// dimensions and out-of-range mode; aux2 low byte: element bytes, next: vector width; imm: 1
/// for stores.
bool executeSurface(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint32_t dimensions = in.aux & kDimensionsMask;
  const uint32_t elementBytes = in.aux2 & 0xff, width = (in.aux2 >> 8) & 0xff;
  const bool store = in.imm != 0;
  bool ok = true;
  alignas(64) uint64_t values[4][kWarpSize] = {};
  forEachLane(m, [&](uint32_t lane) {
    if (!ok)
      return;
    const TextureObject* t = objectFor(c, c.row(in.op[4])[lane], lane);
    if (t == nullptr) {
      ok = false;
      return;
    }
    int64_t x = static_cast<int32_t>(c.row(in.op[5])[lane]);
    int64_t y = dimensions > 1 ? static_cast<int32_t>(c.row(in.op[6])[lane]) : 0;
    int64_t z = dimensions > 2 ? static_cast<int32_t>(c.row(in.op[7])[lane]) : 0;
    const int64_t rowBytes = static_cast<int64_t>(t->width * t->elementBytes);
    const int64_t bytes = int64_t{elementBytes} * width;
    const bool outside = x < 0 || x + bytes > rowBytes || y < 0 ||
                         y >= static_cast<int64_t>(t->height) || z < 0 ||
                         z >= static_cast<int64_t>(t->depth);
    if (outside) {
      if (in.aux & kZeroOut)
        return;
      if (in.aux & kClampOut) {
        x = std::clamp<int64_t>(x, 0, rowBytes - bytes);
        y = std::clamp<int64_t>(y, 0, static_cast<int64_t>(t->height) - 1);
        z = std::clamp<int64_t>(z, 0, static_cast<int64_t>(t->depth) - 1);
      } else {
        c.fail(FaultKind::IllegalAddress, lane, static_cast<uint64_t>(x), elementBytes,
               "surface access out of range");
        ok = false;
        return;
      }
    }
    std::byte* at = const_cast<std::byte*>(t->data) + z * static_cast<int64_t>(t->slicePitch) +
                    y * static_cast<int64_t>(t->pitch) + x;
    for (uint32_t i = 0; i < width; ++i) {
      if (store) {
        const uint64_t value = c.row(in.op[i])[lane];
        std::memcpy(at + i * elementBytes, &value, elementBytes);
      } else {
        uint64_t value = 0;
        std::memcpy(&value, at + i * elementBytes, elementBytes);
        values[i][lane] = value;
      }
    }
  });
  if (!ok || store)
    return ok;
  for (uint32_t i = 0; i < width; ++i)
    forEachLane(m, [&](uint32_t lane) { c.row(in.op[i])[lane] = values[i][lane]; });
  return true;
}

/// txq/suq: op[0] = the queried size (aux: 0 width, 1 height, 2 depth) of handle op[4].
bool executeQuery(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  bool ok = true;
  forEachLane(m, [&](uint32_t lane) {
    if (!ok)
      return;
    const TextureObject* t = objectFor(c, c.row(in.op[4])[lane], lane);
    if (t == nullptr) {
      ok = false;
      return;
    }
    const size_t value = in.aux == 0 ? t->width : in.aux == 1 ? t->height : t->depth;
    c.row(in.op[0])[lane] = value;
  });
  return ok;
}

uint32_t dimensionsOf(DecodeContext& c, uint32_t* flags) {
  if (c.has("1d"))
    return 1;
  if (c.has("2d"))
    return 2;
  if (c.has("3d"))
    return 3;
  if (c.has("a1d")) {
    *flags |= kLayered;
    return 1;
  }
  if (c.has("a2d")) {
    *flags |= kLayered;
    return 2;
  }
  if (c.has("cube")) {
    *flags |= kCube;
    return 3;
  }
  if (c.has("acube")) {
    *flags |= kCube | kLayered;
    return 3;
  }
  return 0;
}

/// The handle and coordinate rows of `[handle, {coords}]`.
bool decodeHandleAndCoordinates(DecodeContext& c, size_t index, ir::ScalarType coordinateType,
                                uint32_t firstRow, uint32_t count) {
  const auto* address = c.operand(index).getIf<ir::AddressOperand>();
  if (address == nullptr)
    return c.fail("expected [handle, {coordinates}]");
  const auto* reg = std::get_if<ir::RegisterOperand>(&address->base);
  if (reg == nullptr)
    return c.unsupported("texture references (only texture objects)");
  c.out.op[4] = c.operands.registerRow(reg->reg, reg->component);
  if (count == 0)
    return true;
  if (address->extra.empty())
    return c.fail("missing coordinates");
  const ir::Operand& coordinates = address->extra.front();
  if (const auto* vector = coordinates.getIf<ir::VectorOperand>()) {
    for (uint32_t i = 0; i < count && i < vector->elements.size(); ++i) {
      const bool layer = (c.out.aux & kLayered) && i == 0;
      c.out.op[firstRow + i] =
          c.operands.source(vector->elements[i], layer ? ir::ScalarType::S32 : coordinateType);
    }
  } else {
    c.out.op[firstRow] = c.operands.source(coordinates, coordinateType);
  }
  return true;
}

void vectorDestinations(DecodeContext& c, const ir::Operand& operand, bool source,
                        ir::ScalarType type) {
  if (const auto* vector = operand.getIf<ir::VectorOperand>()) {
    for (size_t i = 0; i < vector->elements.size() && i < 4; ++i)
      c.out.op[i] = source ? c.operands.source(vector->elements[i], type)
                           : c.operands.destination(vector->elements[i]);
  } else {
    c.out.op[0] = source ? c.operands.source(operand, type) : c.operands.destination(operand);
  }
}

} // namespace

bool decodeTexture(DecodeContext& c) {
  using Op = ir::Opcode;
  const Op opcode = c.opcode();
  c.out.memoryAccess = false; // not a plain address: the trace's memory hook does not see it
  if (opcode == Op::Txq || opcode == Op::Suq) {
    if (!c.expectOperands(2))
      return false;
    c.out.aux = c.has("width") ? 0 : c.has("height") ? 1 : c.has("depth") ? 2 : 3;
    if (c.out.aux == 3)
      return c.unsupported("query");
    c.out.op[0] = c.destination(0);
    if (!decodeHandleAndCoordinates(c, 1, ir::ScalarType::S32, 5, 0))
      return false;
    c.out.execute = &executeQuery;
    return c.ok();
  }
  uint32_t flags = 0;
  const uint32_t dimensions = dimensionsOf(c, &flags);
  if (dimensions == 0)
    return c.unsupported("texture geometry");
  c.out.aux = flags | dimensions;
  if (opcode == Op::Tex) {
    if (c.has("grad"))
      return c.unsupported("tex.grad");
    const auto resultType = c.firstType(), coordinateType = c.type();
    if (!resultType || !coordinateType || c.operandCount() < 2)
      return c.fail("tex needs types, a destination and [handle, coordinates]");
    if (*resultType == ir::ScalarType::S32)
      c.out.aux |= kResultSigned;
    else if (*resultType == ir::ScalarType::U32)
      c.out.aux |= kResultUnsigned;
    else if (*resultType != ir::ScalarType::F32)
      return c.unsupported("tex result type");
    if (*coordinateType == ir::ScalarType::S32) {
      if (flags & kCube)
        return c.fail("cubemap coordinates are directions (.f32)");
      c.out.aux |= kIntegerCoords;
    }
    vectorDestinations(c, c.operand(0), false, *resultType);
    const uint32_t count = dimensions + ((flags & kLayered) ? 1 : 0);
    if (!decodeHandleAndCoordinates(c, 1, *coordinateType, 5, count))
      return false;
    if (c.has("level")) {
      if (c.operandCount() < 3)
        return c.fail("tex.level needs a level of detail");
      c.out.aux |= kLevel;
      c.out.op[9] = c.source(2, ir::ScalarType::F32);
    }
    c.out.execute = &executeTexture;
    return c.ok();
  }
  if (opcode == Op::Suld || opcode == Op::Sust) {
    if (!c.has("b") || (flags & (kLayered | kCube)))
      return c.unsupported("formatted or layered surface access");
    const auto type = c.type();
    if (!type || !c.expectOperands(2))
      return c.fail("surface access needs a type and two operands");
    if (c.has("clamp"))
      c.out.aux |= kClampOut;
    else if (c.has("zero"))
      c.out.aux |= kZeroOut;
    const bool store = opcode == Op::Sust;
    c.out.imm = store ? 1 : 0;
    c.out.aux2 = (ir::scalarTypeBits(*type) / 8) | (c.form.vectorWidth() << 8);
    vectorDestinations(c, c.operand(store ? 1 : 0), store, *type);
    if (!decodeHandleAndCoordinates(c, store ? 0 : 1, ir::ScalarType::S32, 5, dimensions))
      return false;
    c.out.execute = &executeSurface;
    return c.ok();
  }
  return c.unsupported();
}

} // namespace ocelot::runtime::cpu
