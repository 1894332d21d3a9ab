#!/usr/bin/env python3
"""Instrumentation never changes what a program computes (issue 14, bug 3).

check_identical_output.py --ocelot OCELOT [--device cpu|gpu] [--keep DIR]
                          [--reference-ld-path PATH] PROGRAM [ARGS...]

Runs PROGRAM under `ocelot run` without instrumentors, then under bbcount (per warp and per
thread), ctaclock and both, first on every kernel, then with `--kernel` on each kernel alone. Every
run must print the plain run's stdout and exit with its status; every launch selected for
instrumentation must have run instrumented (a launch that ran the original kernel would hide a
broken translation) or failed (a program that faults on purpose; the output comparison tells a
fault instrumentation caused); every bbcount result must count the threads launched in the
kernel's entry block, and every ctaclock result must have recorded each CTA once, with all its
warps started and threads exited. With --reference-ld-path, PROGRAM first runs outside Ocelot with that
LD_LIBRARY_PATH (on the GPU: NVIDIA's libcudart.so.13) and the plain Ocelot run must print what it
printed and exit as it did, so every instrumented run matches NVIDIA's runtime too. Exit 0 on success, 1 on a difference,
77 (skip) when the program cannot run here (no device).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

CONFIGS = ["bbcount", "bbcount:mode=per-thread", "ctaclock", "bbcount,ctaclock"]


def run(ocelot, device, program, args, instrumentors=None, kernel=None, profile=None):
    command = [ocelot, "run", "--summary", "off"]
    if device:
        command += ["--device", device]
    if instrumentors:
        command += ["-i", instrumentors]
    if kernel:
        command += ["--kernel", kernel]
    if profile:
        command += ["-o", profile]
    command += ["--", program] + args
    env = dict(os.environ)
    env.setdefault("OCELOT_CPU_WATCHDOG_MS", "120000")
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    return result


def profiles(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f).get("profiles", [])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ocelot", required=True)
    parser.add_argument("--device", default="")
    parser.add_argument("--keep", default="")
    parser.add_argument("--reference-ld-path", default=None)
    parser.add_argument("program")
    parser.add_argument("args", nargs="*")
    options = parser.parse_args()
    if not os.access(options.program, os.X_OK):
        print(f"SKIP: {options.program} is not built")
        return 77
    name = os.path.basename(options.program)
    plain = run(options.ocelot, options.device, options.program, options.args)
    if plain.returncode == 77 or "no usable CUDA device" in plain.stderr:  # Ocelot's warning
        print("SKIP: no device")
        return 77
    failures = []
    kernels = []
    failed = 0
    if options.reference_ld_path is not None:
        env = dict(os.environ, LD_LIBRARY_PATH=options.reference_ld_path)
        reference = subprocess.run([options.program] + options.args, capture_output=True,
                                   text=True, env=env, timeout=600)
        if reference.stdout != plain.stdout or reference.returncode != plain.returncode:
            failures.append(f"plain Ocelot run differs from the reference runtime "
                            f"(exit {plain.returncode} vs {reference.returncode})")
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(config, None) for config in CONFIGS]
        done_all = False
        index = 0
        while index < len(cases):
            config, kernel = cases[index]
            index += 1
            profile = os.path.join(tmp, f"profile{index}.json")
            result = run(options.ocelot, options.device, options.program, options.args, config,
                         kernel and "^" + re.escape(kernel) + "$", profile)
            label = config + (f" --kernel {kernel}" if kernel else "")
            if options.keep:
                with open(os.path.join(options.keep, f"{name}.{index}.txt"), "w") as f:
                    f.write(f"# {label}: exit {result.returncode}\n{result.stdout}\n# stderr\n"
                            f"{result.stderr}")
            if result.stdout != plain.stdout or result.returncode != plain.returncode:
                failures.append(f"{label}: output or exit status differs from the plain run "
                                f"({result.returncode} vs {plain.returncode})")
            launches = profiles(profile)
            for p in launches:
                if p["execution"] == "instrumented":
                    counts = p.get("results", {}).get("bbcount")
                    threads = 1
                    for d in p["grid"] + p["block"]:
                        threads *= d
                    if counts is not None and counts["blocks"] and \
                            counts["blocks"][0]["count"] != threads:
                        failures.append(f"{label}: {p['kernel']} launch {p['kernel_launch']}: "
                                        f"entry block {counts['blocks'][0]['count']} for "
                                        f"{threads} threads")
                    clock = p.get("results", {}).get("ctaclock")
                    if clock is not None and (not clock["complete"] or clock["problems"]):
                        failures.append(f"{label}: {p['kernel']} launch {p['kernel_launch']}: "
                                        f"ctaclock incomplete: {'; '.join(clock['problems'])}")
                elif p["execution"] == "failed" and not p.get("results"):
                    failed += 1
                else:
                    notes = "; ".join(p.get("notes", []))
                    failures.append(f"{label}: {p['kernel']} launch {p['kernel_launch']} ran "
                                    f"{p['execution']}: {notes}")
            if kernel is None and not launches:
                failures.append(f"{label}: no profiles")
            if not done_all and config == CONFIGS[-1] and kernel is None:
                # Each kernel alone, under both instrumentors.
                done_all = True
                kernels = sorted({p["kernel"] for p in launches})
                cases += [(CONFIGS[-1], k) for k in kernels]
    runs = len(CONFIGS) + len(kernels)
    if failures:
        for failure in failures:
            print("FAIL: " + failure)
        print(f"FAIL {name}: {len(failures)} problems in {runs} instrumented runs")
        return 1
    print(f"PASS {name}: {runs} instrumented runs ({len(kernels)} kernels alone) print the plain "
          f"output" + (" (= the reference runtime's)" if options.reference_ld_path is not None
                       else "") + "; every selected launch ran instrumented"
          + (f" ({failed} failed, without counts)" if failed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
