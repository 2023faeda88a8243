"""SVM benchmarks: pycl against PyOpenCL on the same device, in the same run.

    python bench/bench_svm.py [--device SUBSTRING] [--pycl-python PATH]
                              [--pyopencl-python PATH] [--rounds N]

Each library runs in its own child process (so pycl can run on PyPy while
PyOpenCL runs on CPython, back to back), on the first SVM-capable device
whose platform version contains ``--device`` (default ``3.1``: Debian's PoCL;
the pip PoCL 3.0 makes PyOpenCL abort at exit after queue-bound SVM frees,
QUIRKS.md). Every allocation is bound to the queue on both sides, so both
free in queue order. The two sides alternate child by child (``--rounds``
children each), so load changes on a shared machine hit both; reported: the
best time per operation, and the ratio pycl / PyOpenCL (below 1: pycl is
faster).

Operations:
- ``SVMAllocation(ctx, 4096, 0, READ_WRITE, queue)`` + ``release()``;
- ``csvm_empty(ctx, 1024, float32, queue=queue)`` (PyOpenCL 2026.1.4's
  csvm_empty has no queue argument: its ``svm_empty(ctx, READ_WRITE, ...,
  queue=queue)``, the same allocation) and dropping the array;
- a blocking SVM->SVM ``enqueue_copy`` of 64 MiB;
- ``map_rw`` + unmap (``with alloc.map_rw(queue): pass``) of 1 MiB.
"""

import argparse
import json
import os
import subprocess
import sys
import time

CHILD = r"""
import gc, json, sys, time
import numpy as np
lib_name, device_match, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
if lib_name == "pycl":
    import pycl as cl
    import warnings
    warnings.simplefilter("ignore")
else:
    import pyopencl as cl

def pick():
    for p in cl.get_platforms():
        if device_match not in p.version:
            continue
        for d in p.get_devices():
            if d.get_info(cl.device_info.VERSION).startswith("OpenCL 1."):
                continue
            if d.svm_capabilities & cl.device_svm_capabilities.COARSE_GRAIN_BUFFER:
                return d
    raise SystemExit("no SVM device on a platform matching %r" % device_match)

device = pick()
ctx = cl.Context([device])
q = cl.CommandQueue(ctx)
RW = cl.svm_mem_flags.READ_WRITE

def best(fn, n):
    times = []
    for _ in range(rounds):
        q.finish()
        gc.collect()
        t0 = time.perf_counter()
        fn(n)
        q.finish()
        times.append((time.perf_counter() - t0) / n)
    return min(times)

def alloc_release(n):
    for _ in range(n):
        cl.SVMAllocation(ctx, 4096, 0, RW, q).release()

if lib_name == "pycl":
    def csvm(n):
        for _ in range(n):
            cl.csvm_empty(ctx, 1024, np.float32, queue=q)
else:
    def csvm(n):
        for _ in range(n):
            cl.svm_empty(ctx, RW, 1024, np.float32, queue=q)

big = 64 << 20
src = cl.SVMAllocation(ctx, big, 0, RW, q)
dst = cl.SVMAllocation(ctx, big, 0, RW, q)
cl.enqueue_svm_memfill(q, src, np.uint32(7))

def copy64(n):
    for _ in range(n):
        cl.enqueue_copy(q, dst, src)

mapped = cl.SVMAllocation(ctx, 1 << 20, 0, RW, q)

def map_unmap(n):
    for _ in range(n):
        with mapped.map_rw(q):
            pass

for fn, n in ((alloc_release, 300), (csvm, 300), (map_unmap, 300), (copy64, 3)):
    fn(n)  # warm up
result = {
    "device": device.name,
    "platform": device.platform.version,
    "python": sys.implementation.name,
    "SVMAllocation create+release": best(alloc_release, 2000),
    "csvm_empty (queue-bound)": best(csvm, 2000),
    "SVM->SVM copy 64 MiB": best(copy64, 5),
    "map_rw + unmap (1 MiB)": best(map_unmap, 2000),
}
print(json.dumps(result))
"""


def run(python, lib_name, device, rounds):
    env = dict(os.environ)
    env.setdefault("POCL_CACHE_DIR", "/tmp/pycl-bench-pocl-cache")
    out = subprocess.run(
        [python, "-c", CHILD, lib_name, device, str(rounds)], capture_output=True, text=True, env=env, timeout=600
    )
    if out.returncode != 0 and not out.stdout.strip():
        raise SystemExit("%s on %s failed:\n%s" % (lib_name, python, out.stderr[-3000:]))
    return json.loads(out.stdout.strip().splitlines()[-1])


def best_of(results):
    merged = dict(results[0])
    for result in results[1:]:
        for key, value in result.items():
            if isinstance(value, float):
                merged[key] = min(merged[key], value)
    return merged


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="3.1", help="substring of the platform version (default: 3.1)")
    parser.add_argument("--pycl-python", default=sys.executable)
    parser.add_argument("--pyopencl-python", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    # The two sides alternate, child by child, so that a change in the load of
    # a shared machine hits both alike; each child reports its best of 3.
    ours, theirs = [], []
    for _ in range(args.rounds):
        ours.append(run(args.pycl_python, "pycl", args.device, 3))
        theirs.append(run(args.pyopencl_python, "pyopencl", args.device, 3))
    ours, theirs = best_of(ours), best_of(theirs)
    print("device: %s (%s)" % (ours["device"], ours["platform"].split("  ")[0]))
    print(
        "pycl on %s vs PyOpenCL on %s; best of %d alternating child processes"
        % (ours["python"], theirs["python"], args.rounds)
    )
    print("%-32s %12s %12s %8s" % ("operation", "pycl", "PyOpenCL", "ratio"))
    for key in ours:
        if key in ("device", "platform", "python"):
            continue
        a, b = ours[key], theirs[key]
        unit, scale = ("us", 1e6) if b < 1e-3 else ("ms", 1e3)
        print("%-32s %9.2f %s %9.2f %s %8.2f" % (key, a * scale, unit, b * scale, unit, a / b))


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print("(%.0f s)" % (time.perf_counter() - start))
