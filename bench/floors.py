"""The fixed costs under pycl's object and map rows: what a cffi binding pays
before any Python of its own, next to PyOpenCL's whole call.

    python bench/floors.py [--device SPEC] [--repeats N] [--out FILE]

Rows, in microseconds per operation (best of ``--repeats`` batches of at
least 20 ms each):

- for a Buffer of 4 KiB, and for a coarse-grain SVMAllocation of 4 KiB
  where the device has one: the bare shim calls that make and free it, the
  same with the handle owned as pycl owns it (``ffi.gc``, then
  ``ffi.release``), pycl's public create+release, and PyOpenCL's;
- cffi's ownership alone: ``ffi.gc`` and ``ffi.release`` of a NULL handle,
  whose release function does nothing;
- a map's numpy array: ``numpy.asarray`` over an ``__array_interface__``
  (pycl's way, which makes the map the array's ``base``, as PyOpenCL's API
  has it) against ``numpy.frombuffer`` over the same bytes (whose base
  cannot be the map);
- ``dtype.str``, which an array interface needs.

A row "X: pycl / PyOpenCL" divides pycl's whole call by PyOpenCL's; a row
"X: floor / PyOpenCL" divides the bare calls with their ownership, the least
any cffi object over this shim can cost. Run it with each interpreter: PyPy
has no PyOpenCL (its PyOpenCL rows are left out). ``--device`` as in
``bench/run.py``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import timeit
import warnings

import harness
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def best_us(fn, repeats):
    """The best time per call of ``fn`` in microseconds."""
    calls = 1
    while timeit.timeit(fn, number=calls) < 0.02:
        calls *= 4
    return min(timeit.repeat(fn, number=calls, repeat=repeats)) / calls * 1e6


def pyopencl_context(device):
    """PyOpenCL's context on the device pycl measures, or None."""
    ocl, _ = harness.load("pyopencl")
    if ocl is None:
        return None, None
    theirs, _ = harness.match_device(ocl, harness.device_id(device))
    return (ocl, ocl.Context([theirs])) if theirs is not None else (None, None)


def rows(device, repeats):
    import pycl as cl
    from pycl._lib import ffi, lib

    warnings.filterwarnings("ignore", message="an SVM allocation without a queue", category=RuntimeWarning)
    ctx = cl.Context([device])
    ocl, octx = pyopencl_context(device)
    mf, rw = cl.mem_flags, cl.mem_flags.READ_WRITE
    svm_cell = ffi.new("struct pycl_svm *[1]")
    handle, gc, release = ctx._handle, ffi.gc, ffi.release
    new_buffer, release_mem = lib.pycl_buffer_new, lib.pycl_mem_release
    svm_alloc, svm_free, null = lib.pycl_svm_alloc, lib.pycl_svm_free, ffi.NULL
    table = []

    def add(name, fn):
        table.append((name, best_us(fn, repeats) if fn else None))

    cl_mem, cast = ffi.typeof("cl_mem"), ffi.cast

    # pycl_buffer_new returns the buffer's address (the rows' creations
    # succeed: a failure would return a negative CL status).
    def buffer_bare():
        release_mem(cast(cl_mem, new_buffer(handle, rw, 4096)))

    def buffer_owned():
        release(gc(cast(cl_mem, new_buffer(handle, rw, 4096)), release_mem))

    add("Buffer 4 KiB: bare shim calls", buffer_bare)
    add("Buffer 4 KiB: bare calls + ownership (floor)", buffer_owned)
    add("Buffer 4 KiB: pycl create+release", lambda: cl.Buffer(ctx, rw, 4096).release())
    add("Buffer 4 KiB: PyOpenCL create+release", octx and (lambda: ocl.Buffer(octx, mf.READ_WRITE, 4096).release()))

    svm = cl.svm_mem_flags.READ_WRITE
    if device.cl_version >= (2, 0) and device.svm_capabilities:

        def svm_bare():
            svm_alloc(handle, svm, 4096, 0, null, svm_cell)
            svm_free(svm_cell[0])

        def svm_owned():
            svm_alloc(handle, svm, 4096, 0, null, svm_cell)
            release(gc(svm_cell[0], svm_free))

        add("SVMAllocation 4 KiB: bare shim calls", svm_bare)
        add("SVMAllocation 4 KiB: bare calls + ownership (floor)", svm_owned)
        add("SVMAllocation 4 KiB: pycl create+release", lambda: cl.SVMAllocation(ctx, 4096, 0, svm).release())
        add(
            "SVMAllocation 4 KiB: PyOpenCL create+release",
            octx and (lambda: ocl.SVMAllocation(octx, 4096, 0, ocl.svm_mem_flags.READ_WRITE).release()),
        )

    null_mem = ffi.cast("cl_mem", 0)
    add("cffi ownership alone: ffi.gc + ffi.release", lambda: release(gc(null_mem, release_mem)))

    class Interface:
        __slots__ = ("__array_interface__", "__weakref__")

    host = np.zeros(1024, np.float32)
    address, raw, typestr = host.ctypes.data, memoryview(host).cast("B"), host.dtype.str

    def through_interface():
        holder = Interface()
        holder.__array_interface__ = {"shape": (1024,), "typestr": typestr, "data": (address, False), "version": 3}
        return np.asarray(holder)

    add("array over 4 KiB: numpy.asarray(__array_interface__)", through_interface)
    add("array over 4 KiB: numpy.frombuffer", lambda: np.frombuffer(raw, np.float32))
    dtype = host.dtype
    add("numpy dtype.str", lambda: dtype.str)
    return table


def ratios(table):
    """The pycl / PyOpenCL and floor / PyOpenCL rows of each object."""
    times = dict(table)
    out = []
    for what in ("Buffer 4 KiB", "SVMAllocation 4 KiB"):
        theirs = times.get(what + ": PyOpenCL create+release")
        if not theirs:
            continue
        out.append((what + ": pycl / PyOpenCL", times[what + ": pycl create+release"] / theirs))
        out.append((what + ": floor / PyOpenCL", times[what + ": bare calls + ownership (floor)"] / theirs))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="", help="as bench/run.py's --device")
    parser.add_argument("--repeats", type=int, default=7, help="batches per row; each figure is the best (default 7)")
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args()
    import pycl as cl

    device = harness.select_device(cl, args.device)
    table = rows(device, args.repeats)
    lines = [
        "- device: %s (%s)" % (device.name, device.platform.version.strip()),
        "- %s %s, numpy %s, host %s"
        % (sys.implementation.name, platform.python_version(), np.__version__, platform.machine()),  # fmt: skip
        "",
        "| operation | us |",
        "|---|---|",
    ]
    lines += ["| %s | %s |" % (name, "-" if t is None else "%.3f" % t) for name, t in table]
    lines += ["| %s | %.2fx |" % (name, r) for name, r in ratios(table)]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
