"""The calls PyOpenCL's Python layer makes into its compiled module ``_cl``,
timed one by one: pycl's ``pycl.pyopencl_cl`` against PyOpenCL's own
``pyopencl._cl``, interleaved in one process on one device.

    python bench/layer_calls.py [--device SPEC] [--repeats N] [--out FILE]

Each small operation of ``pyopencl.array`` (``bench/pyopencl_layer.py``) is
PyOpenCL's Python, the same on both sides, around a few of these calls: a
``Buffer`` for the result, the three calls of a kernel's generated invoker
(``_set_arg_multi`` with the arrays' buffers, ``_set_arg_buf_pack_multi``
with their offsets and the scalars, ``enqueue_nd_range_kernel`` with the
arrays' events), and a read or write for ``get`` and ``to_device``. So
their differences are the whole difference between the layer over pycl and
PyOpenCL. The rows make the calls as the generated code makes them (flat
tuples, positional arguments); the invoker itself cannot run in this
process for pycl's side, since it imports PyOpenCL's ``_cl``.

On PoCL's CPU devices, ``POCL_DEVICES=basic`` runs each command in the
calling thread, without the worker threads whose wake-ups make small calls
noisy there (docs/quirks.md): the driver's share becomes small and steady,
and the Python of both sides shows.
"""

import harness
import numpy as np

# The arguments of PyOpenCL's elementwise kernels: out, its offset, an input,
# its offset, a scalar, the element count.
SOURCE = """
__kernel void k(__global float *out, long out_offset, __global const float *a, long a_offset, float s, long n)
{
    long i = get_global_id(0);
    if (i < n) out[out_offset / 4 + i] = s * a[a_offset / 4 + i];
}
"""
N = 1024
SIZES = ((64,), (32,))  # a launch small enough that the driver's share stays small

ROWS = [
    "Buffer 4 KiB made and dropped",
    "_enqueue_write_buffer 4 KiB, no events (to_device)",
    "_enqueue_read_buffer 4 KiB, 2 events (get)",
    "_set_arg_multi, the same two buffers",
    "_set_arg_multi, a new output buffer (made in the row)",
    "_set_arg_buf_pack_multi, 2 offsets and 2 scalars",
    "enqueue_nd_range_kernel, the same size tuples, 1 event",
    "enqueue_nd_range_kernel, new size tuples, 3 events",
    "the invoker's three calls (same buffers, 1 event)",
    "_enqueue_marker_with_wait_list, 2 events",
]


def kernel(s, program):
    """The module's Kernel with its invoker calls: PyOpenCL's native one, or
    pycl.pyopencl_cl's set up as pycl.Kernel (no invoker, which would import
    PyOpenCL's _cl into pycl's side)."""
    if s.is_pycl:
        from pycl import pyopencl_cl

        knl = pyopencl_cl.Kernel.__new__(pyopencl_cl.Kernel)
        s.cl.Kernel.__init__(knl, program, "k")
        return knl
    return s.cl._cl.Kernel(program._get_prg(), "k")


def modules(s):
    """(``_cl``, a built program of SOURCE) for one side."""
    if s.is_pycl:
        from pycl import pyopencl_cl

        return pyopencl_cl, pyopencl_cl._Program(s.ctx, SOURCE).build()
    return s.cl._cl, s.cl.Program(s.ctx, SOURCE).build()


def operations(s):
    cl, ctx, queue = s.cl, s.ctx, s.queue
    _cl, program = modules(s)
    rw = cl.mem_flags.READ_WRITE
    out, a = _cl.Buffer(ctx, rw, 4 * N), _cl.Buffer(ctx, rw, 4 * N)
    host = np.zeros(N, np.float32)
    knl = kernel(s, program)
    knl._set_arg_multi((0, out, 2, a))
    knl._set_arg_buf_pack_multi((1, b"l", 0, 3, b"l", 0, 4, b"f", 2.0, 5, b"l", N))
    done = _cl._enqueue_marker(queue)
    done.wait()
    one, two, three = [done], [done, done], [done, done, done]
    global_size, local_size = SIZES
    counts = [64, 32]

    kept = [out]

    def new_output():
        # PyOpenCL's kernels keep no argument alive (pycl's do): the caller
        # holds the buffer, as a pyopencl.array.Array holds its base_data,
        # or PyOpenCL's next launch would use a freed buffer
        kept[0] = _cl.Buffer(ctx, rw, 4 * N)
        knl._set_arg_multi((0, kept[0], 2, a))

    def invoker():
        knl._set_arg_multi((0, out, 2, a))
        knl._set_arg_buf_pack_multi((1, b"l", 0, 3, b"l", 0, 4, b"f", 2.0, 5, b"l", N))
        return _cl.enqueue_nd_range_kernel(queue, knl, global_size, local_size, None, one, False, False)

    functions = [
        lambda: _cl.Buffer(ctx, rw, 4 * N),
        lambda: _cl._enqueue_write_buffer(queue, out, host, 0, [], True),
        lambda: _cl._enqueue_read_buffer(queue, out, host, 0, two, True),
        lambda: knl._set_arg_multi((0, out, 2, a)),
        new_output,  # (the rows after it set out again, or launch into its last buffer)
        lambda: knl._set_arg_buf_pack_multi((1, b"l", 0, 3, b"l", 0, 4, b"f", 2.0, 5, b"l", N)),
        lambda: _cl.enqueue_nd_range_kernel(queue, knl, global_size, local_size, None, one, False, False),
        lambda: _cl.enqueue_nd_range_kernel(queue, knl, (counts[0],), (counts[1],), None, three, False, False),
        invoker,
        lambda: _cl._enqueue_marker_with_wait_list(queue, two),
    ]
    return [harness.Op(name, fn) for name, fn in zip(ROWS, functions)]


def main():
    args = harness.small_call_parser(__doc__.split("\n\n")[0]).parse_args()

    pycl, why = harness.load("pycl")
    if pycl is None:
        raise SystemExit(why)
    pyopencl, why = harness.load("pyopencl")
    if pyopencl is None:
        raise SystemExit("PyOpenCL is needed for the other side: %s" % why)
    device = harness.select_device(pycl, args.device)
    their_device, why = harness.match_device(pyopencl, harness.device_id(device))
    if their_device is None:
        raise SystemExit("PyOpenCL does not see the device: %s" % why)
    mine = harness.Setup(pycl, "pycl", device, 0)
    theirs = harness.Setup(pyopencl, "pyopencl", their_device, 0)
    sides = {"pycl": (mine, operations(mine)), "PyOpenCL": (theirs, operations(theirs))}
    results = harness.measure(sides, args.repeats, args.batch_ms / 1000, "", args.warmup_ms / 1000)

    lines = harness.small_call_header(
        "PyOpenCL's _cl calls: pycl.pyopencl_cl against pyopencl._cl", device, args, "layer_calls.py"
    ) + [
        "| call | pycl | PyOpenCL | pycl - PyOpenCL | pycl / PyOpenCL |",
        "|---|---|---|---|---|",
    ]
    for i, name in enumerate(ROWS):
        mine_us, theirs_us = _us(results["pycl"][i]), _us(results["PyOpenCL"][i])
        cells = [name, "%.2f" % mine_us, "%.2f" % theirs_us, "%.2f" % (mine_us - theirs_us)]
        cells.append("%.2fx" % (mine_us / theirs_us))
        lines.append("| " + " | ".join(cells) + " |")
    harness.emit("\n".join(lines) + "\n", args.out)


def _us(entry):
    return entry["s"] * 1e6


if __name__ == "__main__":
    main()
