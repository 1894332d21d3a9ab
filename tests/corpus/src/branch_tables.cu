// Multi-way branches: brx.idx through a `.branchtargets` list (never emitted by nvcc itself,
// but legal PTX that hand-written code uses), an indirect call restricted by `.calltargets`,
// dense and sparse C++ switch statements, and a goto-based state machine.
#include <cstdint>

__global__ void jumpTable(const uint32_t* selectors, int* out) {
  uint32_t sel = selectors[threadIdx.x] & 3;
  int r;
  asm volatile("{\n\t"
               ".reg .b32 idx;\n\t"
               "mov.u32 idx, %1;\n"
               "targets: .branchtargets CASE0, CASE1, CASE2, CASE3;\n\t"
               "brx.idx idx, targets;\n"
               "CASE0:\n\t"
               "mov.s32 %0, 100;\n\t"
               "bra.uni END;\n"
               "CASE1:\n\t"
               "mov.s32 %0, 201;\n\t"
               "bra.uni END;\n"
               "CASE2:\n\t"
               "mov.s32 %0, 302;\n\t"
               "bra.uni END;\n"
               "CASE3:\n\t"
               "mov.s32 %0, 403;\n"
               "END:\n\t"
               "}"
               : "=r"(r)
               : "r"(sel));
  // A second table in the same kernel reuses the label names in its own scope, with a
  // uniform branch and a guard.
  int s;
  asm volatile("{\n\t"
               ".reg .pred inRange;\n\t"
               "mov.s32 %0, -1;\n\t"
               "setp.lt.u32 inRange, %1, 2;\n\t"
               "@!inRange bra END;\n"
               "targets: .branchtargets CASE0, CASE1;\n\t"
               "@inRange brx.idx.uni %1, targets;\n"
               "CASE0:\n\t"
               "mov.s32 %0, 7;\n\t"
               "bra.uni END;\n"
               "CASE1:\n\t"
               "mov.s32 %0, 8;\n"
               "END:\n\t"
               "}"
               : "=r"(s)
               : "r"(sel));
  out[threadIdx.x] = r + s;
}

extern "C" __device__ __noinline__ int stepSmall(int x) {
  return x + 1;
}
extern "C" __device__ __noinline__ int stepLarge(int x) {
  return x * 2;
}

// An indirect call whose possible targets are listed with .calltargets.
__global__ void restrictedIndirectCall(const int* in, int* out) {
  int x = in[threadIdx.x];
  int (*fn)(int) = (x & 1) ? stepLarge : stepSmall;
  int r;
  asm volatile("{\n\t"
               ".reg .b32 result;\n\t"
               "allowed: .calltargets stepSmall, stepLarge;\n\t"
               "{\n\t"
               ".param .b32 arg0;\n\t"
               ".param .b32 ret0;\n\t"
               "st.param.b32 [arg0], %1;\n\t"
               "call (ret0), %2, (arg0), allowed;\n\t"
               "ld.param.b32 result, [ret0];\n\t"
               "}\n\t"
               "mov.b32 %0, result;\n\t"
               "}"
               : "=r"(r)
               : "r"(x), "l"(fn)
               : "memory");
  out[threadIdx.x] = r;
}

__device__ __noinline__ float denseSwitch(int op, float a, float b) {
  switch (op) {
  case 0:
    return a + b;
  case 1:
    return a - b;
  case 2:
    return a * b;
  case 3:
    return a / b;
  case 4:
    return fminf(a, b);
  case 5:
    return fmaxf(a, b);
  case 6:
    return sqrtf(fabsf(a));
  case 7:
    return a * a + b;
  case 8:
    return -a;
  case 9:
    return b;
  case 10:
    return a * 0.5f;
  case 11:
    return floorf(a + b);
  default:
    return 0.0f;
  }
}

__device__ __noinline__ int sparseSwitch(int key) {
  switch (key) {
  case 1:
    return 10;
  case 17:
    return 20;
  case 255:
    return 30;
  case 1024:
    return 40;
  case 65537:
    return 50;
  case -3:
    return 60;
  default:
    return key;
  }
}

__global__ void interpreter(const int* program, const float* values, float* out, int length) {
  float acc = values[threadIdx.x];
  for (int pc = 0; pc < length; ++pc)
    acc = denseSwitch(program[pc], acc, values[(threadIdx.x + pc) % 32]);
  out[threadIdx.x] = acc + static_cast<float>(sparseSwitch(program[threadIdx.x % length]));
}

// A goto-based state machine gives unstructured, irreducible-looking control flow.
__global__ void stateMachine(const char* input, int n, int* tokens) {
  int i = 0, count = 0;
start:
  if (i >= n)
    goto done;
  if (input[i] == ' ')
    goto skip;
  goto word;
skip:
  ++i;
  goto start;
word:
  ++count;
  while (i < n && input[i] != ' ')
    ++i;
  if (count > 1000)
    goto done;
  goto start;
done:
  tokens[threadIdx.x] = count;
}
