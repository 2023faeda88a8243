"""Instructions per call (valgrind's callgrind) of pycl's and PyOpenCL's
small calls, by component: where a call's time goes, free of the host's noise.

    python bench/instructions.py [--device SPEC] [--calls N] [--only ROW,...] [--out FILE]
    python bench/instructions.py --layer DIR [same options]

A sub-microsecond call's timing moves by 10-50% from run to run on a shared
host; its instruction count does not. Each row of ``python_share.py`` (its
kernel launches left out: a kernel compiled under callgrind takes minutes)
runs in a child process under callgrind twice, once with N calls and once
with none, each after the same 300 warm-up calls and with PYTHONHASHSEED=0,
so that imports, caches and one-time set-up count in neither; the
difference divided by N is one call.

An instruction counts where it ran: the interpreter's bytecode loop
(``_PyEval_EvalFrameDefault``), the rest of the interpreter (objects, calls,
dictionaries), cffi, pycl's shim, PyOpenCL's compiled module, numpy, and
everything else (the OpenCL driver, libc). Counts are CPython's: under
PyPy's JIT callgrind measures the JIT, not the code.

With ``--layer DIR`` the rows are ``bench/pyopencl_layer.py``'s array
operations (1 Ki float32 elements), counted for PyOpenCL's Python layer over
pycl (installed in ``DIR`` by ``python -m pycl.pyopencl_layer install``)
and for PyOpenCL itself. Each row first runs once without callgrind, so
that its kernels are built and cached on disk (by the driver and by
PyOpenCL's program cache) before either counted run: a build in one of the
two would count in the difference.

Needs valgrind (``apt-get install valgrind``).
"""

import argparse
import ast
import os
import re
import subprocess
import sys
import tempfile

import harness
import pyopencl_layer
import python_share

WARM_UP = 300
COMPONENTS = ["bytecode loop", "interpreter", "cffi", "pycl shim", "PyOpenCL C++", "numpy", "driver, libc, other"]
# The shared object (or source file) of a function, in callgrind_annotate's
# listing, to its component; the first match counts. PoCL installed by pip
# lives in site-packages/pyopencl/.libs, hence the driver before PyOpenCL.
_WHERE = [
    ("_cffi_backend", "cffi"),
    ("/pycl/_lib", "pycl shim"),
    ("cl_shim/", "pycl shim"),
    ("pocl", "driver, libc, other"),
    ("oclgrind", "driver, libc, other"),
    ("pyopencl/_cl", "PyOpenCL C++"),
    ("numpy", "numpy"),
    ("libpython", "interpreter"),
    ("Python-3", "interpreter"),
    ("/bin/python", "interpreter"),
]


def rows():
    """The rows of python_share.py that run without a kernel."""
    return [name for name in python_share.ROWS if not name.startswith("kernel launch")]


def layer_child(row, calls, ident):
    """Run the array operation ``row`` of whichever ``pyopencl`` is first
    on the path (the layer or PyOpenCL) WARM_UP + ``calls`` times."""
    import numpy as np
    import pyopencl as cl
    import pyopencl.array as cla
    import pyopencl.clrandom as clr
    from pyopencl.elementwise import ElementwiseKernel

    platform = next(p for p in cl.get_platforms() if (p.name.strip(), p.version.strip()) == ident[:2])
    ctx = cl.Context([platform.get_devices()[ident[2]]])
    queue = cl.CommandQueue(ctx)
    axpy = ElementwiseKernel(ctx, *pyopencl_layer.AXPY)
    fn = pyopencl_layer.layer_operations(np, cla, clr, axpy, ctx, queue, 1024)[row]
    for count in (WARM_UP, calls):
        for _ in range(count):
            fn()
        queue.finish()


def child(lib_name, row, calls, ident):
    """Run ``row`` of ``lib_name`` WARM_UP + ``calls`` times on the device
    ``ident`` (platform name, platform version, place in the platform)."""
    if row in pyopencl_layer.OPERATIONS:
        return layer_child(row, calls, ident)
    cl, why = harness.load(lib_name)
    if cl is None:
        raise SystemExit(why)
    # By platform and place: under valgrind a CPU device's name changes
    # (PoCL names the CPU model, and valgrind shows it an older one).
    platform = next(p for p in cl.get_platforms() if (p.name.strip(), p.version.strip()) == ident[:2])
    device = platform.get_devices()[ident[2]]
    s = harness.Setup(cl, lib_name, device, 0)
    op = next(op for op in python_share.public_ops(s, launches=False) if op.name == row)
    if op.skip:
        raise SystemExit("skipped: %s" % op.skip)
    for count in (WARM_UP, calls):
        for _ in range(count):
            op.fn()
        s.queue.finish()


def component(line):
    """The component of one function line of callgrind_annotate."""
    if "_PyEval_EvalFrameDefault" in line:
        return "bytecode loop"
    for pattern, name in _WHERE:
        if pattern in line:
            return name
    return "driver, libc, other"


def counted(lib_name, row, calls, ident, folder, layer=None, grind=True):
    """Instructions by component of a child making ``calls`` calls (with
    ``layer``: the layer's directory first on its path; without ``grind``:
    the child runs without callgrind, and None is returned)."""
    out = os.path.join(folder, "callgrind.out")
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    if layer:
        env["PYTHONPATH"] = layer + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    command = [sys.executable, os.path.abspath(__file__), "--child", lib_name, row, str(calls), repr(ident)]
    if grind:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + command
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode:
        said = [line for line in done.stderr.splitlines() if line.strip() and not line.startswith("==")]
        raise RuntimeError(said[-1] if said else "failed (%d)" % done.returncode)
    if not grind:
        return None
    listing = subprocess.run(
        ["callgrind_annotate", "--auto=no", "--threshold=100", out], capture_output=True, text=True, check=True
    ).stdout
    totals = dict.fromkeys(COMPONENTS, 0)
    for line in listing.splitlines():
        match = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)", line)
        if match and not match.group(2).startswith("PROGRAM TOTALS"):
            totals[component(match.group(2))] += int(match.group(1).replace(",", ""))
    return totals


def per_call(lib_name, row, calls, ident, folder, layer=None):
    """Instructions per call by component, or the reason there are none."""
    try:
        if row in pyopencl_layer.OPERATIONS:
            counted(lib_name, row, 0, ident, folder, layer, grind=False)  # kernels built and cached
        none = counted(lib_name, row, 0, ident, folder, layer)
        some = counted(lib_name, row, calls, ident, folder, layer)
    except RuntimeError as error:
        return str(error)
    return {k: (some[k] - none[k]) / calls for k in COMPONENTS}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="", help="as bench/run.py's --device")
    parser.add_argument("--calls", type=int, default=2000, help="calls counted per row (default 2000)")
    parser.add_argument("--only", help="comma-separated row names (default: every row without a kernel)")
    parser.add_argument("--out", help="also write the table to this Markdown file")
    parser.add_argument(
        "--layer", metavar="DIR", help="count the array operations of PyOpenCL's layer over pycl installed in DIR"
    )
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        lib_name, row, calls, ident = args.child
        return child(lib_name, row, int(calls), ast.literal_eval(ident))

    pycl, why = harness.load("pycl")
    if pycl is None:
        raise SystemExit(why)
    device = harness.select_device(pycl, args.device)
    platform = device.platform
    place = next(i for i, d in enumerate(platform.get_devices()) if d.int_ptr == device.int_ptr)
    ident = (platform.name.strip(), platform.version.strip(), place)
    libs = ["pycl"] + (["pyopencl"] if harness.load("pyopencl")[0] is not None else [])
    names = args.only.split(",") if args.only else rows()
    if args.layer:
        libs = ["layer"] + libs[1:]
        names = args.only.split(",") if args.only else list(pyopencl_layer.OPERATIONS)
    lines = [
        "# Instructions per call, %s (%s)" % (device.name.strip(), ident[1]),
        "",
        "- command: python bench/instructions.py %s" % " ".join(sys.argv[1:]),
        "- callgrind, %d calls minus none after %d warm-up calls, PYTHONHASHSEED=0; thousands of instructions"
        % (args.calls, WARM_UP),
        "",
        "| operation | library | total | " + " | ".join(COMPONENTS) + " |",
        "|---|---|---|" + "---|" * len(COMPONENTS),
    ]
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            for lib_name in libs:
                print("  %s: %s" % (name, lib_name), file=sys.stderr)
                counts = per_call(
                    lib_name, name, args.calls, ident, folder, args.layer if lib_name == "layer" else None
                )
                if isinstance(counts, str):
                    lines.append("| %s | %s | %s |" % (name, lib_name, counts))
                    continue
                cells = [sum(counts.values())] + [counts[k] for k in COMPONENTS]
                lines.append("| %s | %s | %s |" % (name, lib_name, " | ".join("%.1f" % (c / 1000) for c in cells)))
    harness.emit("\n".join(lines), args.out)


if __name__ == "__main__":
    main()
