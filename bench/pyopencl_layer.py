"""PyOpenCL's Python layer over pycl against PyOpenCL itself: the array
operations PyOpenCL's users call most, side by side.

    python bench/pyopencl_layer.py --layer DIR [--pypy PYPY] [--device TEXT]
        [--sizes 1024,1048576] [--rounds 3] [--out FILE]

``DIR`` holds the layer (``python -m pycl.pyopencl_layer install --target
DIR``); this interpreter must have PyOpenCL installed for the reference side.
The two sides cannot share a process (both are ``pyopencl``), so each runs in
child processes, back to back per round: the layer on this CPython, PyOpenCL
on this CPython, and the layer on ``--pypy`` if given (a PyPy 3.10+ with pycl
and the layer's dependencies). Every figure is the best over the rounds of
the best of 7 batches of about 50 ms (mean per call, each batch ending with
``queue.finish()``); ratios are layer / PyOpenCL on CPython (below 1: the
layer is faster). ``--device``: a substring of the device's platform name,
platform version or device name (default: the first device).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

OPERATIONS = (
    "to_device",
    "get",
    "a + b",
    "2*a + 1",
    "sum",
    "dot",
    "take",
    "ElementwiseKernel launch",
    "clrandom fill",
)


def _child(device_text: str, sizes: list[int]) -> dict[str, float]:
    import numpy as np
    import pyopencl as cl
    import pyopencl.array as cla
    import pyopencl.clrandom as clr
    from pyopencl.elementwise import ElementwiseKernel

    device = next(
        d
        for p in cl.get_platforms()
        for d in p.get_devices()
        if not device_text or device_text in p.name or device_text in p.version or device_text in d.name
    )
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    axpy = ElementwiseKernel(ctx, "float s, float *x, float *y", "y[i] = s * x[i] + y[i]")
    results = {"device": "%s (%s)" % (device.name, device.platform.version)}
    for n in sizes:
        for name, fn in _operations(np, cla, clr, axpy, ctx, queue, n).items():
            results["%s|%d" % (name, n)] = _best(fn, queue)
    return results


def _operations(np, cla, clr, axpy, ctx, queue, n: int) -> dict:
    """The calls timed, over arrays of ``n`` float32 elements."""
    host = np.arange(n, dtype=np.float32)
    a = cla.to_device(queue, host)
    b = cla.to_device(queue, host[::-1].copy())
    out = np.empty_like(host)
    index = cla.to_device(queue, np.arange(0, n, 3, dtype=np.int32))
    gen = clr.PhiloxGenerator(ctx)
    # Transfers last: a run of large ones first (pycl stages them through
    # pinned memory) slowed the kernels after them on an H100.
    return {
        "a + b": lambda: a + b,
        "2*a + 1": lambda: 2 * a + 1,
        "sum": lambda: cla.sum(a),
        "dot": lambda: cla.dot(a, b),
        "take": lambda: cla.take(a, index),
        "ElementwiseKernel launch": lambda: axpy(np.float32(0.5), a, b),
        "clrandom fill": lambda: gen.fill_uniform(b),
        "to_device": lambda: cla.to_device(queue, host),
        "get": lambda: a.get(ary=out),
    }


def _best(fn, queue, repeats: int = 7, batch_s: float = 0.05) -> float:
    # Warm-up: kernels built, caches filled, and PyPy's JIT at work (it
    # compiles a loop after about a thousand passes).
    start = time.perf_counter()
    for done in range(3000):
        fn()
        if done >= 3 and time.perf_counter() - start > 0.5:
            break
    queue.finish()
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        queue.finish()
        took = time.perf_counter() - start
        if took >= batch_s / 4 or calls >= 1 << 16:
            break
        calls *= 4
    calls = max(1, int(calls * batch_s / max(took, 1e-9)))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        queue.finish()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def _run(python: str, layer: str | None, device: str, sizes: list[int]) -> dict[str, float]:
    # Both sides keep this process's path (where PyOpenCL may be installed);
    # the layer's directory goes first on the layer's side.
    env = dict(os.environ)
    if layer:
        env["PYTHONPATH"] = layer + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    command = [python, os.path.abspath(__file__), "--child", "--device", device, "--sizes", ",".join(map(str, sizes))]
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd="/")
    if done.returncode:
        raise SystemExit("%s failed:\n%s" % (" ".join(command), done.stderr[-3000:]))
    return json.loads(done.stdout.strip().splitlines()[-1])


def _time_text(seconds: float) -> str:
    return "%.2f us" % (seconds * 1e6) if seconds < 1e-3 else "%.3f ms" % (seconds * 1e3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layer", help="the layer's directory (python -m pycl.pyopencl_layer install --target)")
    parser.add_argument("--pypy", help="a PyPy 3.10+ with pycl and the layer's dependencies")
    parser.add_argument("--device", default="", help="platform name/version or device name substring")
    parser.add_argument("--sizes", default="1024,1048576", help="float32 elements per array, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", help="also write the table (Markdown) here")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.child:
        print(json.dumps(_child(args.device, sizes)))
        return 0
    if not args.layer:
        parser.error("--layer is required")

    sides = [("layer CPython", sys.executable, args.layer), ("PyOpenCL CPython", sys.executable, None)]
    if args.pypy:
        sides.append(("layer PyPy", args.pypy, args.layer))
    best: dict[str, dict[str, float]] = {}
    device = ""
    for _ in range(args.rounds):
        for label, python, layer in sides:
            result = _run(python, layer, args.device, sizes)
            device = str(result.pop("device"))
            for key, seconds in result.items():
                mine = best.setdefault(label, {})
                mine[key] = min(mine.get(key, float("inf")), seconds)

    header = ["operation", "elements"] + [label for label, _, _ in sides] + ["layer / PyOpenCL"]
    if args.pypy:
        header.append("layer PyPy / PyOpenCL")
    lines = [
        "- device: %s; host: %s, %d CPUs" % (device, platform.processor() or platform.machine(), os.cpu_count() or 0),
        "- command: python bench/pyopencl_layer.py %s" % " ".join(argv if argv is not None else sys.argv[1:]),
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    reference = best["PyOpenCL CPython"]
    for n in sizes:
        for op in OPERATIONS:
            key = "%s|%d" % (op, n)
            row = [op, str(n)] + [_time_text(best[label][key]) for label, _, _ in sides]
            row.append("%.2fx" % (best["layer CPython"][key] / reference[key]))
            if args.pypy:
                row.append("%.2fx" % (best["layer PyPy"][key] / reference[key]))
            lines.append("| " + " | ".join(row) + " |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
