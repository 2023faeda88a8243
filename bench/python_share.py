"""Where a small operation's time goes: pycl, the same shim calls made bare
from Python, and PyOpenCL, interleaved in one process on one device.

    python bench/python_share.py [--device SPEC] [--repeats N] [--out FILE]

For each driver-bound small operation and object, three columns:

- ``pycl``: the public call, as ``bench/run.py`` times it;
- ``shim bare``: the shim calls that pycl's call ends in, issued straight
  through ``pycl._lib`` with every argument prepared beforehand (no checks,
  no Python objects): the floor of a cffi binding over this shim;
- ``PyOpenCL``: the public call.

``pycl - bare`` is the Python layer's own cost (checks, objects, the numpy
array of a map); ``bare / PyOpenCL`` is what the driver calls themselves cost
through the shim against PyOpenCL's C++ route. A row where ``bare / PyOpenCL``
is near 1 and pycl is over it is Python-bound; one where the bare calls
already miss is bound by the driver call pattern.

The kernel launch rows are ``bench_kernels.py``'s, with ``pycl_launch_1d``
over the kernel's own argument cells as the bare call. A line under the table
times that bare launch after about 1 us of busy Python: on PoCL's CPU devices
Python between launches costs more than its own time (the driver's worker
thread sleeps between launches that come slower, and the next one wakes it).
"""

import sys

import harness
import numpy as np

ROWS = [
    "write 8 B (blocking)",
    "read 8 B (blocking)",
    "rect read 16x16 float32 (blocking)",
    "map+unmap 4 KiB",
    "image write 16x16 region",
    "image read 16x16 region",
    "fill_image 512x512 (+ wait)",
    "map+unmap image 512x512 (+ wait)",
    "Buffer create+release",
    "sub-buffer buf[0:1024] create+release",
    "MemoryPool allocate+release 4 KiB (a held block)",
    "SVMAllocation 4 KiB create+release (no queue)",
    "create_image 512x512 + release",
    "kernel launch: typed call knl(queue, (64,), None, buf, 1.0, 64)",
    "kernel launch: enqueue_nd_range_kernel (arguments set before)",
    "kernel launch: enqueue_nd_range_kernel with wait_for=[event]",
]

KERNEL = """
__kernel void k(__global float *a, float s, int n)
{
    int i = get_global_id(0);
    if (i < n) a[i] = a[i] * 0.5f + s;
}
"""


def kernel_setup(cl, ctx, queue):
    """The kernel of bench_kernels.py's launch rows, its arguments set once,
    its buffer, and a complete event to wait for."""
    knl = cl.Kernel(cl.Program(ctx, KERNEL).build(), "k")
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 256)
    knl(queue, (64,), None, buf, 1.0, 64)
    done = cl.enqueue_marker(queue)
    done.wait()
    return knl, buf, [done]


def public_ops(s, launches=True):
    """The public calls, written once for both libraries (without the
    kernel launches, and so without compiling a kernel, if not
    ``launches``)."""
    cl, ctx, queue = s.cl, s.ctx, s.queue
    mf = cl.mem_flags
    buf8 = cl.Buffer(ctx, mf.READ_WRITE, 8)
    host8 = np.zeros(8, np.uint8)
    big = cl.Buffer(ctx, mf.READ_WRITE, 2048 * 64 * 4)
    block = np.zeros((16, 16), np.float32)
    small = cl.Buffer(ctx, mf.READ_WRITE, 4096)
    flags = cl.map_flags.READ | cl.map_flags.WRITE
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
    img = cl.create_image(ctx, mf.READ_WRITE, fmt, (512, 512))
    region = np.zeros((16, 16, 4), np.uint8)
    color = np.array([1, 2, 3, 4], np.uint32)

    def map_unmap():
        array, _ = cl.enqueue_map_buffer(queue, small, flags, 0, (1024,), np.float32)
        array.base.release()

    def map_image():
        array = cl.enqueue_map_image(queue, img, cl.map_flags.READ, (0, 0), (512, 512), (512, 512, 4), np.uint8)[0]
        array.base.release().wait()

    parent = cl.Buffer(ctx, mf.READ_WRITE, 1 << 20)
    pool = s.tools.MemoryPool(s.tools.ImmediateAllocator(queue))
    pool.allocate(4096).release()
    svm_skip = s.svm_skip()

    functions = [
        lambda: cl.enqueue_copy(queue, buf8, host8),
        lambda: cl.enqueue_copy(queue, host8, buf8),
        lambda: cl.enqueue_copy(
            queue,
            block,
            big,
            buffer_origin=(64, 8),
            host_origin=(0, 0),
            region=(64, 16),
            buffer_pitches=(2048 * 4,),
        ),
        map_unmap,
        lambda: cl.enqueue_copy(queue, img, region, origin=(100, 200), region=(16, 16)),
        lambda: cl.enqueue_copy(queue, region, img, origin=(100, 200), region=(16, 16)),
        lambda: cl.enqueue_fill_image(queue, img, color, (0, 0), (512, 512)).wait(),
        map_image,
        lambda: cl.Buffer(ctx, mf.READ_WRITE, 4096).release(),
        lambda: parent[0:1024].release(),
        lambda: pool.allocate(4096).release(),
        lambda: cl.SVMAllocation(ctx, 4096, 0, cl.svm_mem_flags.READ_WRITE, None).release(),
        lambda: cl.create_image(ctx, mf.READ_WRITE, fmt, (512, 512)).release(),
    ]
    if launches:
        knl, kbuf, waits = kernel_setup(cl, ctx, queue)
        functions += [
            lambda: knl(queue, (64,), None, kbuf, 1.0, 64),
            lambda: cl.enqueue_nd_range_kernel(queue, knl, (64,), None),
            lambda: cl.enqueue_nd_range_kernel(queue, knl, (64,), None, wait_for=waits),
        ]
    return _ops(functions, svm_skip)


def _ops(functions, svm_skip):
    """The rows' Ops; the SVM row is skipped where the device has no SVM."""
    return [
        harness.Op(name, fn, skip=svm_skip if name.startswith("SVMAllocation") else None)
        for name, fn in zip(ROWS, functions)
    ]


def bare_ops(s):
    """The shim calls pycl's public calls end in, arguments prepared."""
    from pycl._lib import ffi, lib

    cl, ctx, queue = s.cl, s.ctx, s.queue
    mf = cl.mem_flags
    q = queue._handle
    null = ffi.NULL
    buf8 = cl.Buffer(ctx, mf.READ_WRITE, 8)
    host8 = np.zeros(8, np.uint8)
    p8 = ffi.cast("void *", host8.ctypes.data)
    big = cl.Buffer(ctx, mf.READ_WRITE, 2048 * 64 * 4)
    block = np.zeros((16, 16), np.float32)
    pblock = ffi.cast("void *", block.ctypes.data)
    small = cl.Buffer(ctx, mf.READ_WRITE, 4096)
    flags = cl.map_flags.READ | cl.map_flags.WRITE
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
    img = cl.create_image(ctx, mf.READ_WRITE, fmt, (512, 512))
    region = np.zeros((16, 16, 4), np.uint8)
    pregion = ffi.cast("void *", region.ctypes.data)
    color = ffi.new("cl_uint[4]", [1, 2, 3, 4])
    event = ffi.new("cl_event *")
    result = ffi.new("struct pycl_map_result *")
    mem_out = ffi.new("cl_mem *")
    cformat = ffi.new("cl_image_format *", [fmt.channel_order, fmt.channel_data_type])
    desc = ffi.new("cl_image_desc *")
    desc.image_type = cl.mem_object_type.IMAGE2D
    desc.image_width = desc.image_height = 512

    def check(status):
        if status:
            raise RuntimeError("status %d" % status)

    # The host arrays must outlive the raw pointers the calls use.
    check.keep = (host8, block, region)

    def map_unmap():
        check(lib.pycl_buffer_map(q, small._handle, 1, flags, 0, 4096, 0, null, result))
        mapping = result.mapping
        lib.pycl_event_release(result.event)  # the map's event, as pycl drops it
        check(lib.pycl_mapping_unmap(mapping, null, 0, null, event))
        lib.pycl_event_release(event[0])
        lib.pycl_mapping_free(mapping)

    def map_image():
        check(lib.pycl_image_map(q, img._handle, 1, 1, 0, 0, 0, 512, 512, 1, 0, null, result))
        mapping = result.mapping
        lib.pycl_event_release(result.event)
        check(lib.pycl_mapping_unmap(mapping, null, 0, null, event))
        check(lib.pycl_event_wait(1, event))
        lib.pycl_event_release(event[0])
        lib.pycl_mapping_free(mapping)

    def fill():
        check(lib.pycl_image_fill(q, img._handle, color, 0, 0, 0, 512, 512, 1, 0, null, event))
        check(lib.pycl_event_wait(1, event))
        lib.pycl_event_release(event[0])

    def image_region(reading):
        check(lib.pycl_image_region(q, img._handle, reading, 1, 100, 200, 0, 16, 16, 1, 64, 0, pregion, 0, null, null))

    cl_mem = ffi.typeof("cl_mem")

    def made(address):
        # pycl_buffer_new and pycl_sub_buffer_new return the address, or a
        # (negative) CL status.
        if address <= 0:
            raise RuntimeError("status %d" % address)
        return ffi.cast(cl_mem, address)

    def create_buffer():
        lib.pycl_mem_release(made(lib.pycl_buffer_new(ctx._handle, mf.READ_WRITE, 4096)))

    def create_image():
        check(lib.pycl_image_create(ctx._handle, null, mf.READ_WRITE, cformat, desc, null, mem_out))
        lib.pycl_mem_release(mem_out[0])

    parent = cl.Buffer(ctx, mf.READ_WRITE, 1 << 20)
    pool = s.tools.MemoryPool(s.tools.ImmediateAllocator(queue))
    pool.allocate(4096).release()
    svm_skip = s.svm_skip()
    svm_out = ffi.new("struct pycl_svm **")
    check.keep += (parent, pool)

    def sub_buffer():
        lib.pycl_sub_buffer_release(made(lib.pycl_sub_buffer_new(parent._handle, mf.READ_WRITE, 0, 1024)))

    def pool_block():
        lib.pycl_pool_return(lib.pycl_pool_take(pool._pool, 4096))

    def svm_allocation():
        check(lib.pycl_svm_alloc(ctx._handle, cl.svm_mem_flags.READ_WRITE, 4096, 0, null, svm_out))
        lib.pycl_svm_free(svm_out[0])

    # A launch: pycl_launch_1d over the kernel's argument cells, its event
    # released at once; the typed call writes and marks its two scalars.
    knl, kbuf, waits = kernel_setup(cl, ctx, queue)
    cells = knl._arg_cells
    args, marks, scalar, count = cells.struct, cells.marks, cells.cells[1], cells.cells[2]
    wait_list = ffi.new("cl_event *", waits[0]._handle)
    check.keep += (knl, kbuf, waits, wait_list)

    def launch(n_events=0, events=null):
        check(lib.pycl_launch_1d(q, knl._handle, args, 64, 0, n_events, events))
        lib.pycl_event_release(args.event)

    def typed_launch():
        scalar[0] = 1.0
        count[0] = 64
        marks[1] = marks[2] = lib.PYCL_ARG_BYTES
        launch()

    functions = [
        lambda: check(lib.pycl_enqueue_write_buffer(q, buf8._handle, 1, 0, 8, p8, 0, null, null)),
        lambda: check(lib.pycl_enqueue_read_buffer(q, buf8._handle, 1, 0, 8, p8, 0, null, null)),
        lambda: check(
            lib.pycl_host_rect(
                q, big._handle, 1, 1, 64, 8, 0, 0, 0, 0, 64, 16, 1, 8192, 8192 * 16, 64, 1024, pblock, 0, null, null
            )
        ),
        map_unmap,
        lambda: image_region(0),
        lambda: image_region(1),
        fill,
        map_image,
        create_buffer,
        sub_buffer,
        pool_block,
        svm_allocation,
        create_image,
        typed_launch,
        launch,
        lambda: launch(1, wait_list),
    ]
    return _ops(functions, svm_skip)


def spin(n):
    for _ in range(n):
        pass


def python_between_launches(mine, repeats, batch_s):
    """The bare launch alone and after about 1 us of busy Python: what each
    microsecond of Python between launches costs in all (on PoCL's CPU
    devices, more than itself: the driver's worker thread goes to sleep
    between launches that come slower, and waking it is paid by the next)."""
    launch = bare_ops(mine)[ROWS.index("kernel launch: enqueue_nd_range_kernel (arguments set before)")].fn
    import timeit

    per_call = min(timeit.repeat(lambda: spin(100), number=2000, repeat=5)) / 2000 / 100
    n = max(1, int(1e-6 / per_call))

    def after_python():
        spin(n)
        launch()

    sides = {"bare": (mine, [harness.Op("launch", launch)]), "after": (mine, [harness.Op("launch", after_python)])}
    results = harness.measure(sides, repeats, batch_s)
    return _us(results["bare"][0]), _us(results["after"][0])


def _us(entry):
    return entry["s"] * 1e6 if "s" in entry else None


def main():
    args = harness.small_call_parser(__doc__.split("\n\n")[0]).parse_args()

    pycl, why = harness.load("pycl")
    if pycl is None:
        raise SystemExit(why)
    device = harness.select_device(pycl, args.device)
    sides = {"pycl": None, "shim bare": None}
    mine = harness.Setup(pycl, "pycl", device, 0)
    sides["pycl"] = (mine, public_ops(mine))
    sides["shim bare"] = (mine, bare_ops(mine))
    pyopencl, why = harness.load("pyopencl")
    if pyopencl is not None:
        their_device, why = harness.match_device(pyopencl, harness.device_id(device))
        if their_device is None:
            print("PyOpenCL left out: %s" % why, file=sys.stderr)
        else:
            theirs = harness.Setup(pyopencl, "pyopencl", their_device, 0)
            sides["PyOpenCL"] = (theirs, public_ops(theirs))
    results = harness.measure(sides, args.repeats, args.batch_ms / 1000, "", args.warmup_ms / 1000)

    lines = harness.small_call_header("Where small operations spend their time", device, args, "python_share.py") + [
        "| operation | pycl | shim bare | PyOpenCL | pycl - bare | pycl / PyOpenCL | bare / PyOpenCL |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, name in enumerate(ROWS):
        mine_us = _us(results["pycl"][i])
        bare_us = _us(results["shim bare"][i])
        theirs_us = _us(results["PyOpenCL"][i]) if "PyOpenCL" in results else None
        cells = [name]
        for value in (mine_us, bare_us, theirs_us):
            cells.append("%.2f" % value if value is not None else "-")
        cells.append("%.2f" % (mine_us - bare_us) if mine_us and bare_us else "-")
        cells.append("%.2fx" % (mine_us / theirs_us) if mine_us and theirs_us else "-")
        cells.append("%.2fx" % (bare_us / theirs_us) if bare_us and theirs_us else "-")
        lines.append("| " + " | ".join(cells) + " |")
    bare, after = python_between_launches(mine, args.repeats, args.batch_ms / 1000)
    if bare and after:
        lines += [
            "",
            "A bare launch (the enqueue row's shim call) takes %.2f us; after 1 us of busy Python, %.2f us: each "
            "microsecond of Python between launches costs %.1f us in all." % (bare, after, after - bare),
        ]
    harness.emit("\n".join(lines) + "\n", args.out)


if __name__ == "__main__":
    main()
