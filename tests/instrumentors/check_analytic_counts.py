#!/usr/bin/env python3
"""Checks Ocelot's basic-block counts against the analytic values an e2e program prints.

    check_analytic_counts.py --ocelot build/tools/ocelot PROGRAM [--modes per-warp,per-thread]

The analytic programs (tests/e2e/programs/analytic_*.cu) print, per launch of their kernel, a line
`... expected ENTRY=512 BODY=5120 EXIT=512 (warps ...); measured ...`. For each mode of bbcount
the program runs under `ocelot run -i bbcount:mode=M -o profile.json` and:
  * its stdout and exit status equal those of an uninstrumented run under Ocelot;
  * for every expected line, in order, a launch of the kernel exists whose entry block count is
    ENTRY (the number of threads launched), and every other region's count is the count of some
    basic block of that launch (kernel or device function), or the difference of two block
    counts (a region nvcc compiled into a branch to a shared block, i.e. an edge);
  * both modes give identical counts for every block of every launch;
then under `-i ctaclock` every launch recorded each CTA exactly once, on an SM the device has.

Device: the GPU when there is one; else Ocelot's CPU back end (OCELOT_DEVICE=cpu) when it can run
the program; else the check is skipped (exit 77) with a one-line reason.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import profile_schema  # noqa: E402

SKIP = 77


def have_gpu():
    if os.path.exists("/dev/nvidia0"):
        return True
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def run(ocelot, device, program, options, timeout):
    command = [ocelot, "run", "--device", device, "--summary", "off"] + options + ["--", program]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout
    return done.returncode, done.stdout, done.stderr


def expected_sets(stdout):
    sets = []
    for line in stdout.splitlines():
        at = line.find("expected ")
        if at < 0:
            continue
        text = line[at + len("expected "):]
        text = text.split("measured")[0]
        text = re.sub(r"\([^)]*\)", "", text)  # "(warps 16/160/16)", "(warp-iterations 64)"
        values = {k: int(v) for k, v in re.findall(r"\b([A-Z][A-Z0-9_]*)=(\d+)", text)}
        if "ENTRY" in values:
            sets.append(values)
    return sets


def load_profiles(path):
    # Raises ProfileSchemaError (the check fails) when the file does not match the schema.
    document = profile_schema.validate_file(path)
    return [p for p in document.get("profiles", []) if p.get("execution") == "instrumented"]


def kernel_blocks(profile):
    return profile.get("results", {}).get("bbcount", {}).get("blocks", [])


def entry_count(profile):
    for b in kernel_blocks(profile):
        if b["function"] == profile["kernel"] and b["index"] == 0:
            return b["count"]
    return None


def check_counts(name, mode, sets, profiles, problems):
    """Pairs expected sets with launches; returns the matched profiles in order."""
    used = set()
    matched = []
    for i, values in enumerate(sets):
        found = None
        for j, p in enumerate(profiles):
            if j not in used and entry_count(p) == values["ENTRY"]:
                found = j
                break
        if found is None:
            problems.append("%s %s: expected set %d: no instrumented launch whose entry block ran "
                            "%d times (entry counts: %s)" % (name, mode, i + 1, values["ENTRY"],
                            [entry_count(p) for p in profiles]))
            continue
        used.add(found)
        p = profiles[found]
        matched.append(p)
        threads = p["grid"][0] * p["grid"][1] * p["grid"][2] * p["block"][0] * p["block"][1] * p["block"][2]
        if values["ENTRY"] != threads:
            problems.append("%s %s: ENTRY=%d but the launch has %d threads" %
                            (name, mode, values["ENTRY"], threads))
        counts = sorted(b["count"] for b in kernel_blocks(p))
        for region, value in values.items():
            if region == "ENTRY":
                continue
            # A region nvcc merged into another block (an early `return` branching to the
            # kernel's shared `ret`) is an edge: its count is the difference of two blocks'.
            edges = {a - b for a in counts for b in counts if a > b}
            if value not in counts and value not in edges:
                problems.append("%s %s launch %d: %s=%d is no block's count (counts: %s)" %
                                (name, mode, p["launch_id"], region, value, counts))
    return matched


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("program")
    parser.add_argument("--ocelot", required=True, help="the ocelot command line tool")
    parser.add_argument("--modes", default="per-warp,per-thread")
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--keep", help="directory for the profile files (default: temporary)")
    args = parser.parse_args()
    name = os.path.basename(args.program)
    if not os.access(args.program, os.X_OK):
        print("SKIP: %s is not built (needs nvcc)" % args.program)
        return SKIP

    device = os.environ.get("OCELOT_DEVICE") or ("gpu" if have_gpu() else "cpu")
    rc, base_out, base_err = run(args.ocelot, device, args.program, [], args.timeout)
    if rc != 0:
        if device == "cpu" and "OCELOT_DEVICE" not in os.environ:
            last = (base_err.strip().splitlines() or ["no message"])[-1]
            print("SKIP: no GPU, and Ocelot's CPU device cannot run %s yet (exit %d: %s)" %
                  (name, rc, last[:160]))
            return SKIP
        print("FAIL: %s exits %d under Ocelot without instrumentation\n%s" % (name, rc, base_err[-2000:]))
        return 1

    sets = expected_sets(base_out)
    if not sets:
        print("FAIL: %s prints no 'expected ENTRY=...' line" % name)
        return 1
    workdir = args.keep or tempfile.mkdtemp(prefix="ocelot-analytic-")
    os.makedirs(workdir, exist_ok=True)
    problems = []
    by_mode = {}
    for mode in [m for m in args.modes.split(",") if m]:
        path = os.path.join(workdir, "%s.%s.json" % (name, mode))
        rc, out, err = run(args.ocelot, device, args.program,
                           ["-i", "bbcount:mode=" + mode, "-o", path], args.timeout)
        if rc != 0 or out != base_out:
            problems.append("%s %s: exit %d, stdout %s the uninstrumented run's\n%s" %
                            (name, mode, rc, "equals" if out == base_out else "differs from",
                             err[-1500:]))
            continue
        try:
            profiles = load_profiles(path)
        except (OSError, ValueError, profile_schema.ProfileSchemaError) as e:
            problems.append("%s %s: cannot read %s: %s" % (name, mode, path, e))
            continue
        by_mode[mode] = check_counts(name, mode, sets, profiles, problems)
        # Every instrumented launch, graph kernel nodes included, carries the GPU time its kernel
        # measured itself (instrumentors/LaunchClock.h).
        untimed = [p["launch_id"] for p in profiles
                   if not isinstance(p.get("gpu_ms"), (int, float)) or p["gpu_ms"] <= 0]
        if untimed:
            problems.append("%s %s: launches %s have no GPU time" % (name, mode, untimed[:10]))
        print("%s %s: %d launches instrumented, %d expected sets checked" %
              (name, mode, len(profiles), len(sets)))
    modes = list(by_mode)
    for other in modes[1:]:
        for a, b in zip(by_mode[modes[0]], by_mode[other]):
            ca = [(x["function"], x["index"], x["count"]) for x in kernel_blocks(a)]
            cb = [(x["function"], x["index"], x["count"]) for x in kernel_blocks(b)]
            if ca != cb:
                problems.append("%s: %s and %s disagree: %s vs %s" % (name, modes[0], other, ca, cb))

    path = os.path.join(workdir, "%s.ctaclock.json" % name)
    rc, out, err = run(args.ocelot, device, args.program, ["-i", "ctaclock", "-o", path], args.timeout)
    if rc != 0 or out != base_out:
        problems.append("%s ctaclock: exit %d, stdout %s\n%s" %
                        (name, rc, "same" if out == base_out else "differs", err[-1500:]))
    else:
        try:
            clock_profiles = load_profiles(path)
        except (OSError, ValueError, profile_schema.ProfileSchemaError) as e:
            problems.append("%s ctaclock: cannot read %s: %s" % (name, path, e))
            clock_profiles = []
        for p in clock_profiles:
            clock = p.get("results", {}).get("ctaclock", {})
            if not clock.get("complete", False):
                problems.append("%s ctaclock launch %d: %s" % (name, p["launch_id"], clock.get("problems")))
        print("%s ctaclock: %d launches checked" % (name, len(clock_profiles)))

    if problems:
        print("FAIL: %d problems" % len(problems))
        for line in problems:
            print("  " + line)
        return 1
    print("PASS: %s on %s: %d expected sets, modes %s, ctaclock complete" %
          (name, device, len(sets), ",".join(modes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
