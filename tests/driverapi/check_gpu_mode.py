#!/usr/bin/env python3
"""Ocelot's libcuda.so.1 in GPU mode, without a GPU: NVIDIA's driver is the stand-in of
tests/runtime/fakedriver (OCELOT_REAL_LIBCUDA), which logs what reaches it and runs no kernel.

    check_gpu_mode.py --ocelot OCELOT --program driverapi_nvrtc --fake-driver libcuda.so.1

Under `ocelot run --device gpu` the NVRTC program's PTX must reach the driver as Ocelot's module
(through Runtime::moduleLoad) and its three cuLaunchKernel calls as launches of counted_loop; under
`-i bbcount` an instrumented module (with Ocelot's hidden parameter) must be loaded too and the
launches must still reach the driver. The program's own results are wrong here (no kernel runs);
only the driver's log is checked."""
import argparse
import os
import subprocess
import sys
import tempfile


def run(args, instrumentors):
    log = tempfile.mkdtemp(prefix="ocelot-fake-driver-")
    env = dict(os.environ, OCELOT_REAL_LIBCUDA=args.fake_driver, OCELOT_FAKE_DRIVER_LOG=log)
    command = [args.ocelot, "run", "--device", "gpu", "--summary", "off"] + instrumentors + \
        ["--", args.program]
    subprocess.run(command, env=env, capture_output=True, timeout=120)
    lines = open(os.path.join(log, "driver.log")).read().splitlines() if \
        os.path.exists(os.path.join(log, "driver.log")) else []
    texts = [open(os.path.join(log, f)).read() for f in sorted(os.listdir(log)) if f.endswith(".ptx")]
    return lines, texts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ocelot", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--fake-driver", required=True)
    args = parser.parse_args()
    problems = []

    lines, texts = run(args, [])
    launches = [l for l in lines if l.startswith("launch counted_loop grid 4 block 128")]
    if len(launches) != 3:
        problems.append("plain: %d launches of counted_loop reached the driver, not 3: %s" % (len(launches), lines))
    if not any(".entry counted_loop" in t for t in texts):
        problems.append("plain: no module with counted_loop reached the driver")

    lines, texts = run(args, ["-i", "bbcount"])
    launches = [l for l in lines if l.startswith("launch counted_loop grid 4 block 128")]
    if len(launches) != 3:
        problems.append("bbcount: %d launches of counted_loop reached the driver, not 3: %s" % (len(launches), lines))
    if not any("__ocelot_instrumentation" in t and ".entry counted_loop" in t for t in texts):
        problems.append("bbcount: no instrumented module reached the driver (modules: %d)" % len(texts))

    if problems:
        print("FAIL:\n  " + "\n  ".join(problems))
        return 1
    print("PASS: the shim routes module loads and launches through Ocelot to the driver, instrumented "
          "under bbcount")
    return 0


if __name__ == "__main__":
    sys.exit(main())
