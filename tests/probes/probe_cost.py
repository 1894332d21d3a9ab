#!/usr/bin/env python3
"""What the probe tools cost, measured on the CPU device (no GPU needed): the instrumentation
benchmark's kernels run plain and under each tool with the CPU device's trace on
(OCELOT_CPU_TRACE_OUTPUT), which gives every launch's warp-level instructions issued, its
`atom`/`red` and its `match` instructions executed (runtime/cpu/BlockCountTracer.h). Prints, per
tool and kernel, the instrumented kernel's warp instructions over the plain kernel's, its atomics
and its matches (ratio/atomics/matches), and the geometric mean of the ratio over the kernels.
A proxy for the GPU slowdown, not a time: it counts what runs, not what it costs on a GPU (an
atomic in a hot loop, or a match, costs far more there than an add).

  tests/probes/probe_cost.py --build BUILD [--tools memaccess,branchdiv,...] [--tsv FILE]
                             [--bench-args "--small --reps 1 --warmup 1"] [--kernels REGEX]
                             [--bench BINARY]

Tools are the shipped ones (BUILD/probe-tools/libocelot-NAME.so) or paths; `NAME:key=value`
passes options (e.g. `branchdiv:loop-registers=off`).
"""

import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile

BUILTIN = ["plain", "bbcount", "bbcount-thread", "ctaclock"]


def tool_argument(build, item):
    name, _, options = item.partition(":")
    path = name if "/" in name else os.path.join(build, "probe-tools", f"libocelot-{name}.so")
    label = os.path.basename(name)[len("libocelot-"):-3] if "/" in name else name
    return path + (":" + options if options else ""), label + (":" + options if options else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--tools", default="branchdiv,memaccess,instmix,warpeff,memtrace")
    parser.add_argument("--bench-args", default="--small --reps 1 --warmup 1")
    parser.add_argument("--kernels", default="")
    parser.add_argument("--bench", help="the benchmark's binary (default: BUILD's, whose PTX "
                        "targets nvcc's default architecture; build it with -arch=sm_90 to see "
                        "what sm_80+ placements do, e.g. block counts in registers)")
    parser.add_argument("--tsv")
    args = parser.parse_args()

    args.build = os.path.abspath(args.build)
    bench = args.bench or os.path.join(args.build,
                                       "tests/benchmarks/instrumentation/instrumentation_bench")
    items = [tool_argument(args.build, t) for t in args.tools.split(",") if t]
    configs = BUILTIN + [label for _, label in items] + ["plain"]
    bench_args = shlex.split(args.bench_args)
    launches = 0
    for flag, default in (("--reps", 1), ("--warmup", 1)):
        launches += int(bench_args[bench_args.index(flag) + 1]) if flag in bench_args else default

    with tempfile.TemporaryDirectory() as work:
        trace = os.path.join(work, "trace.jsonl")
        env = dict(os.environ, OCELOT_DEVICE="cpu", OCELOT_CPU_TRACE_OUTPUT=trace,
                   OCELOT_CPU_DETERMINISTIC="1",
                   LD_LIBRARY_PATH=os.path.join(args.build, "runtime") + ":" +
                   os.environ.get("LD_LIBRARY_PATH", ""))
        command = [bench] + bench_args + ["--tools", ",".join(p for p, _ in items)]
        if args.kernels:
            command += ["--kernels", args.kernels]
        run = subprocess.run(command, env=env, cwd=work, capture_output=True, text=True)
        if run.returncode != 0:
            sys.stdout.write(run.stdout[-4000:])
            sys.stderr.write(run.stderr[-4000:])
            print(f"FAIL: the benchmark exited with {run.returncode}")
            return 1
        with open(trace) as f:
            records = [json.loads(line) for line in f if line.strip()]

    # Per kernel, its launches in order: (warmup + reps) per configuration, in `configs` order
    # (the benchmark's; setup kernels run with other names).
    by_kernel = {}
    for r in records:
        by_kernel.setdefault(r["kernel"], []).append(r)
    table = {}  # (kernel, config) -> (warp instructions, atomics, thread instructions, matches)
    for kernel, runs in by_kernel.items():
        if len(runs) != launches * len(configs):
            continue  # a setup kernel
        for index, config in enumerate(configs):
            group = runs[index * launches:(index + 1) * launches]
            if len({r["instructions"] for r in group}) != 1:
                print(f"FAIL: {kernel}: {config}'s launches ran different code")
                return 1
            last = group[-1]
            table.setdefault((kernel, config), (last["warp_instructions"], last["atomics"],
                                                last["thread_instructions"],
                                                last.get("matches", 0)))
    kernels = sorted({k for k, _ in table}, key=lambda k: list(by_kernel).index(k))
    if not kernels:
        print("FAIL: no kernel's launches matched the configurations")
        return 1

    def short(kernel):
        # _Z12matmul_tiledPKfS0_Pfi -> matmul_tiled
        if kernel.startswith("_Z"):
            digits = ""
            rest = kernel[2:]
            while rest and rest[0].isdigit():
                digits += rest[0]
                rest = rest[1:]
            return rest[:int(digits)] if digits else kernel
        return kernel

    rows = []
    print("warp instructions issued, instrumented / plain, warp-level atomics and matches "
          "executed (CPU device trace, " + args.bench_args + ")")
    header = ["config"] + [short(k) for k in kernels] + ["geomean"]
    print("\t".join(header))
    for config in configs[1:-1]:
        ratios, cells, atomics = [], [], []
        for k in kernels:
            plain = table[(k, "plain")][0]
            warp, atom, _, matches = table[(k, config)]
            ratio = warp / plain if plain else float("nan")
            ratios.append(ratio)
            cells.append(f"{ratio:.2f}x/{atom}/{matches}")
            rows.append((config, short(k), table[(k, "plain")][0], warp, ratio,
                         table[(k, "plain")][1], atom, matches))
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("\t".join([config] + cells + [f"{geomean:.3f}x"]))
    if args.tsv:
        with open(args.tsv, "w") as f:
            f.write("config\tkernel\tplain_warp_instructions\twarp_instructions\tratio\t"
                    "plain_atomics\tatomics\tmatches\n")
            for row in rows:
                f.write("\t".join(str(v) if not isinstance(v, float) else f"{v:.4f}"
                                  for v in row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
