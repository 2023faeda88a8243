"""Buffer and transfer benchmarks: pycl against PyOpenCL on the same device.

    python bench/bench_buffers.py                      # CPython pycl vs PyOpenCL, table
    python bench/bench_buffers.py --pypy /path/pypy    # adds pycl on PyPy, run back to back
    python bench/bench_buffers.py --impl pycl --json out.json   # one implementation

The comparison mode runs each implementation in its own subprocess, one after
the other, on the device whose platform version contains ``--platform``
(default "3.0-rc2", the pip PoCL: pycl's embedded default) and prints times
per operation and the ratio to PyOpenCL on CPython (< 1: pycl is faster).
Bulk copies also show GB/s and the ratio to ``np.copyto`` of the same size,
the host's memory-bandwidth limit. Each figure is the best of several
repeats of the mean over many calls; compare figures of one run only (PoCL's
timings move with machine load: QUIRKS.md).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

MIB = 1 << 20


def best_mean(function, calls, repeats=7):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def run(impl, platform_match):
    if impl == "pyopencl":
        import pyopencl as cl
    else:
        import pycl as cl
    if not hasattr(cl, "Buffer"):
        raise SystemExit("%s is not installed" % impl)
    device = next(
        d for p in cl.get_platforms() if platform_match in p.version for d in p.get_devices()
    )
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    results = {"impl": impl, "python": sys.implementation.name, "device": device.name, "platform": device.platform.version}

    def record(name, seconds, nbytes=None):
        results[name] = {"us": seconds * 1e6}
        if nbytes:
            results[name]["GBps"] = nbytes / seconds / 1e9

    # Buffer create + release
    def create_release():
        cl.Buffer(ctx, mf.READ_WRITE, 4096).release()

    record("Buffer create+release", best_mean(create_release, 20000))

    for size, label, calls in ((8, "8 B", 5000), (4096, "4 KiB", 5000)):
        buf = cl.Buffer(ctx, mf.READ_WRITE, size)
        host = np.zeros(size, np.uint8)
        record("write %s (blocking)" % label, best_mean(lambda: cl.enqueue_copy(queue, buf, host), calls))
        record("read %s (blocking)" % label, best_mean(lambda: cl.enqueue_copy(queue, host, buf), calls))

    size = 64 * MIB
    big = cl.Buffer(ctx, mf.READ_WRITE, size)
    host = np.ones(size, np.uint8)
    out = np.empty(size, np.uint8)
    record("write 64 MiB", best_mean(lambda: cl.enqueue_copy(queue, big, host), 10, 5), size)
    record("read 64 MiB", best_mean(lambda: cl.enqueue_copy(queue, out, big), 10, 5), size)
    record("np.copyto 64 MiB", best_mean(lambda: np.copyto(out, host), 10, 5), size)

    # a 1024x1024 float32 block out of a 2048-wide float32 buffer
    wide = cl.Buffer(ctx, mf.READ_WRITE, 2048 * 1024 * 4)
    block = np.empty((1024, 1024), np.float32)

    def rect():
        cl.enqueue_copy(
            queue, block, wide, buffer_origin=(4096, 0), host_origin=(0, 0), region=(4096, 1024), buffer_pitches=(8192,)
        )

    record("rect read 1024x1024 float32", best_mean(rect, 20, 5), block.nbytes)

    pattern = np.float32(1.5)

    def fill():
        cl.enqueue_fill_buffer(queue, big, pattern, 0, size)
        queue.finish()

    record("fill 64 MiB", best_mean(fill, 10, 5), size)

    small = cl.Buffer(ctx, mf.READ_WRITE, 4096)
    flags = cl.map_flags.READ | cl.map_flags.WRITE

    def map_unmap():
        array, _ = cl.enqueue_map_buffer(queue, small, flags, 0, (1024,), np.float32)
        array.base.release()

    record("map+unmap 4 KiB", best_mean(map_unmap, 5000))
    queue.finish()
    return results


def compare(args):
    runs = [(sys.executable, "pycl"), (sys.executable, "pyopencl")]
    if args.pypy:
        runs.append((args.pypy, "pycl"))
    tables = []
    for python, impl in runs:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
            path = f.name
        env = dict(os.environ)
        env.setdefault("POCL_CACHE_DIR", tempfile.mkdtemp(prefix="pycl-bench-pocl-"))
        subprocess.run(
            [python, __file__, "--impl", impl, "--json", path, "--platform", args.platform], check=True, env=env
        )
        with open(path) as f:
            tables.append(json.load(f))
        os.unlink(path)
    base = tables[1]
    names = [k for k in base if isinstance(base[k], dict)]
    heads = ["%s/%s" % (t["impl"], t["python"]) for t in tables]
    print("device: %s (%s)" % (base["device"], base["platform"]))
    print("| operation | " + " | ".join(h + " (us)" for h in heads) + " | " + " | ".join(
        "%s / pyopencl" % h for h in heads if h != "pyopencl/cpython"
    ) + " | GB/s " + " / ".join(heads) + " |")
    print("|---" * (2 + 2 * len(tables)) + "|")
    for name in names:
        us = [t[name]["us"] for t in tables]
        ratios = ["%.2fx" % (t[name]["us"] / base[name]["us"]) for t in tables if t is not base]
        gbps = " / ".join("%.2f" % t[name]["GBps"] for t in tables) if "GBps" in base[name] else ""
        print("| %s | %s | %s | %s |" % (name, " | ".join("%.2f" % u for u in us), " | ".join(ratios), gbps))
    limit = base["np.copyto 64 MiB"]["GBps"]
    for t in tables:
        for name in ("write 64 MiB", "read 64 MiB"):
            print("%s/%s %s: %.2fx np.copyto bandwidth" % (t["impl"], t["python"], name, t[name]["GBps"] / limit))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--impl", choices=["pycl", "pyopencl"])
    parser.add_argument("--json")
    parser.add_argument("--pypy", help="a PyPy interpreter with pycl installed, for the back-to-back comparison")
    parser.add_argument("--platform", default="3.0-rc2", help="substring of the platform version (default: pip PoCL)")
    args = parser.parse_args()
    if args.impl:
        results = run(args.impl, args.platform)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f)
        else:
            print(json.dumps(results, indent=1))
    else:
        compare(args)


if __name__ == "__main__":
    main()
