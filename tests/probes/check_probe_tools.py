#!/usr/bin/env python3
"""Checks an end-to-end program under probe tools (docs/probes.md).

    check_probe_tools.py --ocelot OCELOT --tools EMPTY.so,PROBECOUNT.so [--device cpu|gpu]
                         [--oracle ORACLE.so] [--analytic] [--bad PTX] [--skips FILE] PROGRAM

Runs PROGRAM under `ocelot run`:
  1. without instrumentors (the reference output and exit status);
  2. with EMPTY (an empty probe at every basic block): the same output and exit status;
  3. with bbcount and PROBECOUNT (bbcount's counting written as a probe) in the same run: the same
     output, and in every instrumented launch PROBECOUNT's count of every block bbcount counted
     equals bbcount's;
  4. with ORACLE, when given: the same output, its block counts equal to PROBECOUNT's, nothing
     dropped, no probe error;
  5. with the shipped probe tools named by --shipped (memaccess, branchdiv, instmix, warpeff,
     memtrace: tools/probes) all in one run: the same output, every instrumented launch has each
     one's result, without errors;
  6. with OCELOT_INSTRUMENTORS=probe:ptx=BAD (a probe Ocelot refuses), when given: the same output
     and exit status, and the refusal on stderr.
--analytic: the program must print 'expected ENTRY=N ...' lines (tests/e2e/programs/analytic_*);
  each expected set must match an instrumented launch whose entry block PROBECOUNT counted N times,
  and every other value of the set must be the count PROBECOUNT gave some block of that launch,
  or the difference of two (an edge: tests/instrumentors/check_analytic_counts.py's rule).
Every profile written must match docs/profile.schema.json.
Device: --device, else the GPU when there is one, else the CPU device. Exit 77: skipped.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import profile_schema  # noqa: E402

SKIP = 77

# Programs whose output or counts legitimately differ from run to run (see tests/cpu/
# compare-bbcount.py): compared for exit status only, and counts only within one run.
NONDETERMINISTIC = {"host_threads"}
# Programs that fault on the device on purpose: the buffers of the faulting launch cannot be read,
# so only their output and exit status are compared.
FAULTING = {"sticky_device_assert", "sticky_illegal_address", "sticky_trap"}


def have_gpu():
    if os.path.exists("/dev/nvidia0"):
        return True
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def run(args, device, options, env=None, timeout=None):
    command = [args.ocelot, "run", "--device", device, "--summary", "off"] + options + ["--", args.program]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout or args.timeout,
                              env=env)
    except subprocess.TimeoutExpired:
        return 124, "", "timed out"
    return done.returncode, done.stdout, done.stderr


SCHEMA_PROBLEMS = []


def profiles(path):
    """The profiles of a file that matches the schema; none (and a problem) otherwise."""
    if not os.path.exists(path):
        return []
    try:
        document = profile_schema.validate_file(path)
    except (profile_schema.ProfileSchemaError, ValueError) as error:
        SCHEMA_PROBLEMS.append(str(error)[:1500])
        return []
    return document.get("profiles", [])


_probe_validator = None


def probe_result_problems(result):
    """How a default probe result breaks docs/profile.schema.json's `probe` definition (the schema
    lets plugins' results be any object, so the profile's validation does not reach them)."""
    global _probe_validator
    if _probe_validator is None:
        checker = profile_schema.validator()  # first: says when jsonschema is missing
        if checker is None:
            return []  # optional here (OCELOT_PROFILE_SCHEMA_OPTIONAL), already noted
        definitions = checker.schema["$defs"]
        import jsonschema
        _probe_validator = jsonschema.Draft202012Validator({"$defs": definitions,
                                                            "$ref": "#/$defs/probe"})
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(result)", e.message[:200])
            for e in _probe_validator.iter_errors(result)]


def probe_counts(result, region="entries"):
    """(function, block index) -> count, from a ProbeResult's JSON."""
    values = result.get("regions", {}).get(region, {}).get("values", [])
    blocks = result.get("blocks", [])
    return {(b["function"], b["index"]): v for b, v in zip(blocks, values)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("program")
    parser.add_argument("--ocelot", required=True)
    parser.add_argument("--tools", required=True, help="EMPTY.so,PROBECOUNT.so")
    parser.add_argument("--oracle")
    parser.add_argument("--bad")
    parser.add_argument("--shipped", help="shipped probe tools to run together (NAME,NAME...)")
    parser.add_argument("--device")
    parser.add_argument("--analytic", action="store_true")
    parser.add_argument("--skips")
    parser.add_argument("--timeout", type=int, default=300)
    args = parser.parse_args()
    name = os.path.basename(args.program)
    if not os.access(args.program, os.X_OK):
        print("SKIP: %s is not built (needs nvcc)" % args.program)
        return SKIP
    device = args.device or os.environ.get("OCELOT_DEVICE") or ("gpu" if have_gpu() else "cpu")
    if device == "cpu" and args.skips:
        with open(args.skips) as f:
            for line in f:
                if line.startswith(name + ":"):
                    print("SKIP:" + line.split(":", 1)[1].rstrip())
                    return SKIP
    empty, probecount = args.tools.split(",")
    rc, reference, err = run(args, device, [])
    if args.analytic and rc != 0 and device == "cpu" and not args.device and \
            "OCELOT_DEVICE" not in os.environ:
        print("SKIP: no GPU, and the CPU device cannot run %s (exit %d)" % (name, rc))
        return SKIP
    deterministic = name not in NONDETERMINISTIC
    problems = []
    workdir = tempfile.mkdtemp(prefix="ocelot-probes-")

    def same_output(label, result):
        code, out, error = result
        if code != rc:
            problems.append("%s: exit %d, without instrumentation %d\n%s" % (label, code, rc, error[-1500:]))
        elif deterministic and out != reference:
            problems.append("%s: the output differs from the uninstrumented run's" % label)

    # 2. An empty probe at every block.
    same_output("empty probe", run(args, device, ["-i", empty]))

    # 3. bbcount and probecount in one run.
    path = os.path.join(workdir, "counts.json")
    same_output("bbcount,probecount", run(args, device, ["-i", "bbcount," + probecount, "-o", path]))
    launches = 0
    counted = {}
    for p in profiles(path) if name not in FAULTING else []:
        results = p.get("results", {})
        if p.get("execution") != "instrumented" or "bbcount" not in results or "probecount" not in results:
            continue
        launches += 1
        probe = probe_counts(results["probecount"])
        counted[p["launch_id"]] = probe
        for b in results["bbcount"]["blocks"]:
            if not b.get("counted", True):
                continue
            key = (b["function"], b["index"])
            if probe.get(key) != b["count"]:
                problems.append("launch %d %s block %d: probecount %s, bbcount %d" %
                                (p["launch_id"], b["function"], b["index"], probe.get(key), b["count"]))
                break
        for problem in probe_result_problems(results["probecount"])[:3]:
            problems.append("launch %d probecount result: %s" % (p["launch_id"], problem))
        if results["probecount"].get("errors"):
            problems.append("launch %d: %s" % (p["launch_id"], results["probecount"]["errors"]))

    # Analytic programs: each expected set is a launch with that entry count.
    if args.analytic:
        sets = []
        for line in reference.splitlines():
            at = line.find("expected ")
            if at < 0:
                continue
            text = re.sub(r"\([^)]*\)", "", line[at + 9:].split("measured")[0])
            values = {k: int(v) for k, v in re.findall(r"\b([A-Z][A-Z0-9_]*)=(\d+)", text)}
            if "ENTRY" in values:
                sets.append(values)
        if not sets:
            problems.append("%s prints no 'expected ENTRY=...' line" % name)
        launches_by_entry = []
        for p in profiles(path):
            probe = p.get("results", {}).get("probecount")
            if probe:
                launches_by_entry.append((probe_counts(probe).get((p["kernel"], 0)), p, probe))
        for values in sets:
            found = next((l for l in launches_by_entry if l[0] == values["ENTRY"]), None)
            if found is None:
                problems.append("no launch whose entry block probecount counted %d times (%s)" %
                                (values["ENTRY"], [l[0] for l in launches_by_entry]))
                continue
            launches_by_entry.remove(found)
            _, p, probe = found
            counts = sorted(set(probe_counts(probe).values()))
            edges = {a - b for a in counts for b in counts if a > b}
            for region, value in values.items():
                if region != "ENTRY" and value not in counts and value not in edges:
                    problems.append("launch %d: %s=%d is no block's probecount count (counts: %s)" %
                                    (p["launch_id"], region, value, counts))

    # 4. The oracle's probes: every kind of probe at once, output unchanged.
    if args.oracle:
        path = os.path.join(workdir, "oracle.json")
        same_output("oracle", run(args, device, ["-i", probecount + "," + args.oracle, "-o", path]))
        for p in profiles(path):
            results = p.get("results", {})
            tool = [k for k in results if k not in ("probecount",)]
            if p.get("execution") != "instrumented" or "probecount" not in results or not tool:
                continue
            oracle = results[tool[0]]
            for problem in probe_result_problems(oracle)[:3]:
                problems.append("oracle launch %d result: %s" % (p["launch_id"], problem))
            if oracle.get("errors"):
                problems.append("oracle launch %d: %s" % (p["launch_id"], oracle["errors"]))
            if probe_counts(oracle, "blocks") != probe_counts(results["probecount"]):
                problems.append("oracle launch %d: block counts differ from probecount's" % p["launch_id"])
            for region, data in oracle.get("regions", {}).items():
                if data.get("dropped"):
                    problems.append("oracle launch %d: %s dropped %d" % (p["launch_id"], region, data["dropped"]))

    # 5. The shipped probe tools, all at once.
    if args.shipped:
        names = [n for n in args.shipped.split(",") if n]
        specs = [n + (":file=" + os.path.join(workdir, "trace.zst") if n == "memtrace" else "")
                 for n in names]
        path = os.path.join(workdir, "shipped.json")
        same_output("shipped tools", run(args, device, ["-i", ",".join(specs), "-o", path]))
        for p in profiles(path):
            results = p.get("results", {})
            if p.get("execution") != "instrumented":
                continue  # programs whose kernels run only in graphs have none
            for n in names:
                if n not in results:
                    problems.append("launch %d: no %s result" % (p["launch_id"], n))
                elif results[n].get("errors"):
                    problems.append("launch %d %s: %s" % (p["launch_id"], n, results[n]["errors"]))
            mix, eff = results.get("instmix"), results.get("warpeff")
            if mix and eff and mix.get("threads") != eff.get("lanes"):
                problems.append("launch %d: instmix counts %s thread instructions, warpeff %s lanes" %
                                (p["launch_id"], mix.get("threads"), eff.get("lanes")))

    # 6. A probe Ocelot refuses: the program runs its original kernels.
    if args.bad:
        dry = subprocess.run([args.ocelot, "run", "--dry-run", "--device", device, "--", args.program],
                             capture_output=True, text=True)
        env = dict(os.environ)
        for line in dry.stdout.splitlines() + dry.stderr.splitlines():
            if "=" in line and line.split("=", 1)[0].isupper():
                key, value = line.split("=", 1)
                env[key] = value
        env["OCELOT_INSTRUMENTORS"] = "probe:ptx=" + args.bad
        try:
            done = subprocess.run([args.program], capture_output=True, text=True, env=env,
                                  timeout=args.timeout)
            if done.returncode != rc or (deterministic and done.stdout != reference):
                problems.append("bad probe: the program did not run as without instrumentors")
            if "probe" not in done.stderr:
                problems.append("bad probe: no message on stderr:\n" + done.stderr[-1000:])
        except subprocess.TimeoutExpired:
            problems.append("bad probe: timed out")

    problems += sorted(set(SCHEMA_PROBLEMS))
    if problems:
        print("FAIL: %s on the %s device\n  %s" % (name, device, "\n  ".join(problems)))
        return 1
    print("ok: %s on the %s device: output unchanged under the probe tools; probecount equals bbcount "
          "in %d launches%s" % (name, device, launches,
                                "; the analytic counts exact" if args.analytic else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
