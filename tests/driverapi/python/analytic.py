"""The counted loop of tests/e2e/programs/analytic_loop.cu, shared by the framework programs.

Each program launches it over grid (4,1,1) x block (128,1,1) = 512 threads with trips = 10, 3, 0
and prints, per launch, the line check_analytic_counts.py compares bbcount's block counts with:
ENTRY = EXIT = 512, BODY = 512 * trips.
"""
import sys

BLOCKS, THREADS_PER_BLOCK = 4, 128
THREADS = BLOCKS * THREADS_PER_BLOCK
WARPS = THREADS // 32
TRIPS = (10, 3, 0)

CUDA_SOURCE = r'''
extern "C" __global__ void counted_loop(unsigned* values, int* body_runs, int trips) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = static_cast<unsigned>(tid);
  int runs = 0;
#pragma unroll 1
  for (int i = 0; i < trips; ++i) {
    acc = acc * 2654435761u + static_cast<unsigned>(i);
    ++runs;
  }
  values[tid] = acc;
  body_runs[tid] = runs;
}
'''


def expected_values(trips):
    values = []
    for t in range(THREADS):
        acc = t
        for i in range(trips):
            acc = (acc * 2654435761 + i) & 0xFFFFFFFF
        values.append(acc)
    return values


def report(name, launch, trips, values, runs):
    """Prints the analytic line of one launch; False when the kernel computed wrong values."""
    body = sum(int(r) for r in runs)
    ok = [int(v) for v in values] == expected_values(trips) and body == THREADS * trips
    print("launch %d: trips=%d expected ENTRY=%d BODY=%d EXIT=%d (warps %d/%d/%d); measured BODY=%d"
          % (launch, trips, THREADS, THREADS * trips, THREADS, WARPS, WARPS * trips, WARPS, body))
    if not ok:
        print("FAILED: %s launch %d computed wrong values" % (name, launch))
    return ok


def finish(ok):
    print("PASS" if ok else "FAIL")
    sys.stdout.flush()
    return 0 if ok else 1
