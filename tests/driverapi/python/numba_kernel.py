#!/usr/bin/env python3
"""A Numba-CUDA kernel with analytic block counts: NVVM's LTO-IR, linked by nvJitLink through
cuda.core (Numba-CUDA 0.30; older versions: PTX through cuLinkAddData + cuLinkComplete), loaded with
cuLibraryLoadData and launched with cuLaunchKernelEx. Exit 77 when Numba or a GPU is missing."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analytic  # noqa: E402

try:
    import numpy as np

    # The GPU machine's Numba-CUDA still names np.row_stack, which its NumPy no longer has (it
    # fails the same way without Ocelot); the alias is what NumPy deprecated it for.
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
    from numba import cuda, uint32
except ImportError as e:
    print("SKIP: no Numba-CUDA (%s)" % e)
    sys.exit(77)


@cuda.jit
def counted_loop(values, body_runs, limit):
    # The trip count is read from memory on every iteration and the body stores through `values`,
    # which may alias it: LLVM cannot compute the trip count, so it does not unroll the loop (since
    # NVVM's LTO-IR is optimized, an unrolled loop would split the body over several blocks and
    # the analytic BODY count would be no single block's).
    tid = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    acc = uint32(tid)
    runs = 0
    i = 0
    while i < limit[0]:
        acc = uint32(acc * uint32(2654435761) + uint32(i))
        values[tid] = acc
        runs += 1
        i += 1
    values[tid] = acc
    body_runs[tid] = runs


def main():
    if not cuda.is_available():
        print("SKIP: Numba sees no GPU")
        return 77
    values = cuda.to_device(np.zeros(analytic.THREADS, dtype=np.uint32))
    runs = cuda.to_device(np.zeros(analytic.THREADS, dtype=np.int32))
    print("numba_kernel: grid (%d,1,1) block (%d,1,1)" % (analytic.BLOCKS, analytic.THREADS_PER_BLOCK))
    ok = True
    for launch, trips in enumerate(analytic.TRIPS, start=1):
        limit = cuda.to_device(np.array([trips], dtype=np.int32))
        counted_loop[analytic.BLOCKS, analytic.THREADS_PER_BLOCK](values, runs, limit)
        cuda.synchronize()
        ok = analytic.report("numba_kernel", launch, trips, values.copy_to_host(),
                             runs.copy_to_host()) and ok
    return analytic.finish(ok)


if __name__ == "__main__":
    sys.exit(main())
