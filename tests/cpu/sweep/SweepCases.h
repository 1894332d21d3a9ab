// The instructions of the instruction sweep: each case is one PTX instruction (or a few, in a
// `{ }` scope) evaluated for every input row of its group. The same list builds the CUDA program
// that records the GPU's results (instruction_sweep.cu, inline asm) and the CPU device's test
// (CpuSweepTest.cpp, generated PTX), so both run exactly the same PTX.
//
// OCELOT_SWEEP(group, name, D, A, B, C, E, "template")
//   group: the input rows (SweepInputs.h): f32, f64, h16, i32, i64 (four words per row)
//   D:     the destination register kind (R16, R32, R64)
//   A..E:  the source register kinds, NO where the group has fewer inputs than four
//   the template names the destination %0 and the sources %1..%4, as inline asm does.
// Register kinds take the low bits of the group's 64-bit input words.

// clang-format off
#define OCELOT_SWEEP_CASES(X)                                                                     \
  /* --- single precision, one input ----------------------------------------------------- */    \
  X(f32, rcp_rn_f32,            R32, R32, NO, NO, NO, "rcp.rn.f32 %0, %1;")                    \
  X(f32, rcp_rn_ftz_f32,        R32, R32, NO, NO, NO, "rcp.rn.ftz.f32 %0, %1;")                \
  X(f32, rcp_rz_f32,            R32, R32, NO, NO, NO, "rcp.rz.f32 %0, %1;")                    \
  X(f32, rcp_approx_f32,        R32, R32, NO, NO, NO, "rcp.approx.f32 %0, %1;")                \
  X(f32, rcp_approx_ftz_f32,    R32, R32, NO, NO, NO, "rcp.approx.ftz.f32 %0, %1;")            \
  X(f32, sqrt_rn_f32,           R32, R32, NO, NO, NO, "sqrt.rn.f32 %0, %1;")                   \
  X(f32, sqrt_rn_ftz_f32,       R32, R32, NO, NO, NO, "sqrt.rn.ftz.f32 %0, %1;")               \
  X(f32, sqrt_rp_f32,           R32, R32, NO, NO, NO, "sqrt.rp.f32 %0, %1;")                   \
  X(f32, sqrt_approx_f32,       R32, R32, NO, NO, NO, "sqrt.approx.f32 %0, %1;")               \
  X(f32, sqrt_approx_ftz_f32,   R32, R32, NO, NO, NO, "sqrt.approx.ftz.f32 %0, %1;")           \
  X(f32, rsqrt_approx_f32,      R32, R32, NO, NO, NO, "rsqrt.approx.f32 %0, %1;")              \
  X(f32, rsqrt_approx_ftz_f32,  R32, R32, NO, NO, NO, "rsqrt.approx.ftz.f32 %0, %1;")          \
  X(f32, ex2_approx_f32,        R32, R32, NO, NO, NO, "ex2.approx.f32 %0, %1;")                \
  X(f32, ex2_approx_ftz_f32,    R32, R32, NO, NO, NO, "ex2.approx.ftz.f32 %0, %1;")            \
  X(f32, lg2_approx_f32,        R32, R32, NO, NO, NO, "lg2.approx.f32 %0, %1;")                \
  X(f32, lg2_approx_ftz_f32,    R32, R32, NO, NO, NO, "lg2.approx.ftz.f32 %0, %1;")            \
  X(f32, sin_approx_f32,        R32, R32, NO, NO, NO, "sin.approx.f32 %0, %1;")                \
  X(f32, sin_approx_ftz_f32,    R32, R32, NO, NO, NO, "sin.approx.ftz.f32 %0, %1;")            \
  X(f32, cos_approx_f32,        R32, R32, NO, NO, NO, "cos.approx.f32 %0, %1;")                \
  X(f32, cos_approx_ftz_f32,    R32, R32, NO, NO, NO, "cos.approx.ftz.f32 %0, %1;")            \
  X(f32, tanh_approx_f32,       R32, R32, NO, NO, NO, "tanh.approx.f32 %0, %1;")               \
  X(f32, abs_f32,               R32, R32, NO, NO, NO, "abs.f32 %0, %1;")                       \
  X(f32, abs_ftz_f32,           R32, R32, NO, NO, NO, "abs.ftz.f32 %0, %1;")                   \
  X(f32, neg_f32,               R32, R32, NO, NO, NO, "neg.f32 %0, %1;")                       \
  X(f32, neg_ftz_f32,           R32, R32, NO, NO, NO, "neg.ftz.f32 %0, %1;")                   \
  X(f32, cvt_sat_f32_f32,       R32, R32, NO, NO, NO, "cvt.sat.f32.f32 %0, %1;")               \
  X(f32, cvt_ftz_f32_f32,       R32, R32, NO, NO, NO, "cvt.ftz.f32.f32 %0, %1;")               \
  X(f32, cvt_rni_f32_f32,       R32, R32, NO, NO, NO, "cvt.rni.f32.f32 %0, %1;")               \
  X(f32, cvt_rzi_f32_f32,       R32, R32, NO, NO, NO, "cvt.rzi.f32.f32 %0, %1;")               \
  X(f32, cvt_rmi_f32_f32,       R32, R32, NO, NO, NO, "cvt.rmi.f32.f32 %0, %1;")               \
  X(f32, cvt_rpi_ftz_sat_f32,   R32, R32, NO, NO, NO, "cvt.rpi.ftz.sat.f32.f32 %0, %1;")       \
  X(f32, cvt_rni_s32_f32,       R32, R32, NO, NO, NO, "cvt.rni.s32.f32 %0, %1;")               \
  X(f32, cvt_rzi_s32_f32,       R32, R32, NO, NO, NO, "cvt.rzi.s32.f32 %0, %1;")               \
  X(f32, cvt_rmi_s32_f32,       R32, R32, NO, NO, NO, "cvt.rmi.s32.f32 %0, %1;")               \
  X(f32, cvt_rpi_u32_f32,       R32, R32, NO, NO, NO, "cvt.rpi.u32.f32 %0, %1;")               \
  X(f32, cvt_rzi_ftz_u32_f32,   R32, R32, NO, NO, NO, "cvt.rzi.ftz.u32.f32 %0, %1;")           \
  X(f32, cvt_rzi_s16_f32,       R16, R32, NO, NO, NO, "cvt.rzi.s16.f32 %0, %1;")               \
  X(f32, cvt_rni_u8_f32,        R16, R32, NO, NO, NO, "cvt.rni.u8.f32 %0, %1;")                \
  X(f32, cvt_rzi_s64_f32,       R64, R32, NO, NO, NO, "cvt.rzi.s64.f32 %0, %1;")               \
  X(f32, cvt_rni_u64_f32,       R64, R32, NO, NO, NO, "cvt.rni.u64.f32 %0, %1;")               \
  X(f32, cvt_f64_f32,           R64, R32, NO, NO, NO, "cvt.f64.f32 %0, %1;")                   \
  X(f32, cvt_ftz_f64_f32,       R64, R32, NO, NO, NO, "cvt.ftz.f64.f32 %0, %1;")               \
  X(f32, cvt_rn_f16_f32,        R16, R32, NO, NO, NO, "cvt.rn.f16.f32 %0, %1;")                \
  X(f32, cvt_rz_f16_f32,        R16, R32, NO, NO, NO, "cvt.rz.f16.f32 %0, %1;")                \
  X(f32, cvt_rm_f16_f32,        R16, R32, NO, NO, NO, "cvt.rm.f16.f32 %0, %1;")                \
  X(f32, cvt_rn_bf16_f32,       R16, R32, NO, NO, NO, "cvt.rn.bf16.f32 %0, %1;")               \
  X(f32, cvt_rz_bf16_f32,       R16, R32, NO, NO, NO, "cvt.rz.bf16.f32 %0, %1;")               \
  X(f32, cvt_rn_relu_f16_f32,   R16, R32, NO, NO, NO, "cvt.rn.relu.f16.f32 %0, %1;")           \
  X(f32, cvt_rna_tf32_f32,      R32, R32, NO, NO, NO, "cvt.rna.tf32.f32 %0, %1;")              \
  X(f32, testp_classes_f32,     R32, R32, NO, NO, NO,                                         \
    "{ .reg .pred p0, p1, p2, p3, p4, p5; testp.finite.f32 p0, %1; testp.infinite.f32 p1, %1; "                   \
    "testp.number.f32 p2, %1; testp.notanumber.f32 p3, %1; testp.normal.f32 p4, %1; "           \
    "testp.subnormal.f32 p5, %1; selp.u32 %0, 1, 0, p0; "                                       \
    "@p1 or.b32 %0, %0, 2; @p2 or.b32 %0, %0, 4; @p3 or.b32 %0, %0, 8; "                       \
    "@p4 or.b32 %0, %0, 16; @p5 or.b32 %0, %0, 32; }")                                          \
  /* --- single precision, two inputs -------------------------------------------------- */    \
  X(f32, add_rn_f32,            R32, R32, R32, NO, NO, "add.rn.f32 %0, %1, %2;")               \
  X(f32, add_rz_f32,            R32, R32, R32, NO, NO, "add.rz.f32 %0, %1, %2;")               \
  X(f32, add_rm_f32,            R32, R32, R32, NO, NO, "add.rm.f32 %0, %1, %2;")               \
  X(f32, add_rp_f32,            R32, R32, R32, NO, NO, "add.rp.f32 %0, %1, %2;")               \
  X(f32, add_ftz_f32,           R32, R32, R32, NO, NO, "add.ftz.f32 %0, %1, %2;")              \
  X(f32, add_sat_f32,           R32, R32, R32, NO, NO, "add.sat.f32 %0, %1, %2;")              \
  X(f32, sub_rn_f32,            R32, R32, R32, NO, NO, "sub.rn.f32 %0, %1, %2;")               \
  X(f32, mul_rn_f32,            R32, R32, R32, NO, NO, "mul.rn.f32 %0, %1, %2;")               \
  X(f32, mul_rz_f32,            R32, R32, R32, NO, NO, "mul.rz.f32 %0, %1, %2;")               \
  X(f32, mul_ftz_f32,           R32, R32, R32, NO, NO, "mul.ftz.f32 %0, %1, %2;")              \
  X(f32, mul_ftz_sat_f32,       R32, R32, R32, NO, NO, "mul.ftz.sat.f32 %0, %1, %2;")          \
  X(f32, div_rn_f32,            R32, R32, R32, NO, NO, "div.rn.f32 %0, %1, %2;")               \
  X(f32, div_rz_f32,            R32, R32, R32, NO, NO, "div.rz.f32 %0, %1, %2;")               \
  X(f32, div_rn_ftz_f32,        R32, R32, R32, NO, NO, "div.rn.ftz.f32 %0, %1, %2;")           \
  X(f32, div_approx_f32,        R32, R32, R32, NO, NO, "div.approx.f32 %0, %1, %2;")           \
  X(f32, div_approx_ftz_f32,    R32, R32, R32, NO, NO, "div.approx.ftz.f32 %0, %1, %2;")       \
  X(f32, div_full_f32,          R32, R32, R32, NO, NO, "div.full.f32 %0, %1, %2;")             \
  X(f32, div_full_ftz_f32,      R32, R32, R32, NO, NO, "div.full.ftz.f32 %0, %1, %2;")         \
  X(f32, min_f32,               R32, R32, R32, NO, NO, "min.f32 %0, %1, %2;")                  \
  X(f32, max_f32,               R32, R32, R32, NO, NO, "max.f32 %0, %1, %2;")                  \
  X(f32, min_ftz_f32,           R32, R32, R32, NO, NO, "min.ftz.f32 %0, %1, %2;")              \
  X(f32, max_nan_f32,           R32, R32, R32, NO, NO, "max.NaN.f32 %0, %1, %2;")              \
  X(f32, min_xorsign_f32,       R32, R32, R32, NO, NO, "min.xorsign.abs.f32 %0, %1, %2;")      \
  X(f32, copysign_f32,          R32, R32, R32, NO, NO, "copysign.f32 %0, %1, %2;")             \
  X(f32, setp_f32,              R32, R32, R32, NO, NO,                                        \
    "{ .reg .pred p0, p1, p2, p3, p4, p5; setp.lt.f32 p0, %1, %2; setp.ltu.f32 p1, %1, %2; "                      \
    "setp.ne.f32 p2, %1, %2; setp.equ.f32 p3, %1, %2; setp.num.f32 p4, %1, %2; "                \
    "setp.ge.ftz.f32 p5, %1, %2; selp.u32 %0, 1, 0, p0; @p1 or.b32 %0, %0, 2; "                 \
    "@p2 or.b32 %0, %0, 4; @p3 or.b32 %0, %0, 8; @p4 or.b32 %0, %0, 16; "                       \
    "@p5 or.b32 %0, %0, 32; }")                                                                 \
  X(f32, cvt_rn_f16x2_f32,      R32, R32, R32, NO, NO, "cvt.rn.f16x2.f32 %0, %1, %2;")         \
  X(f32, cvt_rn_bf16x2_f32,     R32, R32, R32, NO, NO, "cvt.rn.bf16x2.f32 %0, %1, %2;")        \
  /* --- single precision, three inputs ------------------------------------------------- */    \
  X(f32, fma_rn_f32,            R32, R32, R32, R32, NO, "fma.rn.f32 %0, %1, %2, %3;")          \
  X(f32, fma_rz_f32,            R32, R32, R32, R32, NO, "fma.rz.f32 %0, %1, %2, %3;")          \
  X(f32, fma_rm_f32,            R32, R32, R32, R32, NO, "fma.rm.f32 %0, %1, %2, %3;")          \
  X(f32, fma_rp_f32,            R32, R32, R32, R32, NO, "fma.rp.f32 %0, %1, %2, %3;")          \
  X(f32, fma_rn_ftz_f32,        R32, R32, R32, R32, NO, "fma.rn.ftz.f32 %0, %1, %2, %3;")      \
  X(f32, fma_rn_sat_f32,        R32, R32, R32, R32, NO, "fma.rn.sat.f32 %0, %1, %2, %3;")      \
  X(f32, mad_rn_ftz_sat_f32,    R32, R32, R32, R32, NO, "mad.rn.ftz.sat.f32 %0, %1, %2, %3;")  \
  X(f32, mul_add_f32,           R32, R32, R32, R32, NO,                                        \
    "{ .reg .f32 t; mul.rn.f32 t, %1, %2; add.rn.f32 %0, t, %3; }")                             \
  /* --- double precision ------------------------------------------------------------------ */ \
  X(f64, rcp_rn_f64,            R64, R64, NO, NO, NO, "rcp.rn.f64 %0, %1;")                    \
  X(f64, rcp_rm_f64,            R64, R64, NO, NO, NO, "rcp.rm.f64 %0, %1;")                    \
  X(f64, rcp_approx_ftz_f64,    R64, R64, NO, NO, NO, "rcp.approx.ftz.f64 %0, %1;")            \
  X(f64, sqrt_rn_f64,           R64, R64, NO, NO, NO, "sqrt.rn.f64 %0, %1;")                   \
  X(f64, sqrt_rz_f64,           R64, R64, NO, NO, NO, "sqrt.rz.f64 %0, %1;")                   \
  X(f64, rsqrt_approx_f64,      R64, R64, NO, NO, NO, "rsqrt.approx.f64 %0, %1;")              \
  X(f64, rsqrt_approx_ftz_f64,  R64, R64, NO, NO, NO, "rsqrt.approx.ftz.f64 %0, %1;")          \
  X(f64, abs_f64,               R64, R64, NO, NO, NO, "abs.f64 %0, %1;")                       \
  X(f64, neg_f64,               R64, R64, NO, NO, NO, "neg.f64 %0, %1;")                       \
  X(f64, cvt_rn_f32_f64,        R32, R64, NO, NO, NO, "cvt.rn.f32.f64 %0, %1;")                \
  X(f64, cvt_rz_ftz_f32_f64,    R32, R64, NO, NO, NO, "cvt.rz.ftz.f32.f64 %0, %1;")            \
  X(f64, cvt_rp_f32_f64,        R32, R64, NO, NO, NO, "cvt.rp.f32.f64 %0, %1;")                \
  X(f64, cvt_rn_f16_f64,        R16, R64, NO, NO, NO, "cvt.rn.f16.f64 %0, %1;")                \
  X(f64, cvt_rni_f64_f64,       R64, R64, NO, NO, NO, "cvt.rni.f64.f64 %0, %1;")               \
  X(f64, cvt_rzi_s32_f64,       R32, R64, NO, NO, NO, "cvt.rzi.s32.f64 %0, %1;")               \
  X(f64, cvt_rni_s64_f64,       R64, R64, NO, NO, NO, "cvt.rni.s64.f64 %0, %1;")               \
  X(f64, cvt_rmi_u64_f64,       R64, R64, NO, NO, NO, "cvt.rmi.u64.f64 %0, %1;")               \
  X(f64, cvt_rzi_u32_f64,       R32, R64, NO, NO, NO, "cvt.rzi.u32.f64 %0, %1;")               \
  X(f64, cvt_rni_s16_f64,       R16, R64, NO, NO, NO, "cvt.rni.s16.f64 %0, %1;")               \
  X(f64, cvt_rn_bf16_f64,       R16, R64, NO, NO, NO, "cvt.rn.bf16.f64 %0, %1;")               \
  X(f64, testp_classes_f64,     R32, R64, NO, NO, NO,                                         \
    "{ .reg .pred p0, p1, p2, p3, p4, p5; testp.finite.f64 p0, %1; testp.infinite.f64 p1, %1; " \
    "testp.number.f64 p2, %1; testp.notanumber.f64 p3, %1; testp.normal.f64 p4, %1; "           \
    "testp.subnormal.f64 p5, %1; selp.u32 %0, 1, 0, p0; "                                       \
    "@p1 or.b32 %0, %0, 2; @p2 or.b32 %0, %0, 4; @p3 or.b32 %0, %0, 8; "                       \
    "@p4 or.b32 %0, %0, 16; @p5 or.b32 %0, %0, 32; }")                                          \
  X(f64, add_rn_f64,            R64, R64, R64, NO, NO, "add.rn.f64 %0, %1, %2;")               \
  X(f64, add_rz_f64,            R64, R64, R64, NO, NO, "add.rz.f64 %0, %1, %2;")               \
  X(f64, sub_rn_f64,            R64, R64, R64, NO, NO, "sub.rn.f64 %0, %1, %2;")               \
  X(f64, mul_rn_f64,            R64, R64, R64, NO, NO, "mul.rn.f64 %0, %1, %2;")               \
  X(f64, mul_rp_f64,            R64, R64, R64, NO, NO, "mul.rp.f64 %0, %1, %2;")               \
  X(f64, div_rn_f64,            R64, R64, R64, NO, NO, "div.rn.f64 %0, %1, %2;")               \
  X(f64, div_rm_f64,            R64, R64, R64, NO, NO, "div.rm.f64 %0, %1, %2;")               \
  X(f64, min_f64,               R64, R64, R64, NO, NO, "min.f64 %0, %1, %2;")                  \
  X(f64, max_f64,               R64, R64, R64, NO, NO, "max.f64 %0, %1, %2;")                  \
  X(f64, fma_rn_f64,            R64, R64, R64, R64, NO, "fma.rn.f64 %0, %1, %2, %3;")          \
  X(f64, fma_rz_f64,            R64, R64, R64, R64, NO, "fma.rz.f64 %0, %1, %2, %3;")          \
  X(f64, fma_rm_f64,            R64, R64, R64, R64, NO, "fma.rm.f64 %0, %1, %2, %3;")          \
  /* --- half precision (f16x1 is every 16-bit pattern) ------------------------------------ */ \
  X(h16, cvt_f32_f16,           R32, R16, NO, NO, NO, "cvt.f32.f16 %0, %1;")                   \
  X(h16, cvt_f32_bf16,          R32, R16, NO, NO, NO, "cvt.f32.bf16 %0, %1;")                  \
  X(h16, cvt_rni_s32_f16,       R32, R16, NO, NO, NO, "cvt.rni.s32.f16 %0, %1;")               \
  X(h16, cvt_rzi_s64_f16,       R64, R16, NO, NO, NO, "cvt.rzi.s64.f16 %0, %1;")               \
  X(h16, cvt_f64_f16,           R64, R16, NO, NO, NO, "cvt.f64.f16 %0, %1;")                   \
  X(h16, abs_bf16,              R16, R16, NO, NO, NO, "abs.bf16 %0, %1;")                      \
  X(h16, ex2_approx_f16,        R16, R16, NO, NO, NO, "ex2.approx.f16 %0, %1;")                \
  X(h16, tanh_approx_f16,       R16, R16, NO, NO, NO, "tanh.approx.f16 %0, %1;")               \
  X(h16, neg_f16,               R16, R16, NO, NO, NO, "neg.f16 %0, %1;")                       \
  X(h16, add_rn_f16,            R16, R16, R16, NO, NO, "add.rn.f16 %0, %1, %2;")               \
  X(h16, mul_f16,               R16, R16, R16, NO, NO, "mul.f16 %0, %1, %2;")                  \
  X(h16, add_rn_bf16,           R16, R16, R16, NO, NO, "add.rn.bf16 %0, %1, %2;")              \
  X(h16, max_f16,               R16, R16, R16, NO, NO, "max.f16 %0, %1, %2;")                  \
  X(h16, fma_rn_f16,            R16, R16, R16, R16, NO, "fma.rn.f16 %0, %1, %2, %1;")          \
  /* --- 32-bit integers --------------------------------------------------------------------- */\
  X(i32, popc_b32,              R32, R32, NO, NO, NO, "popc.b32 %0, %1;")                      \
  X(i32, clz_b32,               R32, R32, NO, NO, NO, "clz.b32 %0, %1;")                       \
  X(i32, brev_b32,              R32, R32, NO, NO, NO, "brev.b32 %0, %1;")                      \
  X(i32, bfind_u32,             R32, R32, NO, NO, NO, "bfind.u32 %0, %1;")                     \
  X(i32, bfind_s32,             R32, R32, NO, NO, NO, "bfind.s32 %0, %1;")                     \
  X(i32, bfind_shiftamt_u32,    R32, R32, NO, NO, NO, "bfind.shiftamt.u32 %0, %1;")            \
  X(i32, cnot_b32,              R32, R32, NO, NO, NO, "cnot.b32 %0, %1;")                      \
  X(i32, abs_s32,               R32, R32, NO, NO, NO, "abs.s32 %0, %1;")                       \
  X(i32, cvt_rn_f32_s32,        R32, R32, NO, NO, NO, "cvt.rn.f32.s32 %0, %1;")                \
  X(i32, cvt_rz_f32_u32,        R32, R32, NO, NO, NO, "cvt.rz.f32.u32 %0, %1;")                \
  X(i32, cvt_rp_f32_s32,        R32, R32, NO, NO, NO, "cvt.rp.f32.s32 %0, %1;")                \
  X(i32, cvt_rn_f16_s32,        R16, R32, NO, NO, NO, "cvt.rn.f16.s32 %0, %1;")                \
  X(i32, cvt_sat_s8_s32,        R32, R32, NO, NO, NO, "cvt.sat.s8.s32 %0, %1;")                \
  X(i32, cvt_sat_u16_s32,       R32, R32, NO, NO, NO, "cvt.sat.u16.s32 %0, %1;")               \
  X(i32, cvt_s32_s8,            R32, R32, NO, NO, NO, "cvt.s32.s8 %0, %1;")                    \
  X(i32, cvt_sat_s32_u32,       R32, R32, NO, NO, NO, "cvt.sat.s32.u32 %0, %1;")               \
  X(i32, shl_b32,               R32, R32, R32, NO, NO, "shl.b32 %0, %1, %2;")                  \
  X(i32, shr_u32,               R32, R32, R32, NO, NO, "shr.u32 %0, %1, %2;")                  \
  X(i32, shr_s32,               R32, R32, R32, NO, NO, "shr.s32 %0, %1, %2;")                  \
  X(i32, shl_b16,               R16, R16, R32, NO, NO, "shl.b16 %0, %1, %2;")                  \
  X(i32, shr_s16,               R16, R16, R32, NO, NO, "shr.s16 %0, %1, %2;")                  \
  X(i32, mul_hi_u32,            R32, R32, R32, NO, NO, "mul.hi.u32 %0, %1, %2;")               \
  X(i32, mul_hi_s32,            R32, R32, R32, NO, NO, "mul.hi.s32 %0, %1, %2;")               \
  X(i32, mul_wide_s32,          R64, R32, R32, NO, NO, "mul.wide.s32 %0, %1, %2;")             \
  X(i32, mul24_lo_s32,          R32, R32, R32, NO, NO, "mul24.lo.s32 %0, %1, %2;")             \
  X(i32, mul24_hi_u32,          R32, R32, R32, NO, NO, "mul24.hi.u32 %0, %1, %2;")             \
  X(i32, mul24_hi_s32,          R32, R32, R32, NO, NO, "mul24.hi.s32 %0, %1, %2;")             \
  X(i32, div_u32,               R32, R32, R32, NO, NO, "div.u32 %0, %1, %2;")                  \
  X(i32, div_s32,               R32, R32, R32, NO, NO, "div.s32 %0, %1, %2;")                  \
  X(i32, rem_u32,               R32, R32, R32, NO, NO, "rem.u32 %0, %1, %2;")                  \
  X(i32, rem_s32,               R32, R32, R32, NO, NO, "rem.s32 %0, %1, %2;")                  \
  X(i32, add_sat_s32,           R32, R32, R32, NO, NO, "add.sat.s32 %0, %1, %2;")              \
  X(i32, sub_sat_s32,           R32, R32, R32, NO, NO, "sub.sat.s32 %0, %1, %2;")              \
  X(i32, min_s32,               R32, R32, R32, NO, NO, "min.s32 %0, %1, %2;")                  \
  X(i32, max_relu_s32,          R32, R32, R32, NO, NO, "max.relu.s32 %0, %1, %2;")             \
  X(i32, bmsk_clamp_b32,        R32, R32, R32, NO, NO, "bmsk.clamp.b32 %0, %1, %2;")           \
  X(i32, bmsk_wrap_b32,         R32, R32, R32, NO, NO, "bmsk.wrap.b32 %0, %1, %2;")            \
  X(i32, szext_clamp_s32,       R32, R32, R32, NO, NO, "szext.clamp.s32 %0, %1, %2;")          \
  X(i32, szext_wrap_u32,        R32, R32, R32, NO, NO, "szext.wrap.u32 %0, %1, %2;")           \
  X(i32, add_cc_addc,           R32, R32, R32, NO, NO,                                        \
    "{ .reg .b32 t; add.cc.u32 t, %1, %2; addc.cc.u32 t, %2, %1; addc.u32 %0, 0, 0; "           \
    "xor.b32 %0, %0, t; }")                                                                     \
  X(i32, sub_cc_subc,           R32, R32, R32, NO, NO,                                        \
    "{ .reg .b32 t; sub.cc.u32 t, %1, %2; subc.cc.u32 t, %2, %1; subc.u32 %0, 0, 0; "           \
    "xor.b32 %0, %0, t; }")                                                                     \
  X(i32, bfe_u32,               R32, R32, R32, R32, NO, "bfe.u32 %0, %1, %2, %3;")             \
  X(i32, bfe_s32,               R32, R32, R32, R32, NO, "bfe.s32 %0, %1, %2, %3;")             \
  X(i32, prmt_b32,              R32, R32, R32, R32, NO, "prmt.b32 %0, %1, %2, %3;")            \
  X(i32, prmt_f4e_b32,          R32, R32, R32, R32, NO, "prmt.b32.f4e %0, %1, %2, %3;")        \
  X(i32, prmt_b4e_b32,          R32, R32, R32, R32, NO, "prmt.b32.b4e %0, %1, %2, %3;")        \
  X(i32, prmt_ecl_b32,          R32, R32, R32, R32, NO, "prmt.b32.ecl %0, %1, %2, %3;")        \
  X(i32, prmt_rc16_b32,         R32, R32, R32, R32, NO, "prmt.b32.rc16 %0, %1, %2, %3;")       \
  X(i32, shf_l_wrap_b32,        R32, R32, R32, R32, NO, "shf.l.wrap.b32 %0, %1, %2, %3;")      \
  X(i32, shf_l_clamp_b32,       R32, R32, R32, R32, NO, "shf.l.clamp.b32 %0, %1, %2, %3;")     \
  X(i32, shf_r_wrap_b32,        R32, R32, R32, R32, NO, "shf.r.wrap.b32 %0, %1, %2, %3;")      \
  X(i32, shf_r_clamp_b32,       R32, R32, R32, R32, NO, "shf.r.clamp.b32 %0, %1, %2, %3;")     \
  X(i32, lop3_b32,              R32, R32, R32, R32, NO, "lop3.b32 %0, %1, %2, %3, 0x96;")      \
  X(i32, mad_hi_u32,            R32, R32, R32, R32, NO, "mad.hi.u32 %0, %1, %2, %3;")          \
  X(i32, mad_hi_sat_s32,        R32, R32, R32, R32, NO, "mad.hi.sat.s32 %0, %1, %2, %3;")      \
  X(i32, mad24_hi_s32,          R32, R32, R32, R32, NO, "mad24.hi.s32 %0, %1, %2, %3;")        \
  X(i32, sad_u32,               R32, R32, R32, R32, NO, "sad.u32 %0, %1, %2, %3;")             \
  X(i32, sad_s32,               R32, R32, R32, R32, NO, "sad.s32 %0, %1, %2, %3;")             \
  X(i32, dp4a_u32_u32,          R32, R32, R32, R32, NO, "dp4a.u32.u32 %0, %1, %2, %3;")        \
  X(i32, dp4a_s32_u32,          R32, R32, R32, R32, NO, "dp4a.s32.u32 %0, %1, %2, %3;")        \
  X(i32, dp2a_hi_s32_s32,       R32, R32, R32, R32, NO, "dp2a.hi.s32.s32 %0, %1, %2, %3;")     \
  X(i32, fns_b32,               R32, R32, R32, R32, NO, "fns.b32 %0, %1, %2, %3;")             \
  X(i32, madc_chain,            R32, R32, R32, R32, NO,                                        \
    "{ .reg .b32 t; mad.lo.cc.u32 t, %1, %2, %3; madc.hi.cc.u32 t, %1, %2, t; "                 \
    "madc.lo.u32 %0, %3, %2, t; }")                                                             \
  X(i32, bfi_b32,               R32, R32, R32, R32, R32, "bfi.b32 %0, %1, %2, %3, %4;")        \
  /* --- video instructions (SIMD and scalar, byte and half selectors) -------------------- */   \
  X(i32, vadd4_u32,             R32, R32, R32, R32, NO, "vadd4.u32.u32.u32 %0, %1, %2, %3;")   \
  X(i32, vadd4_s32_sat,         R32, R32, R32, R32, NO, "vadd4.s32.s32.s32.sat %0, %1, %2, %3;")\
  X(i32, vadd4_add,             R32, R32, R32, R32, NO, "vadd4.u32.s32.u32.add %0, %1, %2, %3;")\
  X(i32, vsub4_s32_sat,         R32, R32, R32, R32, NO, "vsub4.s32.u32.s32.sat %0, %1, %2, %3;")\
  X(i32, vabsdiff4_u32,         R32, R32, R32, R32, NO, "vabsdiff4.u32.u32.u32 %0, %1, %2, %3;")\
  X(i32, vabsdiff4_add,         R32, R32, R32, R32, NO,                                        \
    "vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;")                                                \
  X(i32, vabsdiff4_s32_sat,     R32, R32, R32, R32, NO,                                        \
    "vabsdiff4.s32.s32.s32.sat %0, %1, %2, %3;")                                                \
  X(i32, vmin4_s32,             R32, R32, R32, R32, NO, "vmin4.s32.s32.s32 %0, %1, %2, %3;")   \
  X(i32, vmax4_u32_add,         R32, R32, R32, R32, NO, "vmax4.u32.u32.u32.add %0, %1, %2, %3;")\
  X(i32, vavrg4_u32,            R32, R32, R32, R32, NO, "vavrg4.u32.u32.u32 %0, %1, %2, %3;")  \
  X(i32, vavrg4_s32_add,        R32, R32, R32, R32, NO, "vavrg4.s32.s32.s32.add %0, %1, %2, %3;")\
  X(i32, vset4_lt,              R32, R32, R32, R32, NO, "vset4.u32.u32.lt %0, %1, %2, %3;")    \
  X(i32, vset4_s_ge_add,        R32, R32, R32, R32, NO, "vset4.s32.s32.ge.add %0, %1, %2, %3;")\
  X(i32, vadd2_u32,             R32, R32, R32, R32, NO, "vadd2.u32.u32.u32 %0, %1, %2, %3;")   \
  X(i32, vadd2_s32_sat,         R32, R32, R32, R32, NO, "vadd2.s32.s32.s32.sat %0, %1, %2, %3;")\
  X(i32, vsub2_u32_add,         R32, R32, R32, R32, NO, "vsub2.u32.u32.u32.add %0, %1, %2, %3;")\
  X(i32, vabsdiff2_s32,         R32, R32, R32, R32, NO, "vabsdiff2.s32.s32.s32 %0, %1, %2, %3;")\
  X(i32, vmin2_u32_add,         R32, R32, R32, R32, NO, "vmin2.u32.u32.u32.add %0, %1, %2, %3;")\
  X(i32, vmax2_s32,             R32, R32, R32, R32, NO, "vmax2.s32.u32.s32 %0, %1, %2, %3;")   \
  X(i32, vavrg2_u32,            R32, R32, R32, R32, NO, "vavrg2.u32.u32.u32 %0, %1, %2, %3;")  \
  X(i32, vset2_ne,              R32, R32, R32, R32, NO, "vset2.s32.s32.ne %0, %1, %2, %3;")    \
  X(i32, vset2_gt_add,          R32, R32, R32, R32, NO, "vset2.u32.u32.gt.add %0, %1, %2, %3;")\
  X(i32, vadd_sel,              R32, R32, R32, R32, NO,                                        \
    "vadd.s32.u32.s32.sat %0, %1.b2, %2.h1, %3;")                                               \
  X(i32, vadd_add,              R32, R32, R32, R32, NO, "vadd.u32.u32.u32.add %0, %1, %2, %3;")\
  X(i32, vsub_min,              R32, R32, R32, R32, NO, "vsub.s32.s32.s32.min %0, %1.b1, %2, %3;")\
  X(i32, vabsdiff_max,          R32, R32, R32, R32, NO,                                        \
    "vabsdiff.u32.s32.s32.sat.max %0, %1.h0, %2.b3, %3;")                                       \
  X(i32, vmin_sel,              R32, R32, R32, R32, NO, "vmin.s32.s32.s32 %0, %1.h1, %2.b0, %3;")\
  X(i32, vmax_add,              R32, R32, R32, R32, NO, "vmax.u32.u32.s32.add %0, %1, %2, %3;")\
  X(i32, vshl_clamp,            R32, R32, R32, R32, NO, "vshl.u32.u32.u32.clamp %0, %1, %2, %3;")\
  X(i32, vshr_wrap_add,         R32, R32, R32, R32, NO,                                        \
    "vshr.s32.s32.u32.wrap.add %0, %1, %2, %3;")                                                \
  X(i32, vset_lt,               R32, R32, R32, R32, NO, "vset.u32.u32.lt %0, %1.b1, %2.b2, %3;")\
  X(i32, vset_s_le_add,         R32, R32, R32, R32, NO, "vset.s32.s32.le.add %0, %1, %2, %3;")  \
  X(i32, vadd_merge_sat,        R32, R32, R32, R32, NO,                                        \
    "{ .reg .b32 t; mov.b32 t, %3; vadd.u32.u32.s32.sat t.b1, %1.b3, %2.h0, t; mov.b32 %0, t; }")\
  X(i32, vset_merge_h1,         R32, R32, R32, R32, NO,                                        \
    "{ .reg .b32 t; mov.b32 t, %3; vset.s32.u32.gt t.h1, %1, %2.b2, t; mov.b32 %0, t; }")     \
  X(i32, vmad_u32,              R32, R32, R32, R32, NO, "vmad.u32.u32.u32 %0, %1.h0, %2.h1, %3;")\
  X(i32, vmad_s32_shr15,        R32, R32, R32, R32, NO,                                        \
    "vmad.s32.s32.s32.sat.shr15 %0, %1.h1, %2.h0, %3;")                                         \
  X(i32, vmad_s32_u32,          R32, R32, R32, R32, NO, "vmad.s32.s32.u32 %0, %1.b0, %2.b3, %3;")\
  /* --- 64-bit integers --------------------------------------------------------------------- */\
  X(i64, popc_b64,              R32, R64, NO, NO, NO, "popc.b64 %0, %1;")                      \
  X(i64, clz_b64,               R32, R64, NO, NO, NO, "clz.b64 %0, %1;")                       \
  X(i64, brev_b64,              R64, R64, NO, NO, NO, "brev.b64 %0, %1;")                      \
  X(i64, bfind_s64,             R32, R64, NO, NO, NO, "bfind.s64 %0, %1;")                     \
  X(i64, bfind_shiftamt_u64,    R32, R64, NO, NO, NO, "bfind.shiftamt.u64 %0, %1;")            \
  X(i64, cvt_rn_f32_s64,        R32, R64, NO, NO, NO, "cvt.rn.f32.s64 %0, %1;")                \
  X(i64, cvt_rz_f32_u64,        R32, R64, NO, NO, NO, "cvt.rz.f32.u64 %0, %1;")                \
  X(i64, cvt_rn_f64_s64,        R64, R64, NO, NO, NO, "cvt.rn.f64.s64 %0, %1;")                \
  X(i64, cvt_rm_f64_u64,        R64, R64, NO, NO, NO, "cvt.rm.f64.u64 %0, %1;")                \
  X(i64, cvt_sat_s32_s64,       R32, R64, NO, NO, NO, "cvt.sat.s32.s64 %0, %1;")               \
  X(i64, shl_b64,               R64, R64, R32, NO, NO, "shl.b64 %0, %1, %2;")                  \
  X(i64, shr_u64,               R64, R64, R32, NO, NO, "shr.u64 %0, %1, %2;")                  \
  X(i64, shr_s64,               R64, R64, R32, NO, NO, "shr.s64 %0, %1, %2;")                  \
  X(i64, mul_hi_u64,            R64, R64, R64, NO, NO, "mul.hi.u64 %0, %1, %2;")               \
  X(i64, mul_hi_s64,            R64, R64, R64, NO, NO, "mul.hi.s64 %0, %1, %2;")               \
  X(i64, div_s64,               R64, R64, R64, NO, NO, "div.s64 %0, %1, %2;")                  \
  X(i64, rem_u64,               R64, R64, R64, NO, NO, "rem.u64 %0, %1, %2;")                  \
  X(i64, min_s64,               R64, R64, R64, NO, NO, "min.s64 %0, %1, %2;")                  \
  X(i64, bfe_u64,               R64, R64, R32, R32, NO, "bfe.u64 %0, %1, %2, %3;")             \
  X(i64, bfe_s64,               R64, R64, R32, R32, NO, "bfe.s64 %0, %1, %2, %3;")             \
  X(i64, mad_lo_u64,            R64, R64, R64, R64, NO, "mad.lo.u64 %0, %1, %2, %3;")          \
  X(i64, bfi_b64,               R64, R64, R64, R32, R32, "bfi.b64 %0, %1, %2, %3, %4;")
// clang-format on
