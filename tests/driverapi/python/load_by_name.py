#!/usr/bin/env python3
"""Under `ocelot run`, the driver library opened as "libcuda.so" (Numba's first choice) and as
"libcuda.so.1" is the one Ocelot shim: it exports ocelot_driver_shim_real_driver, and both names
give the same cuInit. Numba ran around Ocelot on an H200 because only libcuda.so.1 was there."""
import ctypes
import sys


def main():
    by_dev_name = ctypes.CDLL("libcuda.so")
    by_soname = ctypes.CDLL("libcuda.so.1")
    for name, library in (("libcuda.so", by_dev_name), ("libcuda.so.1", by_soname)):
        if not hasattr(library, "ocelot_driver_shim_real_driver"):
            print("FAIL: %s is not Ocelot's libcuda.so.1" % name)
            return 1
    a = ctypes.cast(by_dev_name.cuInit, ctypes.c_void_p).value
    b = ctypes.cast(by_soname.cuInit, ctypes.c_void_p).value
    if a != b:
        print("FAIL: libcuda.so and libcuda.so.1 are two copies of the shim (cuInit %#x, %#x)" % (a, b))
        return 1
    print("PASS: libcuda.so and libcuda.so.1 are Ocelot's one shim")
    return 0


if __name__ == "__main__":
    sys.exit(main())
