"""Buffer and transfer benchmarks: pycl against PyOpenCL on the same device.

    python bench/bench_buffers.py                      # CPython pycl vs PyOpenCL, table
    python bench/bench_buffers.py --pypy /path/pypy    # adds pycl on PyPy, run back to back
    python bench/bench_buffers.py --impl pycl --json out.json   # one implementation

The comparison mode measures pycl and PyOpenCL on CPython in one process,
interleaved operation by operation, and pycl on PyPy against PyOpenCL on
CPython in alternating subprocesses (best of ``--rounds``), on the device whose
platform version contains ``--platform`` (default "3.0-rc2", the pip PoCL:
pycl's embedded default). Ratios are pycl time / PyOpenCL time (< 1: pycl is
faster).
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


def load(impl):
    if impl == "pyopencl":
        import pyopencl as cl
    else:
        import pycl as cl
    if not hasattr(cl, "Buffer"):
        raise SystemExit("%s is not installed" % impl)
    return cl


def operations(cl, platform_match):
    """``[(name, function, calls, repeats, bytes moved or None)]`` on the device."""
    device = next(d for p in cl.get_platforms() if platform_match in p.version for d in p.get_devices())
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    ops = [("Buffer create+release", lambda: cl.Buffer(ctx, mf.READ_WRITE, 4096).release(), 20000, 7, None)]
    for size, label in ((8, "8 B"), (4096, "4 KiB")):
        buf = cl.Buffer(ctx, mf.READ_WRITE, size)
        host = np.zeros(size, np.uint8)
        ops.append(
            ("write %s (blocking)" % label, lambda buf=buf, host=host: cl.enqueue_copy(queue, buf, host), 3000, 7, None)
        )
        ops.append(
            ("read %s (blocking)" % label, lambda buf=buf, host=host: cl.enqueue_copy(queue, host, buf), 3000, 7, None)
        )
    size = 64 * MIB
    big = cl.Buffer(ctx, mf.READ_WRITE, size)
    src = np.ones(size, np.uint8)
    out = np.empty(size, np.uint8)
    ops.append(("write 64 MiB", lambda: cl.enqueue_copy(queue, big, src), 5, 5, size))
    ops.append(("read 64 MiB", lambda: cl.enqueue_copy(queue, out, big), 5, 5, size))
    ops.append(("np.copyto 64 MiB", lambda: np.copyto(out, src), 5, 5, size))
    # a 1024x1024 float32 block out of a 2048-wide float32 buffer
    wide = cl.Buffer(ctx, mf.READ_WRITE, 2048 * 1024 * 4)
    block = np.empty((1024, 1024), np.float32)

    def rect():
        cl.enqueue_copy(
            queue, block, wide, buffer_origin=(4096, 0), host_origin=(0, 0), region=(4096, 1024), buffer_pitches=(8192,)
        )

    ops.append(("rect read 1024x1024 float32", rect, 10, 5, block.nbytes))
    pattern = np.float32(1.5)

    def fill():
        cl.enqueue_fill_buffer(queue, big, pattern, 0, size)
        queue.finish()

    ops.append(("fill 64 MiB", fill, 5, 5, size))
    small = cl.Buffer(ctx, mf.READ_WRITE, 4096)
    flags = cl.map_flags.READ | cl.map_flags.WRITE

    def map_unmap():
        array, _ = cl.enqueue_map_buffer(queue, small, flags, 0, (1024,), np.float32)
        array.base.release()

    ops.append(("map+unmap 4 KiB", map_unmap, 3000, 7, None))
    return device, ops


def measure(sides, rounds=3):
    """``sides``: {label: ops}. Interleaves the sides op by op and repeat by
    repeat, so machine load falls on all of them alike; the best of all."""
    results = {label: {} for label in sides}
    labels = list(sides)
    for index in range(len(sides[labels[0]])):
        for _ in range(rounds):
            for label in labels:
                name, function, calls, repeats, nbytes = sides[label][index]
                seconds = best_mean(function, calls, max(1, repeats // rounds + 1))
                entry = results[label].setdefault(name, {"us": float("inf")})
                if seconds * 1e6 < entry["us"]:
                    entry["us"] = seconds * 1e6
                    if nbytes:
                        entry["GBps"] = nbytes / seconds / 1e9
    return results


def run(impl, platform_match):
    cl = load(impl)
    device, ops = operations(cl, platform_match)
    results = measure({impl: ops})[impl]
    results.update(impl=impl, python=sys.implementation.name, device=device.name, platform=device.platform.version)
    return results


def compare(args):
    # CPython: both libraries in one process, interleaved.
    tables = []
    sides = {}
    for impl in ("pycl", "pyopencl"):
        device, sides[impl] = operations(load(impl), args.platform)
    both = measure(sides)
    for impl in ("pycl", "pyopencl"):
        both[impl].update(impl=impl, python="cpython", device=device.name, platform=device.platform.version)
        tables.append(both[impl])
    # PyPy: pycl in a PyPy subprocess, alternating with PyOpenCL in a
    # CPython subprocess (PyOpenCL has no PyPy build); best of each.
    if args.pypy:
        subprocess_tables = {"pycl/pypy": [], "pyopencl/cpython": []}
        env = dict(os.environ)
        env.setdefault("POCL_CACHE_DIR", tempfile.mkdtemp(prefix="pycl-bench-pocl-"))
        for _ in range(args.rounds):
            for key, python, impl in (
                ("pycl/pypy", args.pypy, "pycl"),
                ("pyopencl/cpython", sys.executable, "pyopencl"),
            ):
                with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
                    path = f.name
                subprocess.run(
                    [python, __file__, "--impl", impl, "--json", path, "--platform", args.platform], check=True, env=env
                )
                with open(path) as f:
                    subprocess_tables[key].append(json.load(f))
                os.unlink(path)
        for key in ("pycl/pypy", "pyopencl/cpython"):
            runs = subprocess_tables[key]
            best = dict(runs[0])
            for name, value in runs[0].items():
                if isinstance(value, dict):
                    best[name] = min((r[name] for r in runs), key=lambda v: v["us"])
            best["impl"] = key + " (subprocess)"
            best["python"] = ""
            tables.append(best)
    base = tables[1]
    names = [k for k in base if isinstance(base[k], dict)]
    heads = [t["impl"] + ("/" + t["python"] if t["python"] else "") for t in tables]
    print("device: %s (%s)" % (base["device"], base["platform"]))
    print(
        "| operation | "
        + " | ".join(h + " us" for h in heads)
        + " | pycl/cpython vs pyopencl (same process) |"
        + (" pycl/pypy vs pyopencl/cpython (alternating processes) |" if args.pypy else "")
    )
    print("|---" * (2 + len(tables) + (1 if args.pypy else 0)) + "|")
    for name in names:
        us = ["%.2f" % t[name]["us"] + (" (%.1f GB/s)" % t[name]["GBps"] if "GBps" in t[name] else "") for t in tables]
        ratios = ["%.2fx" % (tables[0][name]["us"] / tables[1][name]["us"])]
        if args.pypy:
            ratios.append("%.2fx" % (tables[2][name]["us"] / tables[3][name]["us"]))
        print("| %s | %s | %s |" % (name, " | ".join(us), " | ".join(ratios)))
    for t, h in zip(tables, heads):
        limit = t["np.copyto 64 MiB"]["GBps"]
        print(
            "%s: write 64 MiB %.2fx, read 64 MiB %.2fx np.copyto bandwidth (same run)"
            % (h, t["write 64 MiB"]["GBps"] / limit, t["read 64 MiB"]["GBps"] / limit)
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--impl", choices=["pycl", "pyopencl"])
    parser.add_argument("--json")
    parser.add_argument("--pypy", help="a PyPy interpreter with pycl installed, for the back-to-back comparison")
    parser.add_argument("--platform", default="3.0-rc2", help="substring of the platform version (default: pip PoCL)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating subprocess rounds for PyPy")
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
