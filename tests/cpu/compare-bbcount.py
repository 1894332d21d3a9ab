#!/usr/bin/env python3
"""CI check of issue #6: on the CPU device, the bbcount instrumentor's block counts equal the
executor's own trace exactly, and the instrumented program prints what the uninstrumented one does.

compare-bbcount.py NAME BIN_DIR RUNTIME_DIR SKIPS_FILE
Runs BIN_DIR/NAME twice with OCELOT_DEVICE=cpu: once uninstrumented with OCELOT_CPU_TRACE_OUTPUT
(the executor's per-block thread counts), once with OCELOT_INSTRUMENTORS=bbcount and
OCELOT_PROFILE_OUTPUT; compares every (kernel, launch, function, block) count. Exit 77: skipped.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import profile_schema  # noqa: E402

# Programs whose block counts legitimately differ between two runs, so they cannot be compared.
BBCOUNT_SKIPS = {
    "cooperative_grid_sync": "grid.sync() spin loops run as often as scheduling makes them",
    "streams": "a gate kernel spins on a host flag for as long as the host takes",
    "events": "a gate kernel spins on a host flag for as long as the host takes",
    "default_stream_legacy": "a gate kernel spins on a host flag for as long as the host takes",
    "per_thread_default_stream": "a gate kernel spins on a host flag for as long as the host "
    "takes",
    "host_threads": "kernels launched from several host threads are numbered in arrival order",
    "sticky_device_assert": "after a device fault the instrumentation buffers cannot be read",
    "sticky_illegal_address": "after a device fault the instrumentation buffers cannot be read",
    "sticky_trap": "after a device fault the instrumentation buffers cannot be read",
}


def compare_as_multisets(document, traced, uninstrumented_nodes, failures):
    """Per kernel, the instrumented launches' block counts against the executor's launches', as
    multisets; returns how many launches were compared."""
    from collections import Counter

    measured = {}  # kernel -> Counter of launches' block counts
    blocks = {}  # kernel -> the (function, index) blocks bbcount counted
    for launch in document.get("profiles", []):
        result = launch.get("results", {}).get("bbcount")
        if result is None:
            continue
        counts = {(b["function"], b["index"]): b["count"] for b in result.get("blocks", [])
                  if b.get("counted", True) is not False}
        blocks.setdefault(launch["kernel"], set()).update(counts)
        if any(counts.values()):
            measured.setdefault(launch["kernel"], Counter())[tuple(sorted(counts.items()))] += 1
    expected = {}
    for kernel, counts in traced:
        if kernel not in blocks:
            continue
        projected = tuple(sorted((k, counts.get(k, 0)) for k in blocks[kernel]))
        expected.setdefault(kernel, Counter())[projected] += 1
    compared = 0
    for kernel, launches in measured.items():
        mine = expected.get(kernel, Counter())
        if kernel in uninstrumented_nodes:
            missing = launches - mine
        else:
            missing = (launches - mine) + (mine - launches)
        if missing:
            failures.append(f"{kernel}: {sum(missing.values())} launches' block counts differ "
                            "from the executor's")
        compared += sum(launches.values())
    return compared


def main():
    name, bin_dir, runtime_dir, skips = sys.argv[1:5]
    bin_dir = os.environ.get("OCELOT_E2E_BIN_DIR", bin_dir)
    if name in BBCOUNT_SKIPS:
        print("SKIP: " + BBCOUNT_SKIPS[name])
        return 77
    with open(skips) as f:
        for line in f:
            if line.startswith(name + ":"):
                print("SKIP:" + line.split(":", 1)[1].rstrip())
                return 77
    program = os.path.join(bin_dir, name)
    if not os.access(program, os.X_OK):
        print(f"SKIP: {program} is not built")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace.jsonl")
        profile = os.path.join(tmp, "profile.json")
        base = dict(os.environ)
        base["LD_LIBRARY_PATH"] = runtime_dir + ":" + base.get("LD_LIBRARY_PATH", "")
        base["OCELOT_DEVICE"] = "cpu"
        # One worker, CTAs in order: data-dependent loops (CAS retries) repeat exactly.
        base["OCELOT_CPU_DETERMINISTIC"] = "1"
        base.setdefault("OCELOT_CPU_WATCHDOG_MS", "120000")
        plain_env = dict(base, OCELOT_CPU_TRACE_OUTPUT=trace)
        plain = subprocess.run([program], env=plain_env, capture_output=True, text=True)
        inst_env = dict(base, OCELOT_INSTRUMENTORS="bbcount", OCELOT_PROFILE_OUTPUT=profile)
        inst = subprocess.run([program], env=inst_env, capture_output=True, text=True)
        failures = []
        if plain.stdout != inst.stdout or plain.returncode != inst.returncode:
            failures.append("the instrumented program's output differs from the uninstrumented one")
        expected = {}
        traced = []  # per launch: kernel, {(function, index): count}
        if os.path.exists(trace):
            with open(trace) as f:
                for line in f:
                    record = json.loads(line)
                    counts = {}
                    for block in record["blocks"]:
                        key = (record["kernel"], record["kernel_launch"], block["function"],
                               block["index"])
                        expected[key] = block["count"]
                        counts[(block["function"], block["index"])] = block["count"]
                    traced.append((record["kernel"], counts))
        measured = {}
        launches = 0
        graph_launches = []  # per instrumented launch: kernel, {(function, index): count}
        uninstrumented_nodes = set()  # kernels with a graph node that ran the original kernel
        if os.path.exists(profile):
            try:
                document = profile_schema.validate_file(profile)
            except profile_schema.ProfileSchemaError as e:
                print("FAIL:", e)
                return 1
            for launch in document.get("profiles", []):
                if "graph" in launch:
                    graph_launches.append(launch)
                    if launch.get("execution") != "instrumented":
                        uninstrumented_nodes.add(launch["kernel"])
                result = launch.get("results", {}).get("bbcount")
                if result is None:
                    continue
                launches += 1
                for block in result.get("blocks", []):
                    if block.get("counted", True) is False:
                        continue  # not instrumented (a function whose address is taken): no count
                    key = (launch["kernel"], launch["kernel_launch"], block["function"],
                           block["index"])
                    measured[key] = block["count"]
        compared = 0
        if graph_launches:
            # Graph nodes take their launch numbers when the graph is launched, in node order, and
            # nodes of conditional bodies that do not run take one too, while the executor numbers
            # launches as they run: per kernel, the launches' block counts are compared as a
            # multiset (launches with no counts, nodes that did not run, left out). Where a node
            # of the kernel ran uninstrumented (a while body), the executor has more launches.
            compared = compare_as_multisets(document, traced, uninstrumented_nodes, failures)
            measured = {}
        for key, count in measured.items():
            if key not in expected:
                if count != 0:  # a launch the device rejected has no trace and zero counts
                    failures.append(f"bbcount reports {key} that the executor never had")
                continue
            compared += 1
            if expected[key] != count:
                failures.append(f"{key}: bbcount {count}, executor trace {expected[key]}")
        for failure in failures[:20]:
            print("FAIL:", failure)
        what = "launches compared as multisets" if graph_launches else "block counts compared"
        print(f"{name}: {launches} instrumented launches, {compared} {what}")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
