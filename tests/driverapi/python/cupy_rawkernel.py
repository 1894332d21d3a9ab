#!/usr/bin/env python3
"""A CuPy RawKernel (NVRTC, cuModuleLoadData, cuLaunchKernel) with analytic block counts.

CuPy compiles with NVRTC and, by default, asks it for a cubin (SASS: Ocelot lists its launches
but cannot instrument them); with CUPY_COMPILE_WITH_PTX=1 it loads PTX, which Ocelot instruments.
Exit 77 when CuPy or a GPU is missing.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analytic  # noqa: E402

try:
    import cupy
except ImportError as e:
    print("SKIP: no CuPy (%s)" % e)
    sys.exit(77)


def main():
    kernel = cupy.RawKernel(analytic.CUDA_SOURCE, "counted_loop")
    values = cupy.zeros(analytic.THREADS, dtype=cupy.uint32)
    runs = cupy.zeros(analytic.THREADS, dtype=cupy.int32)
    print("cupy_rawkernel: grid (%d,1,1) block (%d,1,1)" % (analytic.BLOCKS, analytic.THREADS_PER_BLOCK))
    ok = True
    for launch, trips in enumerate(analytic.TRIPS, start=1):
        kernel((analytic.BLOCKS,), (analytic.THREADS_PER_BLOCK,), (values, runs, cupy.int32(trips)))
        cupy.cuda.Device().synchronize()
        ok = analytic.report("cupy_rawkernel", launch, trips, values.get(), runs.get()) and ok
    # An ElementwiseKernel too (CuPy's generated code, also through NVRTC), and CuPy's reduction.
    # In float64 the sum is exact (in float32 it rounds to 332834496 on NVIDIA's runtime too).
    square = cupy.ElementwiseKernel("float64 x", "float64 y", "y = x * x + 1", "ocelot_square")
    total = float(square(cupy.arange(1000, dtype=cupy.float64)).sum())
    print("elementwise sum %.1f" % total)
    ok = ok and total == float(sum(i * i + 1 for i in range(1000)))
    return analytic.finish(ok)


if __name__ == "__main__":
    sys.exit(main())
