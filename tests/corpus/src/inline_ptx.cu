// Inline PTX the way libraries write it: every asm statement is its own `{ }` scope with its
// own `.reg` declarations (names without `%`), the same labels repeated in every expansion of
// an inlined helper (DONE:, LOOP:), named predicates guarding instructions with @p and @!p,
// nested scopes, vector operands, dual destinations (`r|p`), the sink `_`, and immediates in
// every radix.
#include <cstdint>

// A helper inlined many times: its labels appear once per call site, each in its own scope.
__device__ __forceinline__ uint32_t saturatingAdd(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("{\n\t"
      ".reg .pred overflow;\n\t"
      ".reg .b32 sum;\n\t"
      "add.cc.u32 sum, %1, %2;\n\t"
      "addc.u32 %0, 0, 0;\n\t"
      "setp.ne.u32 overflow, %0, 0;\n\t"
      "@overflow bra SATURATE;\n\t"
      "mov.b32 %0, sum;\n\t"
      "bra.uni DONE;\n"
      "SATURATE:\n\t"
      "mov.b32 %0, 0xFFFFFFFF;\n"
      "DONE:\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ int countDown(int n) {
  int steps;
  asm("{\n\t"
      ".reg .s32 i;\n\t"
      ".reg .pred more, first;\n\t"
      "mov.s32 i, %1;\n\t"
      "mov.s32 %0, 0;\n"
      "LOOP:\n\t"
      "setp.gt.s32 more, i, 0;\n\t"
      "@!more bra DONE;\n\t"
      "sub.s32 i, i, 1;\n\t"
      "add.s32 %0, %0, 1;\n\t"
      "bra.uni LOOP;\n"
      "DONE:\n\t"
      "setp.eq.s32 first, %0, 0;\n\t"
      "@first mov.s32 %0, -1;\n\t"
      "}"
      : "=r"(steps)
      : "r"(n));
  return steps;
}

__global__ void repeatedLabels(const uint32_t* a, const uint32_t* b, uint32_t* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t x = saturatingAdd(a[i], b[i]);
  x = saturatingAdd(x, a[i + 1]);
  x = saturatingAdd(x, b[i + 1]);
  x = saturatingAdd(x, 12345u);
  int s =
      countDown(static_cast<int>(x & 15)) + countDown(static_cast<int>(b[i] & 7)) + countDown(3);
  out[i] = x + static_cast<uint32_t>(s);
}

// Nested scopes with shadowing declarations.
__global__ void nestedScopes(int* out) {
  int r;
  asm volatile("{\n\t"
               ".reg .b32 t;\n\t"
               "mov.b32 t, 1;\n\t"
               "{\n\t"
               ".reg .b32 t;\n\t" // shadows the outer t
               "mov.b32 t, 2;\n\t"
               "{\n\t"
               ".reg .b32 t, u;\n\t"
               "mov.b32 t, 3;\n\t"
               "mov.b32 u, t;\n\t"
               "}\n\t"
               "add.s32 t, t, 10;\n\t"
               "}\n\t"
               "mov.b32 %0, t;\n\t"
               "}"
               : "=r"(r));
  out[threadIdx.x] = r;
}

// Immediates: hex, octal, binary, negative, float/double bit patterns, U suffix.
__global__ void immediates(uint32_t* out, float* fout, double* dout) {
  uint32_t a, b, c, d;
  float f;
  double g;
  asm("mov.u32 %0, 0x7fffFFFF;" : "=r"(a));
  asm("mov.u32 %0, 0777;" : "=r"(b));
  asm("mov.u32 %0, 0b1010101;" : "=r"(c));
  asm("add.s32 %0, %1, -42;" : "=r"(d) : "r"(a));
  asm("mov.f32 %0, 0f3FC00000;" : "=f"(f));
  asm("add.f64 %0, %1, 0d400921FB54442D18;" : "=d"(g) : "d"(static_cast<double>(f)));
  uint32_t e;
  asm("and.b32 %0, %1, 4294967295U;" : "=r"(e) : "r"(d));
  out[threadIdx.x * 5 + 0] = a;
  out[threadIdx.x * 5 + 1] = b;
  out[threadIdx.x * 5 + 2] = c;
  out[threadIdx.x * 5 + 3] = d;
  out[threadIdx.x * 5 + 4] = e;
  fout[threadIdx.x] = f;
  dout[threadIdx.x] = g;
}

// Vector operands, dual destinations and the sink.
__global__ void vectorsAndDuals(const uint4* in, uint4* out, uint32_t* flags) {
  uint4 v = in[threadIdx.x];
  uint32_t x, y, z, w;
  asm volatile("{\n\t"
               ".reg .b32 a, b, c, d;\n\t"
               "ld.global.v4.u32 {a, b, c, d}, [%4];\n\t"
               "add.u32 %0, a, 1;\n\t"
               "add.u32 %1, b, 2;\n\t"
               "add.u32 %2, c, 3;\n\t"
               "add.u32 %3, d, 4;\n\t"
               "st.global.v4.u32 [%5], {%0, %1, %2, %3};\n\t"
               "ld.global.v4.u32 {a, _, c, _}, [%4+16];\n\t"
               "st.global.v2.u32 [%5+16], {a, c};\n\t"
               "}"
               : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
               : "l"(in + threadIdx.x), "l"(out + 2 * threadIdx.x)
               : "memory");
  uint32_t shuffled, valid;
  asm volatile("{\n\t"
               ".reg .pred inRange;\n\t"
               "shfl.sync.up.b32 %0|inRange, %2, 1, 0, 0xffffffff;\n\t"
               "selp.u32 %1, 1, 0, inRange;\n\t"
               "}"
               : "=r"(shuffled), "=r"(valid)
               : "r"(v.x));
  flags[threadIdx.x] = shuffled + valid + x + y + z + w;
}

// Predicate logic: and/or/xor/not on predicates, negated predicate operands, selp with
// inverted predicates.
__global__ void predicateLogic(const int* a, const int* b, int* out) {
  int r;
  asm("{\n\t"
      ".reg .pred p, q, both, either, neither;\n\t"
      "setp.gt.s32 p, %1, 0;\n\t"
      "setp.lt.s32 q, %2, 100;\n\t"
      "and.pred both, p, q;\n\t"
      "or.pred either, p, !q;\n\t"
      "xor.pred neither, both, either;\n\t"
      "not.pred neither, neither;\n\t"
      "selp.s32 %0, %1, %2, both;\n\t"
      "@!either mov.s32 %0, 0;\n\t"
      "@neither add.s32 %0, %0, 7;\n\t"
      "setp.ne.and.s32 p, %0, 5, q;\n\t"
      "@p neg.s32 %0, %0;\n\t"
      "}"
      : "=r"(r)
      : "r"(a[threadIdx.x]), "r"(b[threadIdx.x]));
  out[threadIdx.x] = r;
}

// Carry chains and extended precision (add.cc/addc/madc/sub.cc/subc) for 128-bit arithmetic.
__global__ void carryChains(const uint4* a, const uint4* b, uint4* sum, uint4* product) {
  uint4 x = a[threadIdx.x], y = b[threadIdx.x], s, p;
  asm("add.cc.u32 %0, %4, %8;\n\t"
      "addc.cc.u32 %1, %5, %9;\n\t"
      "addc.cc.u32 %2, %6, %10;\n\t"
      "addc.u32 %3, %7, %11;"
      : "=r"(s.x), "=r"(s.y), "=r"(s.z), "=r"(s.w)
      : "r"(x.x), "r"(x.y), "r"(x.z), "r"(x.w), "r"(y.x), "r"(y.y), "r"(y.z), "r"(y.w));
  asm("mul.lo.u32 %0, %4, %6;\n\t"
      "mul.hi.u32 %1, %4, %6;\n\t"
      "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
      "madc.hi.u32 %2, %5, %6, 0;\n\t"
      "sub.cc.u32 %3, %2, %7;\n\t"
      "subc.u32 %3, %3, 0;"
      : "=r"(p.x), "=r"(p.y), "=r"(p.z), "=r"(p.w)
      : "r"(x.x), "r"(x.y), "r"(y.x), "r"(y.y));
  sum[threadIdx.x] = s;
  product[threadIdx.x] = p;
}
