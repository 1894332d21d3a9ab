#!/usr/bin/env python3
"""A Triton kernel (Triton's own ptxas makes a cubin, loaded with cuModuleLoadData, launched with
cuLaunchKernel). Ocelot lists its launches (SASS only) unless TRITON_PTXAS_PATH points at
ptxas_keep_ptx.sh, which hands Triton the PTX instead of the cubin so that Ocelot can instrument
it. Prints a checksum that must not change. Exit 77 when Triton, PyTorch or a GPU is missing."""
import sys

try:
    import torch
    import triton
    import triton.language as tl
except ImportError as e:
    print("SKIP: no Triton/PyTorch (%s)" % e)
    sys.exit(77)


@triton.jit
def scale_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, 2.0 * x + y, mask=mask)


def main():
    if not torch.cuda.is_available():
        print("SKIP: PyTorch sees no GPU")
        return 77
    n = 10000
    x = torch.arange(n, dtype=torch.float32, device="cuda")
    y = torch.ones(n, dtype=torch.float32, device="cuda")
    out = torch.empty_like(x)
    scale_add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    torch.cuda.synchronize()
    total = float(out.double().sum())
    expected = float(sum(2.0 * i + 1.0 for i in range(n)))
    print("triton scale_add sum %.1f expected %.1f" % (total, expected))
    print("PASS" if total == expected else "FAIL")
    return 0 if total == expected else 1


if __name__ == "__main__":
    sys.exit(main())
