"""The argument sweep: every public function and constructor that takes a
size, offset, origin, region, pitch, stride, alignment, count or shape,
fed bad values and numpy integers.

The rule. A bad value is answered with ``pycl.LogicError`` (a ValueError) or
``TypeError`` whose message names the argument, in one wording everywhere:

==============================  ==========  =====================================================
mistake                         class       message contains
==============================  ==========  =====================================================
a wrong type (float, bool,      TypeError   ``<name> must be`` (``<routine>: <name> must be an int,
None, numpy float, 0-d float                not <type>``; ``<name> must be a tuple of 1 to 3 ints,
array)                                      not <type>`` for a whole tuple argument)
a negative value                LogicError  ``<name> = -1 is negative``
a value too large               LogicError  ``<name> = <value> exceeds the limit of <limit>``
                                            (2**63 - 1; cl_uint arguments 2**32 - 1)
==============================  ==========  =====================================================

``<name>`` may carry the index of a tuple entry (``region[1]``). Never cffi's
``OverflowError``, never a crash, never a bad value accepted. Where a
semantic limit of the argument bites first (an offset past the end of a
buffer, an alignment that is no power of two) a LogicError naming the
argument that matches the row's ``semantic`` pattern is accepted, and the
sweep lists it. A numpy integer in range (``numpy.int64``, ``numpy.uint32``,
``numpy.intp``, a 0-d integer array) works like the same Python int.

``TABLE`` lists the (function, argument) pairs; each row's ``op`` makes the
call on fresh objects of one device (``Env``) with the argument set to a
given value, every other argument valid, and returns what the call did
(bytes copied, a size ...). Three tests use it:

- ``test_table_covers_the_public_api``: every such parameter of pycl's public
  callables, and every such keyword of ``enqueue_copy``'s and
  ``enqueue_fill``'s routes, is in the table or in ``EXCLUDED`` with a reason;
- ``test_bad_values_are_refused`` (per device): ``args_sweep_child.py`` feeds
  every row every bad value in a subprocess, so that a missing check that
  crashes or hangs the interpreter fails the test (naming the case in flight)
  instead of the run; the sweep then resumes after that case;
- ``test_numpy_integers_work_like_ints`` (per device and row): hypothesis
  draws in-range values and numpy integer types; the call must succeed and
  do exactly what it does with the Python int.
"""

import io
import operator
import os
import re
import signal
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

import pycl as cl
import pycl.budget
import pycl.pinned
import pycl.pool
import pycl.staging
import pycl.tools
from pycl import _enqueue, characterize
from pycl.testing import kernel_compile_problem

SIZE_LIMIT = 2**63 - 1  # sizes, offsets, origins, regions, pitches, shapes, counts, alignments
UINT_LIMIT = 2**32 - 1  # cl_uint arguments
ULONG_LIMIT = 2**64 - 1  # flag sets, and the pool's bin arithmetic over size_t (as PyOpenCL's)
SIZE = 256  # bytes of the buffers, SVM allocations and host arrays the calls use
RW = cl.mem_flags.READ_WRITE
RGBA8 = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)  # 4-byte pixels
IMAGE_SHAPE = (8, 4)  # width, height: 128 bytes
KERNEL = """
__kernel void ids(__global uint *out)
{
    size_t i = get_global_id(0);
    if (i < 64)  /* out holds 64 uints: any launch stays inside */
        out[i] = (uint)i + 1;
}
"""


def pattern(n, seed=1):
    """``n`` distinct-looking bytes, the same for the same seed."""
    return ((np.arange(n) * 7 + seed * 31) % 251).astype(np.uint8)


# {{{ one factory per kind of object


class CannotRun(Exception):
    """The device lacks what a row needs to make its objects (e.g. a kernel compiler)."""


class Env:
    """A context and in-order queue on one device, and factories of the
    objects the table's calls take: new ones, with known contents, at each
    call."""

    def __init__(self, device):
        self.device = device
        self.ctx = cl.Context([device])
        self.queue = cl.CommandQueue(self.ctx)
        self._program = None

    # buffers
    def buffer(self, size=SIZE, seed=1, flags=RW):
        return cl.Buffer(self.ctx, flags | cl.mem_flags.COPY_HOST_PTR, hostbuf=pattern(size, seed))

    def read(self, buf):
        host = np.empty(buf.size, np.uint8)
        cl.enqueue_copy(self.queue, host, buf)
        return host.tobytes()

    # images: 2D, RGBA, UNSIGNED_INT8
    def image(self, seed=1, flags=RW | cl.mem_flags.COPY_HOST_PTR):
        return cl.Image(self.ctx, flags, RGBA8, shape=IMAGE_SHAPE, hostbuf=pattern(128, seed))

    def read_image(self, img):
        host = np.empty(128, np.uint8)
        cl.enqueue_copy(self.queue, host, img, origin=(0, 0), region=IMAGE_SHAPE)
        return host.tobytes()

    # shared virtual memory (UnavailableError where the device has none)
    def svm(self, seed=1):
        svm = cl.SVMAllocation(self.ctx, SIZE, 0, cl.svm_mem_flags.READ_WRITE, queue=self.queue)
        cl.enqueue_copy(self.queue, svm, pattern(SIZE, seed))
        return svm

    def read_svm(self, svm):
        host = np.empty(SIZE, np.uint8)
        cl.enqueue_copy(self.queue, host, svm)
        return host.tobytes()

    # kernels
    def kernel(self):
        """``ids`` (see KERNEL), a new Kernel each call."""
        if self._program is None:
            problem = kernel_compile_problem(self.device)
            if problem is not None:
                raise CannotRun("cannot compile kernels: %s" % problem.splitlines()[0][:200])
            self._program = cl.Program(self.ctx, KERNEL).build()
        return cl.Kernel(self._program, "ids")

    def finish(self):
        self.queue.finish()


# }}}


# {{{ the calls: op(env, **{argument: value}) -> what the call did


def _args(defaults, kw):
    args = dict(defaults)
    args.update(kw)
    return args


def _quiet(function, *args, **kwargs):
    """``function(*args, **kwargs)`` without DeprecationWarnings (the deprecated offset keywords)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return function(*args, **kwargs)


# enqueue_copy: buffers
def write_buffer(env, **kw):
    buf = env.buffer()
    _quiet(cl.enqueue_copy, env.queue, buf, pattern(16, 2), **kw)
    return env.read(buf)


def read_buffer(env, **kw):
    host = np.zeros(16, np.uint8)
    _quiet(cl.enqueue_copy, env.queue, host, env.buffer(), **kw)
    return host.tobytes()


def copy_buffer(env, **kw):
    dest = env.buffer(seed=2)
    _quiet(cl.enqueue_copy, env.queue, dest, env.buffer(), **kw)
    return env.read(dest)


# Rect copies: a 4 x 2 x 1 box; the buffer side has pitches (16, 64), the
# host side (8, 32) in a 64-byte host array.
HOST_RECT = dict(
    buffer_origin=(2, 1, 0), host_origin=(1, 1, 0), region=(4, 2, 1), buffer_pitches=(16, 64), host_pitches=(8, 32)
)
BUFFER_RECT = dict(
    src_origin=(2, 1, 0), dst_origin=(1, 1, 0), region=(4, 2, 1), src_pitches=(16, 64), dst_pitches=(8, 32)
)


def write_rect(env, **kw):
    buf = env.buffer()
    cl.enqueue_copy(env.queue, buf, pattern(64, 2), **_args(HOST_RECT, kw))
    return env.read(buf)


def read_rect(env, **kw):
    host = np.zeros(64, np.uint8)
    cl.enqueue_copy(env.queue, host, env.buffer(), **_args(HOST_RECT, kw))
    return host.tobytes()


def copy_rect(env, **kw):
    dest = env.buffer(seed=2)
    cl.enqueue_copy(env.queue, dest, env.buffer(), **_args(BUFFER_RECT, kw))
    return env.read(dest)


# enqueue_copy: images (8 x 4 RGBA8); a 4 x 2 region at (1, 1)
IMAGE_BOX = dict(origin=(1, 1), region=(4, 2))


def write_image(env, **kw):
    img = env.image()
    cl.enqueue_copy(env.queue, img, pattern(64, 2), **_args(dict(IMAGE_BOX, pitches=(16,)), kw))
    return env.read_image(img)


def read_image(env, **kw):
    host = np.zeros(64, np.uint8)
    cl.enqueue_copy(env.queue, host, env.image(), **_args(dict(IMAGE_BOX, pitches=(16,)), kw))
    return host.tobytes()


def copy_buffer_to_image(env, **kw):
    img = env.image()
    cl.enqueue_copy(env.queue, img, env.buffer(seed=2), **_args(dict(IMAGE_BOX, offset=8), kw))
    return env.read_image(img)


def copy_image_to_buffer(env, **kw):
    buf = env.buffer(seed=2)
    cl.enqueue_copy(env.queue, buf, env.image(), **_args(dict(IMAGE_BOX, offset=8), kw))
    return env.read(buf)


def copy_image(env, **kw):
    dest = env.image(seed=2)
    defaults = dict(src_origin=(0, 1), region=(4, 2))
    if "dst_origin" not in kw:
        defaults["dest_origin"] = (2, 1)
    cl.enqueue_copy(env.queue, dest, env.image(), **_args(defaults, kw))
    return env.read_image(dest)


# enqueue_copy: SVM
def svm_to_svm(env, **kw):
    dest = env.svm(seed=2)
    cl.enqueue_copy(env.queue, dest, env.svm(), **kw)
    return env.read_svm(dest)


def host_to_svm(env, **kw):
    dest = env.svm(seed=2)
    cl.enqueue_copy(env.queue, dest, pattern(SIZE, 3), **kw)
    return env.read_svm(dest)


def svm_to_host(env, **kw):
    host = np.zeros(SIZE, np.uint8)
    cl.enqueue_copy(env.queue, host, env.svm(), **kw)
    return host.tobytes()


# fills (4-byte pattern)
FILL_PATTERN = np.uint32(0x01020304)


def fill_buffer(env, offset=8, size=16):
    buf = env.buffer()
    cl.enqueue_fill_buffer(env.queue, buf, FILL_PATTERN, offset, size)
    return env.read(buf)


def fill(env, size=16, **kw):
    buf = env.buffer()
    cl.enqueue_fill(env.queue, buf, FILL_PATTERN, size, **_args(dict(offset=8), kw))
    return env.read(buf)


def fill_svm(env, size=16, **kw):
    svm = env.svm()
    cl.enqueue_fill(env.queue, svm, FILL_PATTERN, size, **kw)
    return env.read_svm(svm)


def svm_memfill(env, byte_count=16):
    svm = env.svm()
    cl.enqueue_svm_memfill(env.queue, svm, FILL_PATTERN, byte_count)
    return env.read_svm(svm)


def fill_image(env, **kw):
    img = env.image()
    cl.enqueue_fill_image(env.queue, img, np.array([9, 8, 7, 6], np.uint32), **_args(IMAGE_BOX, kw))
    return env.read_image(img)


# maps
def map_buffer(env, offset=8, shape=(4, 8), strides=None):
    ary, _ = cl.enqueue_map_buffer(env.queue, env.buffer(), cl.map_flags.READ, offset, shape, np.uint8, strides=strides)
    result = (ary.shape, ary.copy())
    ary.base.release()
    return result


def _pixels(region):
    """The C-order uint8 shape of an RGBA8 ``region`` (height, width, 4), or
    the default region's where ``region`` is no tuple of ints (a bad value
    the call must refuse)."""
    try:
        width, height = (int(n) for n in region)
    except (TypeError, ValueError):
        width, height = IMAGE_BOX["region"]
    return (height, width, 4)


def map_image(env, box=IMAGE_BOX, **kw):
    args = _args(dict(box, strides=None), kw)
    if "shape" not in args:
        args["shape"] = _pixels(args["region"])
    ary, _, _, _ = cl.enqueue_map_image(env.queue, env.image(), cl.map_flags.READ, dtype=np.uint8, **args)
    result = (ary.shape, ary.copy())
    ary.base.release()
    return result


# Whole rows of the image: their row pitch is the image's (32 bytes) on every
# device, where a narrower region's depends on the driver (NVIDIA maps a
# packed copy of the region, PoCL the image in place).
FULL_ROWS = dict(origin=(0, 1), region=(8, 2))


def map_image_rows(env, **kw):
    return map_image(env, FULL_ROWS, **kw)


# creation
def make_buffer(env, size=64):
    return cl.Buffer(env.ctx, RW, size).size


def sub_region(env, origin=1024, size=32):
    # Origins are multiples of 1024 bytes: every device's mem_base_addr_align
    # divides it (NVIDIA's is 512 bytes, CPUs' 128).
    sub = env.buffer(size=4096).get_sub_region(origin, size)
    return (sub.size, sub.offset, env.read(sub))


def make_image(env, shape=IMAGE_SHAPE):
    img = cl.Image(env.ctx, RW, RGBA8, shape)
    return (img.shape, img.size)


def create_image(env, shape=IMAGE_SHAPE):
    img = cl.create_image(env.ctx, RW, RGBA8, shape)
    return (img.shape, img.size)


def image_pitches(env, pitches=(40,), make=cl.Image):
    img = make(env.ctx, RW | cl.mem_flags.COPY_HOST_PTR, RGBA8, IMAGE_SHAPE, pitches, pattern(SIZE))
    return env.read_image(img)


def create_image_pitches(env, pitches=(40,)):
    return image_pitches(env, pitches, cl.create_image)


def image_from_array(env, num_channels=4):
    try:
        channels = operator.index(num_channels)  # ints, numpy integers, 0-d integer arrays
    except TypeError:
        channels = 4  # a bad value the call must refuse
    channels = channels if 1 <= channels <= 4 else 4
    ary = pattern(4 * 8 * channels).reshape((4, 8, channels) if channels > 1 else (4, 8))
    img = cl.image_from_array(env.ctx, ary, num_channels)
    return (img.shape, img.format.channel_order)


def host_array(env, shape=(4, 8)):
    buf = cl.Buffer(env.ctx, RW | cl.mem_flags.USE_HOST_PTR, hostbuf=pattern(SIZE))
    ary = buf.get_host_array(shape, np.uint8)
    return (ary.shape, ary.copy())


def image_host_array(env, shape=(4, 8)):
    img = env.image(flags=RW | cl.mem_flags.USE_HOST_PTR)
    ary = img.get_host_array(shape, np.uint8)
    return (ary.shape, ary.copy())


def make_pipe(env, **kw):
    pipe = cl.Pipe(env.ctx, 0, **_args(dict(packet_size=4, max_packets=8), kw))
    return (pipe.packet_size, pipe.max_packets)


# SVM creation and maps
def svm_allocation(env, size=64, alignment=16):
    svm = cl.SVMAllocation(env.ctx, size, alignment, cl.svm_mem_flags.READ_WRITE, queue=env.queue)
    return (svm.size, svm.svm_ptr % max(int(alignment), 1))


def _svm_array(ary):
    return (ary.shape, ary.strides, ary.dtype.str, ary.base.size)


def svm_empty(env, shape=(4, 8), alignment=None, make=cl.svm_empty):
    if make is cl.svm_empty:
        ary = make(env.ctx, cl.svm_mem_flags.READ_WRITE, shape, np.uint16, alignment=alignment, queue=env.queue)
    else:
        ary = make(env.ctx, shape, np.uint16, alignment=alignment, queue=env.queue)
    return _svm_array(ary)


def csvm_empty(env, **kw):
    return svm_empty(env, make=cl.csvm_empty, **kw)


def fsvm_empty(env, **kw):
    return svm_empty(env, make=cl.fsvm_empty, **kw)


def svm_empty_like(env, alignment=8):
    like = np.zeros((4, 8), np.uint16)
    return _svm_array(cl.svm_empty_like(env.ctx, cl.svm_mem_flags.READ_WRITE, like, alignment, queue=env.queue))


def csvm_empty_like(env, alignment=8):
    return _svm_array(cl.csvm_empty_like(env.ctx, np.zeros((4, 8), np.uint16), alignment, queue=env.queue))


def fsvm_empty_like(env, alignment=8):
    return _svm_array(cl.fsvm_empty_like(env.ctx, np.zeros((4, 8), np.uint16), alignment, queue=env.queue))


def svm_map(env, size=32, how="map"):
    svm = env.svm()
    if how == "map":
        mapped = svm.map(env.queue, flags=cl.map_flags.READ, size=size)
    else:
        mapped = getattr(svm, how)(env.queue, size=size)
    result = mapped.array.tobytes()
    mapped.release()
    return result


def svm_map_ro(env, size=32):
    return svm_map(env, size, "map_ro")


def svm_map_rw(env, size=32):
    return svm_map(env, size, "map_rw")


def svm_as_buffer(env, size=32):
    buf = env.svm().as_buffer(env.ctx, size=size)
    result = buf.size
    buf.release()
    return result


# pools and allocators
def pool_allocate(env, size=100):
    pool = cl.tools.MemoryPool(cl.tools.ImmediateAllocator(env.queue))
    return pool.allocate(size).size


def svm_pool_allocate(env, size=100):
    pool = cl.tools.SVMPool(cl.tools.SVMAllocator(env.ctx, queue=env.queue))
    return pool.allocate(size).size


def bin_number(env, size=1000):
    return cl.pool.bin_number(size)


def pool_bin_number(env, size=1000):
    return cl.tools.MemoryPool(cl.tools.ImmediateAllocator(env.queue)).bin_number(size)


def alloc_size(env, bin_nr=100):
    return cl.pool.alloc_size(bin_nr)


def pool_alloc_size(env, bin_nr=100):
    return cl.tools.MemoryPool(cl.tools.ImmediateAllocator(env.queue)).alloc_size(bin_nr)


def pool_max_bytes(env, max_bytes=1 << 20):
    return cl.tools.MemoryPool(cl.tools.ImmediateAllocator(env.queue), max_bytes=max_bytes).stats()["max_bytes"]


def svm_pool_max_bytes(env, max_bytes=1 << 20):
    pool = cl.tools.SVMPool(cl.tools.SVMAllocator(env.ctx, queue=env.queue), max_bytes=max_bytes)
    return pool.stats()["max_bytes"]


def pool_trim(env, target_held_bytes=64):
    pool = cl.tools.MemoryPool(cl.tools.ImmediateAllocator(env.queue))
    for size in (50, 100, 200):
        pool.allocate(size).release()
    pool.trim(target_held_bytes)
    return pool.stats()["held_bytes"]


def deferred_allocator(env, size=100):
    return cl.tools.DeferredAllocator(env.ctx)(size).size


def immediate_allocator(env, size=100):
    return cl.tools.ImmediateAllocator(env.queue)(size).size


def svm_allocator(env, size=100):
    return cl.tools.SVMAllocator(env.ctx, queue=env.queue)(size).size


def svm_allocator_alignment(env, alignment=16):
    allocator = cl.tools.SVMAllocator(env.ctx, alignment=alignment, queue=env.queue)
    return (allocator.alignment, allocator(64).svm_ptr % max(int(alignment), 1))


def pinned_empty(env, shape=(4, 8)):
    ary = cl.pinned.pinned_empty(env.queue, shape, np.uint16)
    return (ary.shape, ary.strides)


def pinned_pool(env, max_bytes=1 << 20):
    return cl.pinned.PinnedPool(env.queue, max_bytes=max_bytes).pool.max_bytes


def pinned_pool_empty(env, shape=(4, 8)):
    ary = cl.pinned.PinnedPool(env.queue).empty(shape, np.uint16)
    return (ary.shape, ary.strides)


def _configure(module, name, value):
    """``module.configure(name=value)``; the settings it changed, put back after."""
    before = module.settings()
    try:
        module.configure(**{name: value})
        return module.settings()[name]
    finally:
        module.configure(
            **{
                k: v
                for k, v in before.items()
                if k in ("min_bytes", "chunk_bytes", "threads", "between_chunk_bytes", "between_slots")
            }
        )


def staging_configure(env, **kw):
    ((name, value),) = kw.items()
    return _configure(cl.staging, name, value)


def budget_configure(env, min_bytes=1 << 20):
    return _configure(cl.budget, "min_bytes", min_bytes)


# kernels: a 1-D launch of 16 work-items from id 1, in groups of 4 (1-D, so
# that a lone int in place of any of the three tuples is a valid launch too)
LAUNCH = dict(global_size=(16,), local_size=(4,), global_offset=(1,))


def nd_range_kernel(env, **kw):
    args = _args(dict(global_work_size=(16,), local_work_size=(4,), global_work_offset=(1,)), kw)
    out = env.buffer()
    kernel = env.kernel()
    kernel.set_arg(0, out)
    cl.enqueue_nd_range_kernel(env.queue, kernel, **args)
    return env.read(out)


def kernel_call(env, **kw):
    args = _args(LAUNCH, kw)
    out = env.buffer()
    env.kernel()(env.queue, args.pop("global_size"), args.pop("local_size"), out, **args)
    return env.read(out)


def capture_call(env, **kw):
    args = _args(LAUNCH, kw)
    script = io.StringIO()
    env.kernel().capture_call(script, env.queue, args.pop("global_size"), args.pop("local_size"), env.buffer(), **args)
    return script.getvalue()


def local_memory(env, size=64):
    return cl.LocalMemory(size).size


# copies between buffers of a context, and AMD's P2P copy
def copy_between(env, **kw):
    dst = env.buffer(seed=2)
    cl.enqueue_copy_between(env.queue, dst, env.queue, env.buffer(), **kw)
    return env.read(dst)


def copy_p2p(env, byte_count=16):
    dst = env.buffer(seed=2)
    cl.enqueue_copy_buffer_p2p_amd(env.device.platform, env.queue, env.buffer(), dst, byte_count)
    return env.read(dst)


# }}}


# {{{ the table


class Row:
    """One (function, argument) pair.

    ``where``: the call, as a reader knows it; ``arg``: the argument's name;
    ``target``: the public callable (a class: its constructor), or
    ``("enqueue_copy", dest kind, src kind, selector)`` /
    ``("enqueue_fill", kind)`` for routes, or ``("Kernel.__call__", "kwargs")`` ...;
    ``op``: the call (see above); ``valid``: a value that works, the tuple
    whose entry ``index`` (default: the last) the sweep replaces for tuple
    arguments; ``ok``: a strategy of in-range ints for the argument (or that
    entry). ``lone_int``: a lone int is documented as a 1-tuple (shapes,
    work sizes), so an int in place of the tuple is judged as one; else
    "must be a tuple" is also accepted for it. ``none_default``: None is the
    documented default (not fed). ``limit``: the largest value allowed.
    ``semantic``: the pattern of messages for semantic limits that may bite
    before the range check (accepted for int values, and listed).
    """

    def __init__(
        self,
        where,
        arg,
        target,
        op,
        valid,
        ok,
        index=None,
        lone_int=False,
        none_default=False,
        limit=SIZE_LIMIT,
        semantic=None,
    ):
        self.where = where
        self.arg = arg
        self.target = target
        self.op = op
        self.valid = valid
        self.ok = ok
        self.is_tuple = isinstance(valid, tuple)
        self.index = (len(valid) - 1 if index is None else index) if self.is_tuple else None
        self.lone_int = lone_int
        self.none_default = none_default
        self.limit = limit
        self.semantic = semantic

    @property
    def id(self):
        return "%s-%s" % (self.where, self.arg)

    def call(self, env, value):
        return self.op(env, **{self.arg: value})

    def call_entry(self, env, value):
        """The call with entry ``index`` of the valid tuple set to ``value``."""
        entries = list(self.valid)
        entries[self.index] = value
        return self.call(env, tuple(entries))

    def __repr__(self):
        return "<%s %s>" % (self.where, self.arg)


def call(where, target, op, *args):
    """The rows of one call: ``args`` are ``arg(...)`` specs of its swept arguments."""
    return [Row(where, name, target, op, valid, ok, **options) for name, valid, ok, options in args]


def arg(name, valid, ok, **options):
    return (name, valid, ok, options)


def COPY(dest, src, selector=None):
    """The target of an ``enqueue_copy`` route: (dest kind, src kind, selector keyword)."""
    return ("enqueue_copy", dest, src, selector)


def FILL(kind):
    """The target of an ``enqueue_fill`` route."""
    return ("enqueue_fill", kind)


# In-range values of the positive test (module-level strategies).
OFFSET_16 = st.integers(0, SIZE - 16)  # where a 16-byte host array fits in a buffer
OFFSET_32 = st.integers(0, SIZE - 32)
OFFSET = st.integers(0, SIZE)
BYTES = st.integers(0, SIZE)
ZERO = st.just(0)  # where only 0 works (host sides, SVM copies)
SMALL = st.integers(0, 2)
ONE_OR_TWO = st.integers(1, 2)
ONE_TO_FOUR = st.integers(1, 4)
SIZES = st.integers(1, 4096)
LARGE = st.integers(0, 1 << 40)
MULTIPLE_OF_4 = st.integers(0, 32).map(lambda k: 4 * k)  # fill offsets and sizes (4-byte pattern)
PITCH_16 = st.integers(2, 4).map(lambda k: 16 * k)  # buffer-side slice pitches (row pitch 16)
PITCH_8 = st.integers(2, 4).map(lambda k: 8 * k)  # host-side slice pitches (row pitch 8)
IMAGE_ROW_PITCH = st.integers(4, 8).map(lambda k: 4 * k)  # host row pitches of a 4-pixel-wide region
IMAGE_HOST_PITCH = st.integers(8, 13).map(lambda k: 4 * k)  # row pitches of an 8 x 4 hostbuf in 256 bytes
ALIGNMENTS = st.sampled_from([0, 1, 2, 4, 8, 16, 32, 64, 128])
GLOBAL_SIZE = st.integers(1, 4).map(lambda k: 4 * k)  # multiples of the local size 4
WORK_GROUP = st.sampled_from([1, 2, 4, 8, 16])  # divides the global size 16

# Semantic limits that may answer before the range check.
PAST_END = r"past the end|needs \d+ bytes|is larger than|exceeds the \d+ bytes|exceeds (src|dst)"
HOST_SIDE = "offsets are not supported"  # host-side offsets of buffer copies must be 0
SVM_OFFSET = "not supported"  # SVM copies and fills take offset 0 only
REACHES = "reaches"  # an image box past the image's extent
PITCHES = PAST_END + "|smaller than|multiple of|spans"
PATTERN = "|multiple of the pattern"
POWER_OF_TWO = "power of two|larger than 128"
DEVICE_LIMITS = "exceeds every device's limits"  # image sizes

TABLE = [
    row
    for rows in (
        # enqueue_copy(queue, dest, src, **kwargs): buffers <-> host, buffer <- buffer
        call(
            "enqueue_copy(buffer <- host)",
            COPY("buffer", "host"),
            write_buffer,
            arg("dst_offset", 0, OFFSET_16, semantic=PAST_END),
            arg("src_offset", 0, ZERO, semantic=HOST_SIDE),
            arg("device_offset", 0, OFFSET_16, none_default=True, semantic=PAST_END),
        ),
        call(
            "enqueue_copy(host <- buffer)",
            COPY("host", "buffer"),
            read_buffer,
            arg("src_offset", 0, OFFSET_16, semantic=PAST_END),
            arg("dst_offset", 0, ZERO, semantic=HOST_SIDE),
            arg("device_offset", 0, OFFSET_16, none_default=True, semantic=PAST_END),
        ),
        call(
            "enqueue_copy(buffer <- buffer)",
            COPY("buffer", "buffer"),
            copy_buffer,
            arg("byte_count", 16, BYTES, none_default=True, semantic=PAST_END),
            arg("src_offset", 0, OFFSET, semantic=PAST_END),
            arg("dst_offset", 0, OFFSET, semantic=PAST_END),
            arg("dest_offset", 0, OFFSET, none_default=True, semantic=PAST_END),
        ),
        # rectangular copies (tuple arguments: the sweep replaces the last entry)
        call(
            "enqueue_copy(buffer <- host, rect)",
            COPY("buffer", "host", "buffer_origin"),
            write_rect,
            arg("buffer_origin", HOST_RECT["buffer_origin"], SMALL, semantic=PAST_END),
            arg("host_origin", HOST_RECT["host_origin"], ONE_OR_TWO.map(lambda z: z - 1), semantic=PAST_END),
            arg("region", HOST_RECT["region"], SMALL, semantic=PAST_END),
            arg("buffer_pitches", HOST_RECT["buffer_pitches"], PITCH_16, none_default=True, semantic=PITCHES),
            arg("host_pitches", HOST_RECT["host_pitches"], PITCH_8, none_default=True, semantic=PITCHES),
        ),
        call(
            "enqueue_copy(host <- buffer, rect)",
            COPY("host", "buffer", "buffer_origin"),
            read_rect,
            arg("buffer_origin", HOST_RECT["buffer_origin"], SMALL, semantic=PAST_END),
            arg("host_origin", HOST_RECT["host_origin"], ONE_OR_TWO.map(lambda z: z - 1), semantic=PAST_END),
            arg("region", HOST_RECT["region"], SMALL, semantic=PAST_END),
            arg("buffer_pitches", HOST_RECT["buffer_pitches"], PITCH_16, none_default=True, semantic=PITCHES),
            arg("host_pitches", HOST_RECT["host_pitches"], PITCH_8, none_default=True, semantic=PITCHES),
        ),
        call(
            "enqueue_copy(buffer <- buffer, rect)",
            COPY("buffer", "buffer", "src_origin"),
            copy_rect,
            arg("src_origin", BUFFER_RECT["src_origin"], SMALL, semantic=PAST_END),
            arg("dst_origin", BUFFER_RECT["dst_origin"], SMALL, semantic=PAST_END),
            arg("region", BUFFER_RECT["region"], SMALL, semantic=PAST_END),
            arg("src_pitches", BUFFER_RECT["src_pitches"], PITCH_16, none_default=True, semantic=PITCHES),
            arg("dst_pitches", BUFFER_RECT["dst_pitches"], PITCH_8, none_default=True, semantic=PITCHES),
        ),
        # enqueue_copy: images
        call(
            "enqueue_copy(image <- host)",
            COPY("image", "host"),
            write_image,
            arg("origin", IMAGE_BOX["origin"], SMALL, semantic=REACHES),
            arg("region", IMAGE_BOX["region"], SMALL, semantic=REACHES),
            arg("pitches", (16,), IMAGE_ROW_PITCH, none_default=True, semantic=PITCHES),
        ),
        call(
            "enqueue_copy(host <- image)",
            COPY("host", "image"),
            read_image,
            arg("origin", IMAGE_BOX["origin"], SMALL, semantic=REACHES),
            arg("region", IMAGE_BOX["region"], SMALL, semantic=REACHES),
            arg("pitches", (16,), IMAGE_ROW_PITCH, none_default=True, semantic=PITCHES),
        ),
        call(
            "enqueue_copy(image <- buffer)",
            COPY("image", "buffer"),
            copy_buffer_to_image,
            arg("offset", 8, OFFSET_32, semantic=PAST_END),
            arg("origin", IMAGE_BOX["origin"], SMALL, semantic=REACHES),
            arg("region", IMAGE_BOX["region"], SMALL, semantic=REACHES),
        ),
        call(
            "enqueue_copy(buffer <- image)",
            COPY("buffer", "image"),
            copy_image_to_buffer,
            arg("origin", IMAGE_BOX["origin"], SMALL, semantic=REACHES),
            arg("region", IMAGE_BOX["region"], SMALL, semantic=REACHES),
            arg("offset", 8, OFFSET_32, semantic=PAST_END),
        ),
        call(
            "enqueue_copy(image <- image)",
            COPY("image", "image"),
            copy_image,
            arg("src_origin", (0, 1), SMALL, semantic=REACHES),
            arg("dest_origin", (2, 1), SMALL, semantic=REACHES),
            # dst_origin=None is the alias left out: dest_origin must then be given.
            arg("dst_origin", (2, 1), SMALL, none_default=True, semantic=REACHES),
            arg("region", (4, 2), SMALL, semantic=REACHES),
        ),
        # enqueue_copy: SVM
        call(
            "enqueue_copy(svm <- svm)",
            COPY("svm", "svm"),
            svm_to_svm,
            arg("byte_count", 16, BYTES, none_default=True, semantic=PAST_END),
            arg("src_offset", 0, ZERO, semantic=SVM_OFFSET),
            arg("dst_offset", 0, ZERO, semantic=SVM_OFFSET),
        ),
        call(
            "enqueue_copy(svm <- host)",
            COPY("svm", "host"),
            host_to_svm,
            arg("byte_count", 16, BYTES, none_default=True, semantic=PAST_END),
            arg("src_offset", 0, ZERO, semantic=SVM_OFFSET),
            arg("dst_offset", 0, ZERO, semantic=SVM_OFFSET),
        ),
        call(
            "enqueue_copy(host <- svm)",
            COPY("host", "svm"),
            svm_to_host,
            arg("byte_count", 16, BYTES, none_default=True, semantic=PAST_END),
            arg("src_offset", 0, ZERO, semantic=SVM_OFFSET),
            arg("dst_offset", 0, ZERO, semantic=SVM_OFFSET),
        ),
        # fills
        call(
            "enqueue_fill_buffer",
            cl.enqueue_fill_buffer,
            fill_buffer,
            arg("offset", 8, MULTIPLE_OF_4, semantic=PAST_END + PATTERN),
            arg("size", 16, MULTIPLE_OF_4, semantic=PAST_END + PATTERN),
        ),
        call(
            "enqueue_fill(buffer)",
            FILL("buffer"),
            fill,
            arg("size", 16, MULTIPLE_OF_4, semantic=PAST_END + PATTERN),
            arg("offset", 8, MULTIPLE_OF_4, semantic=PAST_END + PATTERN),
        ),
        call(
            "enqueue_fill(svm)",
            FILL("svm"),
            fill_svm,
            # size=None fills the whole allocation, as PyOpenCL's SVM fill does.
            arg("size", 16, MULTIPLE_OF_4, none_default=True, semantic=PAST_END + PATTERN),
            arg("offset", 0, ZERO, semantic=SVM_OFFSET),
        ),
        call(
            "enqueue_svm_memfill",
            cl.enqueue_svm_memfill,
            svm_memfill,
            arg("byte_count", 16, MULTIPLE_OF_4, none_default=True, semantic=PAST_END + PATTERN),
        ),
        call(
            "enqueue_fill_image",
            cl.enqueue_fill_image,
            fill_image,
            arg("origin", IMAGE_BOX["origin"], SMALL, semantic=REACHES),
            arg("region", IMAGE_BOX["region"], SMALL, semantic=REACHES),
        ),
        # maps
        call(
            "enqueue_map_buffer",
            cl.enqueue_map_buffer,
            map_buffer,
            arg("offset", 8, OFFSET_32, semantic=PAST_END),
            arg("shape", (4, 8), ONE_TO_FOUR.map(lambda n: 2 * n), lone_int=True, semantic=PAST_END),
            arg("strides", (8, 1), ONE_TO_FOUR, index=1, none_default=True, semantic=PAST_END),
        ),
        call(
            "enqueue_map_image",
            cl.enqueue_map_image,
            map_image,
            arg("origin", IMAGE_BOX["origin"], SMALL, semantic=REACHES),
            arg("region", IMAGE_BOX["region"], ONE_OR_TWO, semantic=REACHES),
            arg("shape", (2, 4, 4), st.just(2), index=0, lone_int=True, semantic="holds"),
        ),
        call(
            "enqueue_map_image",
            cl.enqueue_map_image,
            map_image_rows,
            arg("strides", (32, 4, 1), st.integers(0, 32), index=0, none_default=True, semantic="reaches byte"),
        ),
        # buffers, images, pipes
        call("Buffer", cl.Buffer, make_buffer, arg("size", 64, SIZES)),
        call(
            "Buffer.get_sub_region",
            cl.Buffer.get_sub_region,
            sub_region,
            arg("origin", 1024, st.integers(0, 3).map(lambda k: 1024 * k), semantic=PAST_END + "|mem_base_addr_align"),
            arg("size", 32, st.integers(1, 128), semantic=PAST_END),
        ),
        call(
            "MemoryObject.get_host_array",
            cl.MemoryObject.get_host_array,
            host_array,
            arg("shape", (4, 8), st.integers(0, 64), lone_int=True, semantic=PAST_END),
        ),
        call(
            "Image",
            cl.Image,
            make_image,
            arg("shape", IMAGE_SHAPE, st.integers(1, 16), lone_int=True, none_default=True, semantic=DEVICE_LIMITS),
        ),
        call(
            "Image",
            cl.Image,
            image_pitches,
            arg("pitches", (40,), IMAGE_HOST_PITCH, none_default=True, semantic=PITCHES),
        ),
        call(
            "create_image",
            cl.create_image,
            create_image,
            arg("shape", IMAGE_SHAPE, st.integers(1, 16), lone_int=True, none_default=True, semantic=DEVICE_LIMITS),
        ),
        call(
            "create_image",
            cl.create_image,
            create_image_pitches,
            arg("pitches", (40,), IMAGE_HOST_PITCH, none_default=True, semantic=PITCHES),
        ),
        call(
            "Image.get_host_array",
            cl.Image.get_host_array,
            image_host_array,
            arg("shape", (4, 8), st.integers(0, 32), lone_int=True, semantic=PAST_END),
        ),
        call(
            "image_from_array",
            cl.image_from_array,
            image_from_array,
            arg("num_channels", 4, st.sampled_from([1, 4]), none_default=True, semantic="must be 1, 2, 3 or 4"),
        ),
        call(
            "Pipe",
            cl.Pipe,
            make_pipe,
            arg("packet_size", 4, st.integers(1, 64), limit=UINT_LIMIT, semantic="pipe_max_packet_size"),
            arg("max_packets", 8, st.integers(1, 64), limit=UINT_LIMIT),
        ),
        # SVM
        call(
            "SVMAllocation",
            cl.SVMAllocation,
            svm_allocation,
            arg("size", 64, st.integers(0, 4096)),
            arg("alignment", 16, ALIGNMENTS, semantic=POWER_OF_TWO),
        ),
        call(
            "svm_empty",
            cl.svm_empty,
            svm_empty,
            arg("shape", (4, 8), st.integers(0, 64), lone_int=True),
            arg("alignment", 16, ALIGNMENTS, none_default=True, semantic=POWER_OF_TWO),
        ),
        call(
            "csvm_empty",
            cl.csvm_empty,
            csvm_empty,
            arg("shape", (4, 8), st.integers(0, 64), lone_int=True),
            arg("alignment", 16, ALIGNMENTS, none_default=True, semantic=POWER_OF_TWO),
        ),
        call(
            "fsvm_empty",
            cl.fsvm_empty,
            fsvm_empty,
            arg("shape", (4, 8), st.integers(0, 64), lone_int=True),
            arg("alignment", 16, ALIGNMENTS, none_default=True, semantic=POWER_OF_TWO),
        ),
        call(
            "svm_empty_like",
            cl.svm_empty_like,
            svm_empty_like,
            arg("alignment", 8, ALIGNMENTS, none_default=True, semantic=POWER_OF_TWO),
        ),
        call(
            "csvm_empty_like",
            cl.csvm_empty_like,
            csvm_empty_like,
            arg("alignment", 8, ALIGNMENTS, none_default=True, semantic=POWER_OF_TWO),
        ),
        call(
            "fsvm_empty_like",
            cl.fsvm_empty_like,
            fsvm_empty_like,
            arg("alignment", 8, ALIGNMENTS, none_default=True, semantic=POWER_OF_TWO),
        ),
        call(
            "SVMPointer.map",
            cl.SVMPointer.map,
            svm_map,
            arg("size", 32, st.integers(1, SIZE), none_default=True, semantic=PAST_END),
        ),
        call(
            "SVMPointer.map_ro",
            cl.SVMPointer.map_ro,
            svm_map_ro,
            arg("size", 32, st.integers(1, SIZE), none_default=True, semantic=PAST_END),
        ),
        call(
            "SVMPointer.map_rw",
            cl.SVMPointer.map_rw,
            svm_map_rw,
            arg("size", 32, st.integers(1, SIZE), none_default=True, semantic=PAST_END),
        ),
        call(
            "SVMPointer.as_buffer",
            cl.SVMPointer.as_buffer,
            svm_as_buffer,
            arg("size", 32, st.integers(1, SIZE), none_default=True, semantic=PAST_END + "|larger than hostbuf"),
        ),
        # pools, allocators, pinned memory
        call("MemoryPool.allocate", cl.tools.MemoryPool.allocate, pool_allocate, arg("size", 100, SIZES)),
        call("SVMPool.allocate", cl.tools.SVMPool.allocate, svm_pool_allocate, arg("size", 100, SIZES)),
        call("pool.bin_number", cl.pool.bin_number, bin_number, arg("size", 1000, LARGE, limit=ULONG_LIMIT)),
        call(
            "MemoryPool.bin_number",
            cl.tools.MemoryPool.bin_number,
            pool_bin_number,
            arg("size", 1000, LARGE, limit=ULONG_LIMIT),
        ),
        call(
            "pool.alloc_size",
            cl.pool.alloc_size,
            alloc_size,
            arg("bin_nr", 100, st.integers(0, 1023), semantic="is no bin"),
        ),
        call(
            "MemoryPool.alloc_size",
            cl.tools.MemoryPool.alloc_size,
            pool_alloc_size,
            arg("bin_nr", 100, st.integers(0, 1023), semantic="is no bin"),
        ),
        call("MemoryPool", cl.tools.MemoryPool, pool_max_bytes, arg("max_bytes", 1 << 20, LARGE, none_default=True)),
        call("SVMPool", cl.tools.SVMPool, svm_pool_max_bytes, arg("max_bytes", 1 << 20, LARGE, none_default=True)),
        call(
            "MemoryPool.trim", cl.tools.MemoryPool.trim, pool_trim, arg("target_held_bytes", 64, st.integers(0, 4096))
        ),
        call(
            "DeferredAllocator.__call__",
            cl.tools.DeferredAllocator.__call__,
            deferred_allocator,
            arg("size", 100, SIZES),
        ),
        call(
            "ImmediateAllocator.__call__",
            cl.tools.ImmediateAllocator.__call__,
            immediate_allocator,
            arg("size", 100, SIZES),
        ),
        call("SVMAllocator.__call__", cl.tools.SVMAllocator.__call__, svm_allocator, arg("size", 100, SIZES)),
        call(
            "SVMAllocator",
            cl.tools.SVMAllocator,
            svm_allocator_alignment,
            arg("alignment", 16, ALIGNMENTS, semantic=POWER_OF_TWO),
        ),
        call(
            "pinned.pinned_empty",
            cl.pinned.pinned_empty,
            pinned_empty,
            arg("shape", (4, 8), st.integers(1, 64), lone_int=True),
        ),
        call(
            "pinned.PinnedPool", cl.pinned.PinnedPool, pinned_pool, arg("max_bytes", 1 << 20, LARGE, none_default=True)
        ),
        call(
            "pinned.PinnedPool.empty",
            cl.pinned.PinnedPool.empty,
            pinned_pool_empty,
            arg("shape", (4, 8), st.integers(1, 64), lone_int=True),
        ),
        # process-wide settings (put back after each call)
        call(
            "staging.configure",
            cl.staging.configure,
            staging_configure,
            arg("min_bytes", 1 << 20, st.integers(1, 1 << 40), none_default=True),
            arg("chunk_bytes", 1 << 20, st.integers(1, 1 << 30), none_default=True),
            arg("threads", 4, st.integers(1, 64), none_default=True, limit=64),
            arg("between_chunk_bytes", 1 << 20, st.integers(1, 1 << 30), none_default=True),
            arg("between_slots", 8, st.integers(2, 1024), none_default=True, limit=1024, semantic="at least 2"),
        ),
        call(
            "budget.configure",
            cl.budget.configure,
            budget_configure,
            arg("min_bytes", 1 << 20, st.integers(1, 1 << 40), none_default=True),
        ),
        # kernels: work sizes are an int or a tuple of 1 to 3 ints
        call("LocalMemory", cl.LocalMemory, local_memory, arg("size", 64, SIZES)),
        call(
            "enqueue_nd_range_kernel",
            cl.enqueue_nd_range_kernel,
            nd_range_kernel,
            arg("global_work_size", (16,), GLOBAL_SIZE, lone_int=True),
            arg("local_work_size", (4,), WORK_GROUP, lone_int=True, none_default=True),
            arg("global_work_offset", (1,), SMALL, lone_int=True, none_default=True),
        ),
        call(
            "Kernel.__call__",
            cl.Kernel.__call__,
            kernel_call,
            arg("global_size", (16,), GLOBAL_SIZE, lone_int=True),
            arg("local_size", (4,), WORK_GROUP, lone_int=True, none_default=True),
            arg("global_offset", (1,), SMALL, lone_int=True, none_default=True),
        ),
        call(
            "Kernel.capture_call",
            cl.Kernel.capture_call,
            capture_call,
            arg("global_size", (16,), GLOBAL_SIZE, lone_int=True),
            arg("local_size", (4,), WORK_GROUP, lone_int=True, none_default=True),
        ),
        call(
            "Kernel.capture_call",
            ("Kernel.capture_call", "**kwargs"),
            capture_call,
            arg("global_offset", (1,), SMALL, lone_int=True, none_default=True),
        ),
        # copies between devices and contexts
        call(
            "enqueue_copy_between",
            cl.enqueue_copy_between,
            copy_between,
            arg("byte_count", 16, BYTES, none_default=True, semantic=PAST_END),
            arg("dst_offset", 0, OFFSET, semantic=PAST_END),
            arg("src_offset", 0, OFFSET, semantic=PAST_END),
        ),
        call(
            "enqueue_copy_buffer_p2p_amd",
            cl.enqueue_copy_buffer_p2p_amd,
            copy_p2p,
            arg("byte_count", 16, BYTES, none_default=True, semantic=PAST_END),
        ),
    )
    for row in rows
]

# Parameters whose names look like sizes but that this rule does not cover,
# each with its reason: (callable, parameter) -> reason.
_HEURISTIC = "PyOpenCL's characterization heuristic: arithmetic on device info, passes nothing to C"
EXCLUDED = {
    (cl.tools.PooledBuffer, "size"): "made by MemoryPool.allocate; its constructor is Buffer's (row Buffer size)",
    (characterize.get_simd_group_size, "type_size"): _HEURISTIC,
    (characterize.why_not_local_access_conflict_free, "itemsize"): _HEURISTIC,
    (characterize.why_not_local_access_conflict_free, "array_shape"): _HEURISTIC,
    (characterize.why_not_local_access_conflict_free, "array_stored_shape"): _HEURISTIC,
}
# Public modules left out as a whole, with the reason.
EXCLUDED_MODULES = {
    "pycl.testing": "test support (pytest parametrization)",
    "pycl.strategies": "hypothesis strategies for tests: their sizes bound what they draw",
    "pycl.build_ffi": "the cffi build script",
    "pycl.__main__": "the device report (python -m pycl)",
    # PyOpenCL's signatures over the functions this table sweeps: each passes
    # its sizes on unchanged (enqueue_copy's routes, enqueue_fill_buffer, the
    # SVM functions, Kernel through the invoker to enqueue_nd_range_kernel);
    # tests/test_pyopencl_layer.py checks that they reach them.
    "pycl.pyopencl_cl": "PyOpenCL's _cl over pycl's swept functions",
    "pycl.pyopencl_layer": "the layer's installer (no sizes)",
    # Needs mpi4py and a Comm (collective over MPI ranks); its offsets and
    # counts go through pycl._args' size_value and its settings through
    # bounded_value, and tests/test_mpi.py (mpi_ranks.py's mismatch scenario,
    # the configure test) checks their words and limits.
    "pycl.mpi": "MPI ranks: tests/test_mpi.py checks its arguments",
}

# }}}


# {{{ the table covers the public API

# Parameter names of the rule (sizes, offsets, origins, regions, pitches and
# strides, alignments, counts, shapes, byte counts, pipe packets, slot and
# thread counts, pool bins).
SIZE_LIKE = re.compile(r"size|offset|origin|region|pitch|stride|align|count|shape|packet|bytes|slots|threads|bin_nr")


def _public_callables():
    """``(display name, callable, parameter names)`` of pycl's public
    functions, constructors and methods: the names in the ``__all__`` of
    ``pycl`` and of its public modules, and the public methods (and
    ``__call__``) of their classes. Inherited methods are the same function
    object, so each is listed once."""
    import importlib
    import inspect
    import pkgutil

    modules = ["pycl"] + ["pycl." + m.name for m in pkgutil.iter_modules(cl.__path__) if not m.name.startswith("_")]
    seen = set()
    for module_name in modules:
        if module_name in EXCLUDED_MODULES:
            continue
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not callable(obj) or (inspect.isclass(obj) and obj.__module__ == "pycl.constants"):
                continue
            owners = [(name, obj)]
            if inspect.isclass(obj):
                called = any("__call__" in vars(klass) for klass in obj.__mro__[:-1])
                for attr in sorted(
                    {a for a in dir(obj) if not a.startswith("_")} | ({"__call__"} if called else set())
                ):
                    static = inspect.getattr_static(obj, attr)
                    if isinstance(static, (property, type)) or not callable(getattr(obj, attr, None)):
                        continue
                    method = getattr(obj, attr)
                    owners.append(("%s.%s" % (name, attr), getattr(method, "__func__", method)))
            for display, fn in owners:
                if fn in seen:
                    continue
                seen.add(fn)
                try:
                    parameters = inspect.signature(fn).parameters
                except (TypeError, ValueError):
                    continue  # a builtin without a signature
                yield "%s.%s" % (module_name, display), fn, list(parameters)


def test_table_covers_the_public_api():
    in_table = {(row.target, row.arg) for row in TABLE}
    # enqueue_fill's size and offset go to its routes (rows FILL(kind), checked below).
    in_table |= {
        (cl.enqueue_fill, row.arg) for row in TABLE if isinstance(row.target, tuple) and row.target[0] == "enqueue_fill"
    }
    missing = []
    for display, fn, parameters in _public_callables():
        for name in parameters:
            if SIZE_LIKE.search(name) and (fn, name) not in in_table and (fn, name) not in EXCLUDED:
                missing.append("%s(%s)" % (display, name))
    # enqueue_copy's and enqueue_fill's routes take their keywords through
    # **kwargs: every keyword of every registered route must have a row.
    for (dest, src), routes in _enqueue.routes.items():
        for selector, keywords, _ in routes:
            for name in sorted(keywords):
                if SIZE_LIKE.search(name) and (COPY(dest, src, selector), name) not in in_table:
                    route = "%s <- %s%s" % (dest, src, ", " + selector if selector else "")
                    missing.append("enqueue_copy(%s)(%s)" % (route, name))
    for kind in _enqueue.fills:
        for name in ("size", "offset"):
            if (FILL(kind), name) not in in_table:
                missing.append("enqueue_fill(%s)(%s)" % (kind, name))
    assert not missing, "size-like parameters with no row in TABLE and no reason in EXCLUDED:\n" + "\n".join(missing)
    stale = [key for key in EXCLUDED if key in in_table]
    assert not stale, "EXCLUDED lists pairs that TABLE has: %r" % stale


def test_table_rows_are_distinct():
    keys = [(row.where, row.arg, row.op) for row in TABLE]
    assert len(keys) == len(set(keys))
    assert len({row.id for row in TABLE}) == len(TABLE)


# }}}


# {{{ the bad values and how they must be answered

# (value, its label, the mistake): "type" (a wrong type), "negative" or "large".
BAD_VALUES = [
    (-1, "-1", "negative"),
    (2**63, "2**63", "large"),
    (2**64, "2**64", "large"),
    (2**200, "2**200", "large"),
    (1.5, "1.5", "type"),
    (True, "True", "type"),
    (None, "None", "type"),
    (np.float64(1.0), "numpy.float64(1.0)", "type"),
    (np.array(1.0), "numpy.array(1.0)", "type"),
]


class Case:
    """One bad value for one row: in place of the whole argument, or of one
    entry of its tuple (``entry``: the index)."""

    def __init__(self, row, value, label, mistake, entry=None):
        self.row, self.value, self.mistake, self.entry = row, value, mistake, entry
        name = row.arg if entry is None else "%s[%d]" % (row.arg, entry)
        self.label = "%s %s = %s" % (row.where, name, label)

    def run(self, env):
        if self.entry is None:
            return self.row.call(env, self.value)
        return self.row.call_entry(env, self.value)


def cases(row):
    for value, label, mistake in BAD_VALUES:
        if mistake == "large" and value <= row.limit:
            continue  # in range for this argument (the pool's bin arithmetic)
        if not (value is None and row.none_default):
            yield Case(row, value, label, mistake)
        if row.is_tuple:
            yield Case(row, value, label, mistake, row.index)


def all_cases():
    return [case for row in TABLE for case in cases(row)]


def _named(name):
    """A pattern of ``name`` as a word, with an optional index (``region[1]``)."""
    return r"(?<![\w.])%s(\[\d+\])?(?!\w)" % re.escape(name)


def judge(case, error):
    """How ``error`` (the exception the case raised) answers the case: None
    if by the rule, "semantic" if a semantic limit of the argument answered
    (allowed, listed), else what is wrong."""
    row, value = case.row, case.value
    message = str(error)
    name = _named(row.arg)
    if case.mistake == "type":
        if isinstance(error, TypeError) and re.search(name + " must be", message):
            return None
        return "wanted TypeError '%s must be ...'" % row.arg
    if isinstance(error, TypeError) and row.is_tuple and case.entry is None and not row.lone_int:
        if re.search(name + " must be a tuple", message):
            return None  # an int in place of a tuple: a wrong type too
    if isinstance(error, cl.LogicError):
        if case.mistake == "negative" and re.search(name + r" = -1 is negative", message):
            return None
        if case.mistake == "large" and re.search(name + r" = %d exceeds the limit of %d" % (value, row.limit), message):
            return None
        if row.semantic and re.search(name, message) and re.search(row.semantic, message):
            return "semantic"
    if case.mistake == "negative":
        return "wanted LogicError '%s = -1 is negative'" % row.arg
    return "wanted LogicError '%s = %d exceeds the limit of %d'" % (row.arg, value, row.limit)


def describe(error):
    return "%s: %s" % (type(error).__name__, " ".join(str(error).split()))


# }}}


# {{{ the sweep, per device, in a subprocess

CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "args_sweep_child.py")
SENTINEL = "SWEEP DONE"
CASE_SECONDS = 10  # the child's watchdog: a case that takes longer hangs
MAX_RESTARTS = 40


def device_address(device):
    """``(platform index, device index)`` in ``get_platforms()`` order, which the child finds it by."""
    platforms = cl.get_platforms()
    for p, platform in enumerate(platforms):
        for d, other in enumerate(platform.get_devices()):
            if other == device:
                return p, d
    raise LookupError(device)


def _how_it_ended(returncode, stderr):
    if returncode < 0:
        try:
            return "was killed by %s" % signal.Signals(-returncode).name
        except ValueError:
            return "was killed by signal %d" % -returncode
    if "Timeout (" in stderr:
        return "hung for more than %d s (watchdog)" % CASE_SECONDS
    return "exited with status %d" % returncode


def _tail(text, lines=12):
    return "\n        ".join(text.strip().splitlines()[-lines:])


def run_sweep(device):
    """Run the child over every case for ``device``; when it dies (crash,
    hang), the case in flight fails and a new child goes on after it.
    Returns (failing lines, other lines)."""
    p, d = device_address(device)
    failing, notes, start = [], [], 0
    for run in range(1, MAX_RESTARTS + 1):
        proc = subprocess.run(
            [sys.executable, CHILD, str(p), str(d), str(start), str(CASE_SECONDS)],
            capture_output=True,
            text=True,
            timeout=1800,
        )
        lines = proc.stdout.splitlines()
        failing += [line for line in lines if line.startswith("FAIL ")]
        notes += [line for line in lines if line.startswith(("SEMANTIC ", "SKIP ", "UNAVAILABLE "))]
        if lines and lines[-1].startswith(SENTINEL):
            notes.append("%s (the last of %d child processes)" % (lines[-1], run))
            return failing, notes
        begun = [line for line in lines if line.startswith("BEGIN ")]
        how = _how_it_ended(proc.returncode, proc.stderr)
        if not begun:
            pytest.fail("the sweep child %s before its first case; stderr:\n        %s" % (how, _tail(proc.stderr)))
        index, label = begun[-1][len("BEGIN ") :].split(" ", 1)
        failing.append("FAIL %s: the interpreter %s; stderr tail:\n        %s" % (label, how, _tail(proc.stderr)))
        start = int(index) + 1
    pytest.fail("the sweep child died %d times; failing so far:\n%s" % (MAX_RESTARTS, "\n".join(failing)))


def test_bad_values_are_refused(device):
    failing, notes = run_sweep(device)
    print("\n".join(notes))
    assert not failing, "%d bad values not refused by the rule on %s:\n%s" % (
        len(failing),
        device.name,
        "\n".join(failing),
    )


# }}}


# {{{ numpy integers in range work like ints

_envs = {}  # device int_ptr -> Env
_unavailable = {}  # (device int_ptr, row id) -> why the device cannot run the row, or None


def env_for(device):
    env = _envs.get(device.int_ptr)
    if env is None:
        env = _envs[device.int_ptr] = Env(device)
    return env


def probe(env, row):
    """None if the row's call works on the device with its valid value, else
    why not (CannotRun, UnavailableError). Other errors propagate: the row
    is wrong."""
    key = (env.device.int_ptr, row.id)
    if key not in _unavailable:
        try:
            row.call(env, row.valid)
            _unavailable[key] = None
        except (CannotRun, cl.UnavailableError) as error:
            _unavailable[key] = describe(error)
    return _unavailable[key]


class NumpyInt:
    """A numpy integer type, or a 0-d integer array, made from an int."""

    def __init__(self, label, make, limit=2**63 - 1):
        self.label, self.make, self.limit = label, make, limit

    def __call__(self, value):
        return self.make(value)

    def __repr__(self):
        return self.label


NUMPY_INTS = st.sampled_from(
    [
        NumpyInt("numpy.int64", np.int64),
        NumpyInt("numpy.uint32", np.uint32, 2**32 - 1),
        NumpyInt("numpy.intp", np.intp),
        NumpyInt("0-d numpy.int64 array", lambda v: np.array(v, np.int64)),
    ]
)


def plain(result):
    """``result`` with the type of every leaf spelled out, so that a numpy
    integer where the int call gave an int differs."""
    if isinstance(result, np.ndarray):
        return ("ndarray", result.dtype.str, result.shape, result.tobytes())
    if isinstance(result, (tuple, list)):
        return tuple(plain(x) for x in result)
    return (type(result).__name__, result)


@pytest.mark.parametrize("row", TABLE, ids=[row.id for row in TABLE])
@given(data=st.data())
def test_numpy_integers_work_like_ints(device, row, data):
    env = env_for(device)
    reason = probe(env, row)
    if reason is not None:
        pytest.skip("%s cannot run %s: %s" % (device.name, row.where, reason))
    value = data.draw(row.ok, label="in-range value")
    make = data.draw(NUMPY_INTS.filter(lambda t: value <= t.limit), label="numpy type")
    given_value = make(value)
    if row.is_tuple:
        note("%s[%d] = %r" % (row.arg, row.index, given_value))
        expected = row.call_entry(env, value)
        got = row.call_entry(env, given_value)
    else:
        expected = row.call(env, value)
        got = row.call(env, given_value)
    assert plain(got) == plain(expected)


# }}}
