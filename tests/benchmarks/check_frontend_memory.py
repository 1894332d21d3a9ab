#!/usr/bin/env python3
"""The front end's memory bound of issue 18 (item 6) as a test: `ocelot ptx parse` and `ocelot ptx
instrument -i bbcount` on generated nvcc-like PTX (tests/support/GeneratedPtx.h) must each peak at
no more than 8 bytes of resident memory per byte of PTX, the whole process counted (input, IR,
output). memory_bench.sh measures the same at 20 and 200 MB for docs/performance.md; this keeps
the bar from sliding back. Memory, not time: the numbers do not depend on the machine's load.

    check_frontend_memory.py --ocelot O --generate G [--megabytes 40] [--bar 8]
"""
import argparse
import os
import subprocess
import sys
import tempfile


def peak_kb(command):
    """Runs `command` with its output discarded; its exit status and peak resident set in KB."""
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(command, stdout=null, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        error = child.stderr.read().decode(errors="replace")
        child.stderr.close()
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss, error


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ocelot", required=True)
    parser.add_argument("--generate", required=True, help="ocelot_generate_ptx")
    parser.add_argument("--megabytes", type=int, default=40)
    parser.add_argument("--bar", type=float, default=8.0, help="bytes per byte of PTX")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        ptx = os.path.join(work, "nvcc-like.ptx")
        subprocess.run([args.generate, "nvcc-like", str(args.megabytes * 1000000), ptx],
                       check=True)
        size = os.path.getsize(ptx)
        failed = False
        for name, command in (("parse", [args.ocelot, "ptx", "parse", ptx]),
                              ("instrument -i bbcount",
                               [args.ocelot, "ptx", "instrument", "-i", "bbcount", ptx, "-o",
                                os.devnull])):
            status, kb, error = peak_kb(command)
            if status != 0:
                print("FAIL: ocelot ptx %s exited %d: %s" % (name, status, error[-1000:]))
                return 1
            ratio = kb * 1024.0 / size
            print("ocelot ptx %s: %.0f MB peak for %.1f MB of PTX, %.2f bytes per byte (bar %.1f)"
                  % (name, kb / 1024.0, size / 1e6, ratio, args.bar))
            if ratio > args.bar:
                print("FAIL: ocelot ptx %s takes more than %.1f bytes per byte of PTX" %
                      (name, args.bar))
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
