#!/usr/bin/env python3
"""The `ocelot` Python module (tools/python/ocelot.py) on a module loaded through the driver API.

    ocelot run -- python3 online_api.py KERNELS.ptx      (PYTHONPATH holding tools/python)

Loads tests/driverapi/kernels.ptx with cuModuleLoadData through ctypes (no framework needed),
then: bbcount added from Python, three launches of scale_add each deliver an instrumented profile
to the Python callback, the instrumentor removed, a fourth launch delivers none; the results are
right throughout. Prints PASS or FAIL lines; exit 0 on success."""
import ctypes
import struct
import sys
import threading

import ocelot


def check(result, what):
    if result != 0:
        raise RuntimeError("%s failed with CUresult %d" % (what, result))


def main():
    ptx = open(sys.argv[1], "rb").read() + b"\0"
    cuda = ctypes.CDLL("libcuda.so.1")
    check(cuda.cuInit(0), "cuInit")
    device = ctypes.c_int()
    check(cuda.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
    context = ctypes.c_void_p()
    check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device), "cuDevicePrimaryCtxRetain")
    check(cuda.cuCtxSetCurrent(context), "cuCtxSetCurrent")
    module = ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(ptx)), "cuModuleLoadData")
    function = ctypes.c_void_p()
    check(cuda.cuModuleGetFunction(ctypes.byref(function), module, b"scale_add"), "cuModuleGetFunction")

    n = 256
    source = struct.pack("%df" % n, *[float(i) for i in range(n)])
    d_in, d_out = ctypes.c_uint64(), ctypes.c_uint64()
    check(cuda.cuMemAlloc_v2(ctypes.byref(d_in), ctypes.c_size_t(4 * n)), "cuMemAlloc")
    check(cuda.cuMemAlloc_v2(ctypes.byref(d_out), ctypes.c_size_t(4 * n)), "cuMemAlloc")
    check(cuda.cuMemcpyHtoD_v2(d_in, source, ctypes.c_size_t(4 * n)), "cuMemcpyHtoD")

    profiles = []
    lock = threading.Lock()

    def on_profile(profile):
        with lock:
            profiles.append(profile)

    subscription = ocelot.subscribe(on_profile)
    handle = ocelot.add_instrumentor("bbcount")
    ok = ocelot.active_instrumentors() and ocelot.active_instrumentors()[0].startswith("bbcount")

    def launch(scale):
        s, o, count = ctypes.c_float(scale), ctypes.c_float(1.0), ctypes.c_uint32(n)
        args = (ctypes.c_void_p * 5)(ctypes.cast(ctypes.byref(d_out), ctypes.c_void_p),
                                     ctypes.cast(ctypes.byref(d_in), ctypes.c_void_p),
                                     ctypes.cast(ctypes.byref(s), ctypes.c_void_p),
                                     ctypes.cast(ctypes.byref(o), ctypes.c_void_p),
                                     ctypes.cast(ctypes.byref(count), ctypes.c_void_p))
        check(cuda.cuLaunchKernel(function, 4, 1, 1, 64, 1, 1, 0, None, args, None), "cuLaunchKernel")
        out = ctypes.create_string_buffer(4 * n)
        check(cuda.cuMemcpyDtoH_v2(out, d_out, ctypes.c_size_t(4 * n)), "cuMemcpyDtoH")
        values = struct.unpack("%df" % n, out.raw)
        return all(values[i] == scale * i + 1.0 for i in range(n))

    for scale in (1.0, 2.0, 3.0):
        ok = launch(scale) and ok
    ocelot.flush_profiles()
    ok = ocelot.remove_instrumentor(handle) and ok
    ok = not ocelot.remove_instrumentor(handle) and ok
    ok = launch(4.0) and ok
    ocelot.flush_profiles()
    ocelot.unsubscribe(subscription)

    with lock:
        kernels = [(p.get("kernel"), p.get("execution")) for p in profiles]
    print("profiles: %s" % kernels)
    ok = ok and kernels == [("scale_add", "instrumented")] * 3
    try:
        ocelot.add_instrumentor("no-such-instrumentor")
        ok = False
    except ocelot.OcelotError as e:
        print("unknown instrumentor refused: %s" % str(e).split(":")[0])
    check(cuda.cuModuleUnload(module), "cuModuleUnload")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
