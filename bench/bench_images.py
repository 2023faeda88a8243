"""Image benchmarks: pycl against PyOpenCL on the same device, back to back.

    python bench/bench_images.py                      # CPython pycl vs PyOpenCL, table
    python bench/bench_images.py --pypy /path/pypy    # adds pycl on PyPy
    python bench/bench_images.py --impl pycl --json out.json   # one implementation
    python bench/bench_images.py --rounds 5           # more alternating rounds (default 3)

Each implementation runs in its own subprocess on the device whose platform
version contains ``--platform`` (default "3.0-rc2", the pip PoCL). Reported:
the best mean time per operation and the ratio to PyOpenCL on CPython (< 1:
pycl is faster). Operations:

- ``image_from_array`` of a 512x512 RGBA uint8 array (1 MiB: create, copy
  in, release);
- a full blocking read back of that image into a numpy array;
- ``create_image`` of a 512x512 RGBA8 image without host memory + release;
- a 16x16 sub-region write and read (small transfers: Python overhead);
- ``enqueue_fill_image`` of the whole image;
- ``enqueue_map_image`` of the whole image + release of the map;
- ``Sampler`` create + release.

Compare figures of one run only (PoCL's timings move with machine load).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


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
    device = next(d for p in cl.get_platforms() if platform_match in p.version for d in p.get_devices())
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    results = {
        "impl": impl,
        "python": sys.implementation.name,
        "device": device.name,
        "platform": device.platform.version,
    }

    def record(name, seconds):
        results[name] = {"us": seconds * 1e6}

    rgba = np.random.default_rng(0).integers(0, 256, (512, 512, 4), dtype=np.uint8)
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)

    def from_array():
        cl.image_from_array(ctx, rgba, 4).release()

    record("image_from_array 512x512 RGBA8", best_mean(from_array, 50))

    img = cl.image_from_array(ctx, rgba, 4)
    out = np.empty_like(rgba)

    def read_back():
        cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(512, 512))

    record("read back 512x512 RGBA8", best_mean(read_back, 100))
    assert np.array_equal(out, rgba)

    def create_release():
        cl.create_image(ctx, mf.READ_WRITE, fmt, (512, 512)).release()

    record("create_image 512x512 + release", best_mean(create_release, 200))

    small = rgba[:16, :16].copy()
    rw = cl.create_image(ctx, mf.READ_WRITE, fmt, (512, 512))

    def small_write():
        cl.enqueue_copy(queue, rw, small, origin=(100, 200), region=(16, 16))

    def small_read():
        cl.enqueue_copy(queue, small, rw, origin=(100, 200), region=(16, 16))

    record("write 16x16 region", best_mean(small_write, 500))
    record("read 16x16 region", best_mean(small_read, 500))

    color = np.array([1, 2, 3, 4], np.uint32)

    def fill():
        cl.enqueue_fill_image(queue, rw, color, (0, 0), (512, 512)).wait()

    record("fill 512x512", best_mean(fill, 50))

    def map_unmap():
        # PyOpenCL returns (array, event, row_pitch, slice_pitch); pycl (array, event)
        ary = cl.enqueue_map_image(queue, rw, cl.map_flags.READ, (0, 0), (512, 512), (512, 512, 4), np.uint8)[0]
        ary.base.release().wait()

    record("map+unmap 512x512", best_mean(map_unmap, 200))

    def sampler():
        s = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP, cl.filter_mode.NEAREST)
        if hasattr(s, "release"):  # PyOpenCL's Sampler has none: it releases when collected
            s.release()

    record("Sampler create+release", best_mean(sampler, 1000))
    queue.finish()
    return results


def compare(args):
    runs = [("pyopencl", sys.executable, "CPython"), ("pycl", sys.executable, "CPython")]
    if args.pypy:
        runs.append(("pycl", args.pypy, "PyPy"))
    env = dict(os.environ)
    env.setdefault("POCL_CACHE_DIR", tempfile.mkdtemp(prefix="pycl-bench-"))
    # Rounds alternate the implementations, and each figure is the best over
    # the rounds, so that load from other processes hits both alike.
    tables = [None] * len(runs)
    for _ in range(args.rounds):
        for i, (impl, python, _) in enumerate(runs):
            with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
                path = f.name
            subprocess.run(
                [python, __file__, "--impl", impl, "--json", path, "--platform", args.platform], check=True, env=env
            )
            with open(path) as f:
                table = json.load(f)
            os.unlink(path)
            if tables[i] is None:
                tables[i] = table
            else:
                for name, value in table.items():
                    if isinstance(value, dict) and value["us"] < tables[i][name]["us"]:
                        tables[i][name] = value
    base = tables[0]
    print("device: %s (%s)" % (base["device"], base["platform"]))
    header = "%-34s %14s" % ("operation", "PyOpenCL us")
    for impl, _, python in runs[1:]:
        header += " %14s %7s" % ("%s/%s us" % (impl, python), "ratio")
    print(header)
    for name in [k for k in base if isinstance(base[k], dict)]:
        line = "%-34s %14.2f" % (name, base[name]["us"])
        for table in tables[1:]:
            line += " %14.2f %7.2f" % (table[name]["us"], table[name]["us"] / base[name]["us"])
        print(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--impl", choices=["pycl", "pyopencl"])
    parser.add_argument("--json")
    parser.add_argument("--pypy", help="a PyPy interpreter with pycl installed, for the back-to-back comparison")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per implementation")
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
