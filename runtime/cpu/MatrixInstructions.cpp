// Tensor-core instructions as warp-wide operations: wmma.load/store/mma (the shapes and types the
// WMMA API emits for sm_90: f16 and bf16 m16n16k16/m32n8k16/m8n32k16, tf32 m16n16k8, f64 m8n8k4,
// s8/u8 m16n16k16/m32n8k16/m8n32k16), mma.sync (f16/bf16 m16n8k16 and m16n8k8, tf32 m16n8k8 and
// m16n8k4, f64 m8n8k4, m16n8k4 and m16n8k8, s8/u8 m16n8k32, m16n8k16 and m8n8k16), ldmatrix and
// stmatrix (m8n8 .b16, x1/x2/x4, .trans).
//
// A handler sees every lane of the warp, so it gathers the fragments of all lanes into matrices,
// multiplies, and scatters the result. mma.sync, ldmatrix and stmatrix use the fragment layouts
// the PTX ISA specifies (thread lane -> row, column). The PTX ISA leaves wmma's fragment layout
// unspecified: here slot e of lane l holds logical element (l * slots + e) mod (rows * columns)
// in row-major order (fragments that hold more slots than elements repeat them), which loads,
// stores, mma and element-wise fragment arithmetic agree on.
//
// Products of f16, bf16 and tf32 (inputs truncated to tf32's 10 mantissa bits) are exact in
// binary64 and are summed there before one rounding to the accumulator type; f64 accumulates with
// a fused multiply-add per k in order; s8/u8 accumulate exactly (.satfinite clamps to s32). The
// GPU's tensor cores may round intermediate sums differently for non-integer data.

#include "runtime/cpu/HalfPrecision.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"
#include "runtime/cpu/LaunchServices.h"
#include "runtime/cpu/MemoryAccess.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ocelot::runtime::cpu {

bool decodeAddressOperand(DecodeContext& c, size_t index, ir::StateSpace space);

namespace {

constexpr size_t kAddressOperand = 8;
constexpr size_t kStrideOperand = 9;

enum class Element : uint8_t { F16, BF16, TF32, F32, F64, S8, U8, S32 };

uint32_t bitsOf(Element e) {
  switch (e) {
  case Element::F16:
  case Element::BF16:
    return 16;
  case Element::F64:
    return 64;
  case Element::S8:
  case Element::U8:
    return 8;
  default:
    return 32;
  }
}

std::optional<Element> elementOf(ir::ScalarType type) {
  using T = ir::ScalarType;
  switch (type) {
  case T::F16:
    return Element::F16;
  case T::BF16:
    return Element::BF16;
  case T::TF32:
    return Element::TF32;
  case T::F32:
    return Element::F32;
  case T::F64:
    return Element::F64;
  case T::S8:
    return Element::S8;
  case T::U8:
    return Element::U8;
  case T::S32:
    return Element::S32;
  case T::B16:
    return Element::F16; // ldmatrix/stmatrix move 16-bit elements unchanged
  default:
    return std::nullopt;
  }
}

bool isInteger(Element e) {
  return e == Element::S8 || e == Element::U8 || e == Element::S32;
}

/// The value of an element's bits (integers exactly, floats as binary64).
double toDouble(Element e, uint64_t bits) {
  switch (e) {
  case Element::F16:
    return halfToFloat(static_cast<uint16_t>(bits));
  case Element::BF16:
    return bfloat16ToFloat(static_cast<uint16_t>(bits));
  case Element::TF32: // the unit reads tf32's 10 mantissa bits of the binary32 container
    return std::bit_cast<float>(static_cast<uint32_t>(bits) & 0xffffe000u);
  case Element::F32:
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
  case Element::F64:
    return std::bit_cast<double>(bits);
  case Element::S8:
    return static_cast<int8_t>(bits);
  case Element::U8:
    return static_cast<uint8_t>(bits);
  case Element::S32:
    return static_cast<int32_t>(bits);
  }
  return 0;
}

uint64_t fromDouble(Element e, double value, bool saturate) {
  switch (e) {
  case Element::F16:
    return doubleToHalf(value, RoundingMode::NearestEven);
  case Element::BF16:
    return doubleToBfloat16(value, RoundingMode::NearestEven);
  case Element::F32:
  case Element::TF32: {
    const float f = static_cast<float>(value);
    return std::bit_cast<uint32_t>(std::isnan(f) ? std::bit_cast<float>(0x7fffffffu) : f);
  }
  case Element::F64:
    return std::bit_cast<uint64_t>(value);
  default: {
    // Integer accumulators: exact sums wrap to 32 bits, or clamp with .satfinite.
    const auto exact = static_cast<int64_t>(value);
    if (saturate)
      return static_cast<uint32_t>(
          static_cast<int32_t>(std::clamp<int64_t>(exact, INT32_MIN, INT32_MAX)));
    return static_cast<uint32_t>(exact);
  }
  }
}

struct Shape {
  uint32_t m = 0, n = 0, k = 0;
};

enum class Which : uint8_t { A, B, C };

/// How a fragment maps lanes and slots to matrix coordinates.
struct Layout {
  bool specified = false; ///< mma.sync (PTX ISA layouts); else wmma's
  Shape shape;
  Which which = Which::A;
  Element element = Element::F32;
  uint32_t slots = 0; ///< elements per lane

  uint32_t rows() const { return which == Which::B ? shape.k : shape.m; }
  uint32_t columns() const { return which == Which::A ? shape.k : shape.n; }
};

struct Coordinate {
  uint32_t row = 0, column = 0;
};

/// The PTX ISA's mma.sync fragment layouts. g = lane / 4 (the group), t = lane % 4.
Coordinate specifiedCoordinate(const Layout& f, uint32_t lane, uint32_t i) {
  const uint32_t g = lane >> 2, t = lane & 3;
  const Shape s = f.shape;
  const bool wide = f.element == Element::F16 || f.element == Element::BF16;
  const bool bytes = f.element == Element::S8 || f.element == Element::U8;
  if (f.which == Which::C) {
    if (s.m == 8) // m8n8: two elements per lane
      return {g, 2 * t + i};
    return {g + 8 * (i >> 1), 2 * t + (i & 1)};
  }
  if (f.which == Which::A) {
    if (s.m == 8) // m8n8k4 f64, m8n8k16 s8
      return {g, bytes ? 4 * t + i : t};
    if (wide)
      return s.k == 16 ? Coordinate{g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)}
                       : Coordinate{g + 8 * (i >> 1), 2 * t + (i & 1)};
    if (bytes)
      return s.k == 32 ? Coordinate{g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3)}
                       : Coordinate{g + 8 * (i >> 2), 4 * t + (i & 3)};
    // tf32 and f64 m16n8k4/k8: rows g, g + 8, then columns t, t + 4
    return {g + 8 * (i & 1), t + 4 * (i >> 1)};
  }
  // B
  if (wide)
    return {2 * t + (i & 1) + 8 * (i >> 1), g};
  if (bytes)
    return s.k == 32 ? Coordinate{4 * t + (i & 3) + 16 * (i >> 2), g} : Coordinate{4 * t + i, g};
  return {t + 4 * i, g};
}

Coordinate coordinateOf(const Layout& f, uint32_t lane, uint32_t i) {
  if (f.specified)
    return specifiedCoordinate(f, lane, i);
  const uint32_t elements = f.rows() * f.columns();
  const uint32_t index = (lane * f.slots + i) % elements;
  return {index / f.columns(), index % f.columns()};
}

/// Element i of a lane's fragment (packed `bits` wide into its registers).
uint64_t slotBits(const ExecutionContext& c, const std::vector<uint32_t>& rows, Element e,
                  uint32_t lane, uint32_t i) {
  const uint32_t bits = bitsOf(e);
  const uint32_t perRegister = bits >= 32 ? 1 : 32 / bits;
  const uint64_t word = c.row(rows[i / perRegister])[lane];
  if (bits >= 32)
    return bits == 64 ? word : (word & 0xffffffffu);
  return (word >> ((i % perRegister) * bits)) & ((uint64_t{1} << bits) - 1);
}

void setSlotBits(ExecutionContext& c, const std::vector<uint32_t>& rows, Element e, uint32_t lane,
                 uint32_t i, uint64_t value) {
  const uint32_t bits = bitsOf(e);
  const uint32_t perRegister = bits >= 32 ? 1 : 32 / bits;
  uint64_t& word = c.row(rows[i / perRegister])[lane];
  if (bits >= 32) {
    word = bits == 64 ? value : (value & 0xffffffffu);
    return;
  }
  const uint32_t shift = (i % perRegister) * bits;
  const uint64_t mask = ((uint64_t{1} << bits) - 1) << shift;
  word = ((word & 0xffffffffu) & ~mask) | ((value << shift) & mask);
}

/// A tensor-core instruction's form, packed into MatrixOperands::form when it is decoded.
struct MatrixForm {
  enum class Kind : uint8_t { Load, Store, Mma, LoadMatrix, StoreMatrix } kind = Kind::Load;
  bool specified = false; ///< mma.sync layouts (else wmma's)
  bool columnMajor = false, transpose = false, saturate = false;
  Which which = Which::A;
  Shape shape;
  Element types[4] = {Element::F32, Element::F16, Element::F16, Element::F32}; ///< d a b c
  uint32_t slots[4] = {0, 0, 0, 0}; ///< elements per lane (MatrixOperands::slots)
  uint32_t matrices = 1;            ///< ldmatrix/stmatrix .x1/.x2/.x4
  MemorySpace space = MemorySpace::Generic;
};

uint64_t packForm(const MatrixForm& f) {
  uint64_t bits = static_cast<uint64_t>(f.kind) | (uint64_t{f.specified} << 3) |
                  (uint64_t{f.columnMajor} << 4) | (uint64_t{f.transpose} << 5) |
                  (uint64_t{f.saturate} << 6) | (static_cast<uint64_t>(f.which) << 7) |
                  (uint64_t{f.shape.m} << 9) | (uint64_t{f.shape.n} << 15) |
                  (uint64_t{f.shape.k} << 21);
  for (int i = 0; i < 4; ++i)
    bits |= static_cast<uint64_t>(f.types[i]) << (27 + 3 * i);
  bits |= uint64_t{f.matrices} << 39;
  bits |= static_cast<uint64_t>(f.space) << 42;
  return bits;
}

MatrixForm unpackForm(const MatrixOperands& operands) {
  MatrixForm form;
  const uint64_t bits = operands.form;
  form.kind = static_cast<MatrixForm::Kind>(bits & 7);
  form.specified = (bits >> 3) & 1;
  form.columnMajor = (bits >> 4) & 1;
  form.transpose = (bits >> 5) & 1;
  form.saturate = (bits >> 6) & 1;
  form.which = static_cast<Which>((bits >> 7) & 3);
  form.shape.m = static_cast<uint32_t>((bits >> 9) & 63);
  form.shape.n = static_cast<uint32_t>((bits >> 15) & 63);
  form.shape.k = static_cast<uint32_t>((bits >> 21) & 63);
  for (int i = 0; i < 4; ++i) {
    form.types[i] = static_cast<Element>((bits >> (27 + 3 * i)) & 7);
    form.slots[i] = operands.slots[i];
  }
  form.matrices = static_cast<uint32_t>((bits >> 39) & 7);
  form.space = static_cast<MemorySpace>((bits >> 42) & 3);
  return form;
}

/// The side table entry of an instruction (the launch's kernel holds them).
const MatrixOperands& operandsOf(const ExecutionContext& c, const DecodedInstruction& in) {
  return c.services->launch->kernel->matrixOperands[in.aux2];
}

Layout layoutOf(const MatrixForm& f, Which which, int slot) {
  Layout layout;
  layout.specified = f.specified;
  layout.shape = f.shape;
  layout.which = which;
  layout.element = f.types[slot];
  layout.slots = f.slots[slot];
  return layout;
}

/// The address of element (row, column) of a matrix in memory with leading dimension `stride`.
uint64_t elementAddress(uint64_t base, uint32_t row, uint32_t column, uint64_t stride,
                        bool columnMajor, uint32_t bytes) {
  const uint64_t index =
      columnMajor ? uint64_t{column} * stride + row : uint64_t{row} * stride + column;
  return base + index * bytes;
}

/// wmma.load.{a,b,c} and wmma.store.d: one tile at the first active lane's address and stride.
bool executeWmmaMemory(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const MatrixOperands& operands = operandsOf(c, in);
  const MatrixForm form = unpackForm(operands);
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(m));
  const uint64_t base = laneAddress(c, in, in.op[kAddressOperand], first);
  const int slot = form.kind == MatrixForm::Kind::Store ? 0
                   : form.which == Which::A             ? 1
                   : form.which == Which::B             ? 2
                                                        : 3;
  const Layout layout = layoutOf(form, form.which, slot);
  const uint64_t stride = in.op[kStrideOperand] != kNone
                              ? c.row(in.op[kStrideOperand])[first] & 0xffffffffu
                              : (form.columnMajor ? layout.rows() : layout.columns());
  const uint32_t bytes = bitsOf(layout.element) / 8;
  const std::vector<uint32_t>& rows = operands.fragments[slot];
  bool ok = true;
  forEachLane(m, [&](uint32_t lane) {
    for (uint32_t i = 0; i < layout.slots && ok; ++i) {
      const Coordinate at = coordinateOf(layout, lane, i);
      const uint64_t address =
          elementAddress(base, at.row, at.column, stride, form.columnMajor, bytes);
      std::byte* host = resolveAddress(c, form.space, address, bytes, lane);
      if (host == nullptr) {
        ok = false;
        return;
      }
      if (form.kind == MatrixForm::Kind::Store) {
        const uint64_t value = slotBits(c, rows, layout.element, lane, i);
        std::memcpy(host, &value, bytes);
      } else {
        uint64_t value = 0;
        std::memcpy(&value, host, bytes);
        setSlotBits(c, rows, layout.element, lane, i, value);
      }
    }
  });
  return ok;
}

/// D = A * B + C over the fragments of the whole warp.
bool executeMma(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const MatrixOperands& operands = operandsOf(c, in);
  const MatrixForm form = unpackForm(operands);
  const Shape s = form.shape;
  const Layout la = layoutOf(form, Which::A, 1), lb = layoutOf(form, Which::B, 2),
               lc = layoutOf(form, Which::C, 3), ld = layoutOf(form, Which::C, 0);
  std::vector<double> a(size_t{s.m} * s.k), b(size_t{s.k} * s.n), acc(size_t{s.m} * s.n);
  // Every lane's fragment (the whole warp takes part in a tensor-core instruction).
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    for (uint32_t i = 0; i < la.slots; ++i) {
      const Coordinate at = coordinateOf(la, lane, i);
      a[at.row * s.k + at.column] =
          toDouble(la.element, slotBits(c, operands.fragments[1], la.element, lane, i));
    }
    for (uint32_t i = 0; i < lb.slots; ++i) {
      const Coordinate at = coordinateOf(lb, lane, i);
      b[at.row * s.n + at.column] =
          toDouble(lb.element, slotBits(c, operands.fragments[2], lb.element, lane, i));
    }
    for (uint32_t i = 0; i < lc.slots; ++i) {
      const Coordinate at = coordinateOf(lc, lane, i);
      acc[at.row * s.n + at.column] =
          toDouble(lc.element, slotBits(c, operands.fragments[3], lc.element, lane, i));
    }
  }
  const bool integer = isInteger(la.element);
  const bool doublePrecision = la.element == Element::F64;
  for (uint32_t i = 0; i < s.m; ++i)
    for (uint32_t j = 0; j < s.n; ++j) {
      double sum = acc[i * s.n + j];
      if (doublePrecision) {
        for (uint32_t k = 0; k < s.k; ++k)
          sum = std::fma(a[i * s.k + k], b[k * s.n + j], sum);
      } else if (integer) {
        int64_t total = static_cast<int64_t>(sum);
        for (uint32_t k = 0; k < s.k; ++k)
          total += static_cast<int64_t>(a[i * s.k + k]) * static_cast<int64_t>(b[k * s.n + j]);
        sum = static_cast<double>(total);
      } else {
        double products = 0;
        for (uint32_t k = 0; k < s.k; ++k)
          products += a[i * s.k + k] * b[k * s.n + j];
        sum += products;
      }
      acc[i * s.n + j] = sum;
    }
  // Results go to a copy first: D may share registers with A, B or C.
  std::vector<uint64_t> results(size_t{kWarpSize} * ld.slots);
  forEachLane(m, [&](uint32_t lane) {
    for (uint32_t i = 0; i < ld.slots; ++i) {
      const Coordinate at = coordinateOf(ld, lane, i);
      results[lane * ld.slots + i] =
          fromDouble(ld.element, acc[at.row * s.n + at.column], form.saturate);
    }
  });
  forEachLane(m, [&](uint32_t lane) {
    for (uint32_t i = 0; i < ld.slots; ++i)
      setSlotBits(c, operands.fragments[0], ld.element, lane, i, results[lane * ld.slots + i]);
  });
  return true;
}

/// ldmatrix/stmatrix .m8n8 .b16: matrix q's eight rows are at the addresses of lanes 8q..8q+7;
/// lane l holds row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of each matrix (.trans: the
/// transposed positions).
bool executeMatrixMove(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const MatrixOperands& operands = operandsOf(c, in);
  const MatrixForm form = unpackForm(operands);
  const bool store = form.kind == MatrixForm::Kind::StoreMatrix;
  const std::vector<uint32_t>& rows = operands.fragments[store ? 1 : 0];
  bool ok = true;
  // Every matrix's rows, gathered (load) or scattered (store) through the row addresses.
  for (uint32_t q = 0; q < form.matrices && ok; ++q) {
    uint16_t matrix[8][8] = {};
    if (store)
      for (uint32_t lane = 0; lane < kWarpSize; ++lane)
        for (uint32_t h = 0; h < 2; ++h) {
          const auto value = static_cast<uint16_t>(c.row(rows[q])[lane] >> (16 * h));
          const uint32_t r = lane >> 2, col = 2 * (lane & 3) + h;
          if (form.transpose)
            matrix[col][r] = value;
          else
            matrix[r][col] = value;
        }
    for (uint32_t r = 0; r < 8 && ok; ++r) {
      const uint32_t lane = 8 * q + r;
      if (!laneActive(m, lane)) {
        ok = c.fail(FaultKind::IllegalInstruction, lane, 0, 0,
                    "ldmatrix/stmatrix: a lane that provides a row address is inactive");
        break;
      }
      const uint64_t address = laneAddress(c, in, in.op[kAddressOperand], lane);
      std::byte* host = resolveAddress(c, form.space, address, 16, lane);
      if (host == nullptr) {
        ok = false;
        break;
      }
      if (store)
        std::memcpy(host, matrix[r], 16);
      else
        std::memcpy(matrix[r], host, 16);
    }
    if (!ok || store)
      continue;
    forEachLane(m, [&](uint32_t lane) {
      uint64_t word = 0;
      for (uint32_t h = 0; h < 2; ++h) {
        const uint32_t r = lane >> 2, col = 2 * (lane & 3) + h;
        const uint16_t value = form.transpose ? matrix[col][r] : matrix[r][col];
        word |= uint64_t{value} << (16 * h);
      }
      c.row(rows[q])[lane] = word;
    });
  }
  return ok;
}

/// movmatrix.m8n8.trans.b16: the 8x8 matrix the warp holds (lane l: row l/4, columns 2(l%4) and
/// 2(l%4)+1, low half first), transposed, in the same layout. Every lane's element comes from
/// another lane, so all 32 must take part.
bool executeMatrixTranspose(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  if (m != kAllLanes)
    return c.fail(FaultKind::IllegalInstruction, 0, 0, 0,
                  "movmatrix: every lane of the warp must execute it");
  uint16_t matrix[8][8];
  const uint64_t* source = c.row(in.op[1]);
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    for (uint32_t h = 0; h < 2; ++h)
      matrix[lane >> 2][2 * (lane & 3) + h] = static_cast<uint16_t>(source[lane] >> (16 * h));
  uint64_t* destination = c.row(in.op[0]);
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    const uint32_t r = lane >> 2, col = 2 * (lane & 3);
    destination[lane] = uint64_t{matrix[col][r]} | (uint64_t{matrix[col + 1][r]} << 16);
  }
  return true;
}

/// The shape modifier: m<M>n<N>[k<K>].
std::optional<Shape> shapeOf(const ir::InstructionForm& form) {
  for (std::string_view modifier : form.modifiers()) {
    Shape shape;
    size_t at = 0;
    auto number = [&](char letter, uint32_t* value) {
      if (at >= modifier.size() || modifier[at] != letter)
        return false;
      const size_t start = ++at;
      *value = 0;
      while (at < modifier.size() && modifier[at] >= '0' && modifier[at] <= '9' && *value < 1000)
        *value = *value * 10 + static_cast<uint32_t>(modifier[at++] - '0');
      return at > start;
    };
    if (number('m', &shape.m) && number('n', &shape.n) &&
        (at == modifier.size() || (number('k', &shape.k) && at == modifier.size())))
      return shape;
  }
  return std::nullopt;
}

/// Register rows of a `{...}` fragment operand.
bool fragmentRows(DecodeContext& c, const ir::Operand& operand, bool destination,
                  std::vector<uint32_t>* rows, ir::ScalarType type) {
  const auto* vector = operand.getIf<ir::VectorOperand>();
  if (vector == nullptr) {
    rows->push_back(destination ? c.operands.destination(operand)
                                : c.operands.source(operand, type));
    return c.ok();
  }
  for (const ir::Operand& element : vector->elements)
    rows->push_back(destination ? c.operands.destination(element)
                                : c.operands.source(element, type));
  return c.ok();
}

ir::ScalarType registerTypeOf(Element e) {
  return e == Element::F64 ? ir::ScalarType::B64 : ir::ScalarType::B32;
}

std::vector<Element> typesOf(const ir::InstructionForm& form) {
  std::vector<Element> types;
  for (std::string_view modifier : form.modifiers())
    if (auto type = ir::scalarTypeFromName(modifier))
      if (auto element = elementOf(*type))
        types.push_back(*element);
  return types;
}

/// Whether (shape, input type) is one this file implements.
bool supportedShape(bool specified, Shape s, Element input) {
  auto is = [&](uint32_t m, uint32_t n, uint32_t k) { return s.m == m && s.n == n && s.k == k; };
  if (!specified) {
    switch (input) {
    case Element::F16:
    case Element::BF16:
    case Element::S8:
    case Element::U8:
      return is(16, 16, 16) || is(32, 8, 16) || is(8, 32, 16);
    case Element::TF32:
      return is(16, 16, 8);
    case Element::F64:
      return is(8, 8, 4);
    default:
      return false;
    }
  }
  switch (input) {
  case Element::F16:
  case Element::BF16:
    return is(16, 8, 16) || is(16, 8, 8);
  case Element::TF32:
    return is(16, 8, 8) || is(16, 8, 4);
  case Element::F64:
    return is(8, 8, 4) || is(16, 8, 4) || is(16, 8, 8);
  case Element::S8:
  case Element::U8:
    return is(16, 8, 32) || is(16, 8, 16) || is(8, 8, 16);
  default:
    return false;
  }
}

/// Elements per lane of a fragment of `registers` registers (wmma's fragments may hold more
/// slots than the matrix has elements: they repeat them).
uint32_t slotsFor(Element e, size_t registers) {
  const uint32_t bits = bitsOf(e);
  return static_cast<uint32_t>(registers) * (bits >= 32 ? 1 : 32 / bits);
}

uint32_t registerOperandsIndex(DecodeContext& c) {
  DecodedKernel& kernel = c.operands.builder().kernel();
  kernel.matrixOperands.emplace_back();
  return static_cast<uint32_t>(kernel.matrixOperands.size() - 1);
}

MatrixOperands& operandsAt(DecodeContext& c, uint32_t index) {
  return c.operands.builder().kernel().matrixOperands[index];
}

MemorySpace spaceOf(DecodeContext& c) {
  if (c.has("shared"))
    return MemorySpace::Shared;
  if (c.has("global"))
    return MemorySpace::Global;
  return MemorySpace::Generic;
}

} // namespace

bool decodeMatrix(DecodeContext& c) {
  const ir::Opcode opcode = c.opcode();
  MatrixForm form;
  const uint32_t index = registerOperandsIndex(c);
  c.out.aux2 = index;
  if (opcode == ir::Opcode::Ldmatrix || opcode == ir::Opcode::Stmatrix) {
    const bool store = opcode == ir::Opcode::Stmatrix;
    const auto shape = shapeOf(c.form);
    if (!shape || shape->m != 8 || shape->n != 8 || !c.has("b16"))
      return c.unsupported("ldmatrix/stmatrix shapes other than m8n8.b16");
    form.kind = store ? MatrixForm::Kind::StoreMatrix : MatrixForm::Kind::LoadMatrix;
    form.matrices = c.has("x4") ? 4 : c.has("x2") ? 2 : 1;
    form.transpose = c.has("trans");
    form.space = spaceOf(c);
    if (!c.expectOperands(2))
      return false;
    std::vector<uint32_t>& rows = operandsAt(c, index).fragments[store ? 1 : 0];
    if (!fragmentRows(c, c.operand(store ? 1 : 0), !store, &rows, ir::ScalarType::B32))
      return false;
    if (rows.size() != form.matrices)
      return c.fail("ldmatrix/stmatrix needs one register per matrix");
    const ir::StateSpace space =
        form.space == MemorySpace::Shared ? ir::StateSpace::Shared : ir::StateSpace::Generic;
    if (!decodeAddressOperand(c, store ? 0 : 1, space))
      return false;
    form.space = static_cast<MemorySpace>(c.out.aux);
    c.out.aux = 0;
    operandsAt(c, index).form = packForm(form);
    c.out.execute = &executeMatrixMove;
    c.out.memoryAccess = true;
    return c.ok();
  }
  if (opcode == ir::Opcode::Movmatrix) {
    const auto shape = shapeOf(c.form);
    if (!shape || shape->m != 8 || shape->n != 8 || !c.has("trans") || !c.has("b16"))
      return c.unsupported("movmatrix shapes other than m8n8.trans.b16");
    if (!c.expectOperands(2))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, ir::ScalarType::B32);
    c.out.execute = &executeMatrixTranspose;
    return c.ok();
  }
  const bool wmma = opcode == ir::Opcode::Wmma;
  form.specified = !wmma;
  const auto shape = shapeOf(c.form);
  if (!shape)
    return c.fail("no shape");
  form.shape = *shape;
  std::vector<Element> types = typesOf(c.form);
  if (wmma && (c.has("load") || c.has("store"))) {
    const bool store = c.has("store");
    form.kind = store ? MatrixForm::Kind::Store : MatrixForm::Kind::Load;
    form.which = c.has("a") ? Which::A : c.has("b") ? Which::B : Which::C;
    form.columnMajor = c.has("col");
    form.space = spaceOf(c);
    if (types.size() != 1)
      return c.unsupported("wmma element type");
    // The input type decides which shapes exist; an accumulator type goes with any of them.
    const Element element = types[0];
    const bool input = form.which != Which::C;
    if (input && !supportedShape(false, form.shape, element))
      return c.unsupported("wmma shape and type");
    if (!input && !supportedShape(false, form.shape, Element::F16) &&
        !supportedShape(false, form.shape, Element::TF32) &&
        !supportedShape(false, form.shape, Element::F64))
      return c.unsupported("wmma shape");
    const int slot = store ? 0 : form.which == Which::A ? 1 : form.which == Which::B ? 2 : 3;
    form.types[slot] = element;
    if (c.operandCount() < 2)
      return c.fail("wmma.load/store need a fragment and an address");
    const size_t fragmentIndex = store ? 1 : 0, addressIndex = store ? 0 : 1;
    std::vector<uint32_t>& rows = operandsAt(c, index).fragments[slot];
    if (!fragmentRows(c, c.operand(fragmentIndex), !store, &rows, registerTypeOf(element)))
      return false;
    Layout layout;
    layout.shape = form.shape;
    layout.which = form.which;
    form.slots[slot] = slotsFor(element, rows.size());
    if (form.slots[slot] * kWarpSize < layout.rows() * layout.columns())
      return c.fail("the fragment has too few registers for the matrix");
    const ir::StateSpace space = form.space == MemorySpace::Shared   ? ir::StateSpace::Shared
                                 : form.space == MemorySpace::Global ? ir::StateSpace::Global
                                                                     : ir::StateSpace::Generic;
    if (!decodeAddressOperand(c, addressIndex, space))
      return false;
    form.space = static_cast<MemorySpace>(c.out.aux);
    c.out.aux = 0;
    c.out.op[kStrideOperand] = c.operandCount() > 2 ? c.source(2, ir::ScalarType::U32) : kNone;
    MatrixOperands& operands = operandsAt(c, index);
    operands.form = packForm(form);
    std::copy(std::begin(form.slots), std::end(form.slots), std::begin(operands.slots));
    c.out.execute = &executeWmmaMemory;
    c.out.memoryAccess = true;
    return c.ok();
  }
  if (!(wmma ? c.has("mma") : opcode == ir::Opcode::Mma))
    return c.unsupported();
  form.kind = MatrixForm::Kind::Mma;
  form.saturate = c.has("satfinite");
  // Types: d.c (f16 inputs implied, wmma f16 only) or d.a.b.c.
  if (types.size() == 2)
    types = {types[0], Element::F16, Element::F16, types[1]};
  if (types.size() != 4)
    return c.unsupported("tensor-core types");
  for (int i = 0; i < 4; ++i)
    form.types[i] = types[i];
  if (types[1] != types[2] && !((types[1] == Element::S8 || types[1] == Element::U8) &&
                                (types[2] == Element::S8 || types[2] == Element::U8)))
    return c.unsupported("mixed input types");
  if (!supportedShape(form.specified, form.shape, types[1]))
    return c.unsupported(std::string(wmma ? "wmma" : "mma") + " shape and type");
  if (!c.expectOperands(4))
    return false;
  MatrixOperands& operands = operandsAt(c, index);
  for (int i = 0; i < 4; ++i) {
    const Element e = form.types[i];
    if (!fragmentRows(c, c.operand(static_cast<size_t>(i)), i == 0, &operands.fragments[i],
                      registerTypeOf(e)))
      return false;
    Layout layout;
    layout.shape = form.shape;
    layout.which = i == 1 ? Which::A : i == 2 ? Which::B : Which::C;
    form.slots[i] = slotsFor(e, operands.fragments[i].size());
    const uint32_t needed = layout.rows() * layout.columns();
    if (form.specified ? form.slots[i] * kWarpSize != needed : form.slots[i] * kWarpSize < needed)
      return c.fail("fragment " + std::to_string(i) + " has the wrong number of registers");
  }
  operands.form = packForm(form);
  std::copy(std::begin(form.slots), std::end(form.slots), std::begin(operands.slots));
  c.out.execute = &executeMma;
  return c.ok();
}

} // namespace ocelot::runtime::cpu
