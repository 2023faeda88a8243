"""PyOpenCL's Python layer over pycl against PyOpenCL itself: the array
operations PyOpenCL's users call most, side by side.

    python bench/pyopencl_layer.py --layer DIR [--pypy PYPY] [--device TEXT]
        [--sizes 1024,1048576] [--rounds 3] [--out FILE]

``DIR`` holds the layer (``python -m pycl.pyopencl_layer install --target
DIR``); this interpreter must have PyOpenCL installed for the reference side.
The two sides cannot share a process (both are ``pyopencl``), so each runs in
child processes, back to back per round: the layer on this CPython, PyOpenCL
on this CPython, and the layer on ``--pypy`` if given (a PyPy 3.10+ with pycl
and the layer's dependencies). ``--floor`` adds the layer once more on each
interpreter with every ``_cl`` call that reaches the driver replaced by a
no-op (``_floor``): what PyOpenCL's own Python costs there around ``_cl``, a
bound below which no ``_cl`` can take the layer. Every figure is the best over the rounds of
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
# The ElementwiseKernel launched: its arguments and operation.
AXPY = ("float s, float *x, float *y", "y[i] = s * x[i] + y[i]")


def _child(device_text: str, sizes: list[int], floor: bool) -> dict[str, float]:
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
    axpy = ElementwiseKernel(ctx, *AXPY)
    results = {"device": "%s (%s)" % (device.name, device.platform.version)}
    for n in sizes:
        operations = layer_operations(np, cla, clr, axpy, ctx, queue, n)
        if floor:
            for fn in operations.values():
                fn()  # kernels built, with the driver, before it goes
            _floor(cl, queue)
        for name, fn in operations.items():
            results["%s|%d" % (name, n)] = _best(fn, queue)
    return results


def _floor(cl, queue) -> None:
    """Replace, in the layer, every call the operations make that reaches
    the driver by a no-op returning a complete event (kernel arguments,
    launches, reads, writes, waits), and each new array's Buffer by one made
    before. What is left is PyOpenCL's own Python (with numpy), the cached
    properties it reads (``queue.context``, ``queue.device``) and the
    no-ops' own calls (a Python call each, as any ``_cl`` call costs at
    least). Irreversible: only in a child."""
    import pyopencl._cl as _cl

    done = cl.enqueue_marker(queue)
    done.wait()

    def no_call(*args, **kwargs):
        return done

    for name in ("enqueue_nd_range_kernel", "_enqueue_read_buffer", "_enqueue_write_buffer", "wait_for_events"):
        setattr(_cl, name, no_call)
    cl.wait_for_events = no_call  # Array.add_event's waits
    for name in ("_set_arg_multi", "_set_arg_buf_multi", "_set_arg_buf_pack_multi"):
        setattr(_cl.Kernel, name, no_call)
    made = {}
    make = cl.Buffer

    def buffer(context, flags, size, hostbuf=None):  # Array's one use of cl.Buffer
        if size not in made:
            made[size] = make(context, flags, size, hostbuf)
        return made[size]

    cl.Buffer = buffer


def layer_operations(np, cla, clr, axpy, ctx, queue, n: int) -> dict:
    """The calls timed, over arrays of ``n`` float32 elements (also counted
    by ``bench/instructions.py --layer``); ``axpy`` is an ElementwiseKernel
    of ``AXPY``."""
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


def _run(python: str, layer: str | None, device: str, sizes: list[int], floor: bool = False) -> dict[str, float]:
    # Both sides keep this process's path (where PyOpenCL may be installed);
    # the layer's directory goes first on the layer's side.
    env = dict(os.environ)
    if layer:
        env["PYTHONPATH"] = layer + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    command = [python, os.path.abspath(__file__), "--child", "--device", device, "--sizes", ",".join(map(str, sizes))]
    if floor:
        command.append("--floor")
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
    parser.add_argument("--floor", action="store_true", help="also the layer with _cl's driver calls as no-ops")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.child:
        print(json.dumps(_child(args.device, sizes, args.floor)))
        return 0
    if not args.layer:
        parser.error("--layer is required")

    sides = [("layer CPython", sys.executable, args.layer, False), ("PyOpenCL CPython", sys.executable, None, False)]
    if args.pypy:
        sides.append(("layer PyPy", args.pypy, args.layer, False))
    if args.floor:
        sides.append(("floor CPython", sys.executable, args.layer, True))
        if args.pypy:
            sides.append(("floor PyPy", args.pypy, args.layer, True))
    best: dict[str, dict[str, float]] = {}
    device = ""
    for _ in range(args.rounds):
        for label, python, layer, floor in sides:
            result = _run(python, layer, args.device, sizes, floor)
            device = str(result.pop("device"))
            for key, seconds in result.items():
                mine = best.setdefault(label, {})
                mine[key] = min(mine.get(key, float("inf")), seconds)

    ratios = [label for label, _, _, _ in sides if label != "PyOpenCL CPython"]
    header = ["operation", "elements"] + [label for label, _, _, _ in sides] + ["%s / PyOpenCL" % r for r in ratios]
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
            row = [op, str(n)] + [_time_text(best[label][key]) for label, _, _, _ in sides]
            row += ["%.2fx" % (best[label][key] / reference[key]) for label in ratios]
            lines.append("| " + " | ".join(row) + " |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
