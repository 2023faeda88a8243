"""Rect transfers whose buffer side ends at the end of the buffer, with pitches
wider than the region, on every device, compared with numpy models.

NVIDIA OpenCL 3.0 (CUDA 13.0.98, H200) refuses such calls with
CL_INVALID_VALUE when the last slice, counted whole, would pass the end of the
buffer, although the spec allows them (docs/quirks.md); the shim then issues
the same bytes as pieces (cl_shim/src/memory.c, "rect transfers"). The pieces
run on every device, so these tests check them everywhere: results, events,
wait lists, blocking, out-of-order queues, sub-buffers and copies within one
buffer (where PoCL's overlap check refuses some pieces and pycl copies row by
row). The models are numpy strided views of host mirrors, never pycl code.
"""

import numpy as np
import pytest
from bufutil import align_of, read_all
from hypothesis import assume, given, note
from hypothesis import strategies as st
from numpy.lib.stride_tricks import as_strided

import pycl as cl
from pycl._lib import ffi, lib

mf = cl.mem_flags
COMPLETE = cl.command_execution_status.COMPLETE
OUT_OF_ORDER = cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE


# {{{ models


def full_pitches(region, pitches):
    """(row, slice) as OpenCL derives them from ``pitches`` (None, or up to 2
    ints with 0 for tightly packed)."""
    region = tuple(region) + (1,) * (3 - len(region))
    given = tuple(pitches or ()) + (0, 0)
    row = given[0] or region[0]
    return row, given[1] or region[1] * row


def start_of(origin, region, pitches):
    origin = tuple(origin) + (0,) * (3 - len(origin))
    row, slice_ = full_pitches(region, pitches)
    return origin[0] + origin[1] * row + origin[2] * slice_


def end_of(origin, region, pitches):
    """One past the last byte the side touches (the spec's bound)."""
    r0, r1, r2 = tuple(region) + (1,) * (3 - len(region))
    row, slice_ = full_pitches(region, pitches)
    return start_of(origin, region, pitches) + (r2 - 1) * slice_ + (r1 - 1) * row + r0


def box(array, origin, region, pitches):
    """The bytes of ``array`` one side covers, as a (depth, height, width) view."""
    r0, r1, r2 = tuple(region) + (1,) * (3 - len(region))
    row, slice_ = full_pitches(region, pitches)
    start = start_of(origin, region, pitches)
    return as_strided(array[start:], shape=(r2, r1, r0), strides=(slice_, row, 1), writeable=True)


def cells(origin, region, pitches):
    """The byte offsets one side covers, as a set (a brute-force overlap model)."""
    r0, r1, r2 = tuple(region) + (1,) * (3 - len(region))
    row, slice_ = full_pitches(region, pitches)
    start = start_of(origin, region, pitches)
    return {start + z * slice_ + y * row + x for z in range(r2) for y in range(r1) for x in range(r0)}


def random_bytes(n, seed):
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8)


class Tail:
    """A buffer (or a sub-buffer ending at its parent's end) of exactly
    ``size`` bytes, random content, and its model (the root's model, or the
    slice of it that the sub-buffer is)."""

    def __init__(self, ctx, size, seed, sub=False):
        pad = align_of(ctx) if sub else 0
        self.root_model = random_bytes(pad + size, seed)
        self.root = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=self.root_model)
        self.buf = self.root[pad:] if sub else self.root
        self.model = self.root_model[pad:]
        assert self.buf.size == size

    def check(self, queue):
        np.testing.assert_array_equal(read_all(queue, self.root), self.root_model)


# }}}


# {{{ fixed cases


# (buffer_origin, region, buffer_pitches) of a buffer side; the buffer is
# exactly as large as the spec needs, so the last row ends at its last byte.
TAIL_CASES = [
    ((0, 0, 1), (1, 1, 1), (1, 3)),  # NVIDIA refused this one (the fuzz test found it)
    ((1, 0, 1), (1, 1, 1), (2, 2)),
    ((0, 0, 1), (1, 1, 1), (2, 4)),
    ((2, 1, 0), (3, 2, 2), (5, 20)),  # wide slices and rows: three pieces
    ((0, 0, 0), (3, 2, 3), (4, 12)),
    ((3, 1, 1), (2, 2, 2), (6, 18)),
    ((0, 0, 0), (4, 2, 2), (4, 12)),  # rows tight, slices apart: two pieces
    ((0, 0, 0), (5, 1, 3), (5, 10)),
    ((1, 0, 0), (3, 4, 1), (7, 28)),  # one slice, wide rows
    ((0, 2, 0), (4, 3), (9,)),
    ((0, 0, 2), (4, 1, 1), (9, 27)),  # one row in a later slice
    ((5, 0, 0), (2, 3, 2), (3, 12)),  # origin[0] past the row pitch
    ((0, 0, 0), (3, 2, 2), (3, 6)),  # tightly packed: no rewrite
]
CASE_IDS = ["o%s-r%s-p%s" % tuple("x".join(map(str, v)) for v in case) for case in TAIL_CASES]


def host_side(region):
    """A host layout with pitches wider than the region and an origin off 0,
    as (host_origin, host_pitches, host size)."""
    r0, r1, r2 = tuple(region) + (1,) * (3 - len(region))
    origin = (1, 1, 0)
    pitches = (r0 + 2, (r1 + 1) * (r0 + 2))
    return origin, pitches, end_of(origin, region, pitches) + 3


@pytest.mark.parametrize("blocking", [True, False])
@pytest.mark.parametrize("sub", [False, True])
@pytest.mark.parametrize("case", TAIL_CASES, ids=CASE_IDS)
def test_write_at_tail(cq, case, sub, blocking):
    ctx, queue = cq
    origin, region, pitches = case
    tail = Tail(ctx, end_of(origin, region, pitches), 1, sub)
    h_origin, h_pitches, h_size = host_side(region)
    host = random_bytes(h_size, 2)
    event = cl.enqueue_copy(
        queue,
        tail.buf,
        host,
        buffer_origin=origin,
        host_origin=h_origin,
        region=region,
        buffer_pitches=pitches,
        host_pitches=h_pitches,
        is_blocking=blocking,
    )
    assert event.get_ward() is host
    assert event.command_type == cl.command_type.WRITE_BUFFER_RECT
    event.wait()
    box(tail.model, origin, region, pitches)[...] = box(host, h_origin, region, h_pitches)
    tail.check(queue)


@pytest.mark.parametrize("blocking", [True, False])
@pytest.mark.parametrize("sub", [False, True])
@pytest.mark.parametrize("case", TAIL_CASES, ids=CASE_IDS)
def test_read_at_tail(cq, case, sub, blocking):
    ctx, queue = cq
    origin, region, pitches = case
    tail = Tail(ctx, end_of(origin, region, pitches), 3, sub)
    h_origin, h_pitches, h_size = host_side(region)
    host = np.full(h_size, 0xAA, np.uint8)
    expected = host.copy()
    box(expected, h_origin, region, h_pitches)[...] = box(tail.model, origin, region, pitches)
    event = cl.enqueue_copy(
        queue,
        host,
        tail.buf,
        buffer_origin=origin,
        host_origin=h_origin,
        region=region,
        buffer_pitches=pitches,
        host_pitches=h_pitches,
        is_blocking=blocking,
    )
    assert event.command_type == cl.command_type.READ_BUFFER_RECT
    event.wait()
    np.testing.assert_array_equal(host, expected)
    tail.check(queue)


@pytest.mark.parametrize("sub", [False, True])
@pytest.mark.parametrize("case", TAIL_CASES, ids=CASE_IDS)
def test_copy_at_tail(cq, case, sub):
    """The case on the source, on the destination, and on both (the other
    side a larger buffer with its own pitches, or the case's twin)."""
    ctx, queue = cq
    origin, region, pitches = case
    size = end_of(origin, region, pitches)
    o_origin, o_pitches, o_size = host_side(region)
    for tail_src, tail_dst in [(True, False), (False, True), (True, True)]:
        src = Tail(ctx, size, 4, sub) if tail_src else Tail(ctx, o_size, 5)
        dst = Tail(ctx, size, 6, sub) if tail_dst else Tail(ctx, o_size, 7)
        s_origin, s_pitches = (origin, pitches) if tail_src else (o_origin, o_pitches)
        d_origin, d_pitches = (origin, pitches) if tail_dst else (o_origin, o_pitches)
        event = cl.enqueue_copy(
            queue,
            dst.buf,
            src.buf,
            src_origin=s_origin,
            dst_origin=d_origin,
            region=region,
            src_pitches=s_pitches,
            dst_pitches=d_pitches,
        )
        assert event.command_type == cl.command_type.COPY_BUFFER_RECT
        event.wait()
        box(dst.model, d_origin, region, d_pitches)[...] = box(src.model, s_origin, region, s_pitches)
        dst.check(queue)
        src.check(queue)


def test_measured_case_round_trip(cq):
    """The fuzz test's failing call: one byte at origin (0, 0, 1) with
    pitches (1, 3) into a 4-byte buffer (its last byte), then back."""
    ctx, queue = cq
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.arange(4, dtype=np.uint8))
    rect = dict(buffer_origin=(0, 0, 1), host_origin=(0,), region=(1,), buffer_pitches=(1, 3), host_pitches=(1, 1))
    cl.enqueue_copy(queue, buf, np.array([200], np.uint8), **rect)
    np.testing.assert_array_equal(read_all(queue, buf), [0, 1, 2, 200])
    out = np.zeros(1, np.uint8)
    cl.enqueue_copy(queue, out, buf, **rect)
    assert out[0] == 200
    other = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.arange(10, 14, dtype=np.uint8))
    cl.enqueue_copy(
        queue,
        other,
        buf,
        src_origin=(0, 0, 1),
        dst_origin=(0, 0, 1),
        region=(1,),
        src_pitches=(1, 3),
        dst_pitches=(1, 3),
    )
    np.testing.assert_array_equal(read_all(queue, other), [10, 11, 12, 200])


# Copies within one buffer, disjoint, the destination (or the source) at the
# tail: (src_origin, dst_origin, region, pitches, buffer size). PoCL 3.0/3.1
# refuse the last row of the first one as overlapping (CL_MEM_COPY_OVERLAP)
# after accepting the first two pieces: the shim fences those and pycl copies
# row by row.
SAME_BUFFER_CASES = [
    ((0, 0, 0), (4, 0, 0), (3, 3, 2), (8, 32), 55),
    ((4, 0, 0), (0, 0, 0), (3, 3, 2), (8, 32), 55),
    ((0, 0, 0), (0, 0, 1), (2, 2, 1), (5, 15), 22),
    ((0, 1, 0), (3, 1, 0), (2, 3, 2), (6, 24), 47),
]


@pytest.mark.parametrize("case", SAME_BUFFER_CASES)
def test_copy_within_one_buffer_at_tail(cq, case):
    ctx, queue = cq
    s_origin, d_origin, region, pitches, size = case
    assert max(end_of(s_origin, region, pitches), end_of(d_origin, region, pitches)) == size
    assert not cells(s_origin, region, pitches) & cells(d_origin, region, pitches)
    tail = Tail(ctx, size, 8)
    cl.enqueue_copy(
        queue,
        tail.buf,
        tail.buf,
        src_origin=s_origin,
        dst_origin=d_origin,
        region=region,
        src_pitches=pitches,
        dst_pitches=pitches,
    ).wait()
    box(tail.model, d_origin, region, pitches)[...] = box(tail.model, s_origin, region, pitches).copy()
    tail.check(queue)


def test_shim_derives_zero_pitches(cq):
    """The shim's C entry points (for embedders) take 0 pitches as OpenCL
    does, row = region[0] and slice = region[1] * row, on both sides; here the
    buffer's slice pitch 0 means 10 and the host's pitches 3 and 6."""
    ctx, queue = cq
    region, b_origin = (3, 2, 2), (0, 0, 1)
    size = end_of(b_origin, region, (5,))  # 28, where whole slices would need 30
    tail, other = Tail(ctx, size, 9), Tail(ctx, size, 11)
    host = random_bytes(12, 10)
    out = np.zeros(12, np.uint8)
    at, zero, extent = (ffi.new("size_t[3]", v) for v in (b_origin, (0, 0, 0), region))
    q, mem = queue._live(), tail.buf._live()
    none = (0, ffi.NULL, ffi.NULL)
    assert (
        lib.pycl_enqueue_write_buffer_rect(q, mem, 1, at, zero, extent, 5, 0, 0, 0, ffi.from_buffer(host), *none) == 0
    )
    box(tail.model, b_origin, region, (5,))[...] = box(host, (0,), region, None)
    tail.check(queue)
    status = lib.pycl_enqueue_read_buffer_rect(q, mem, 1, at, zero, extent, 5, 0, 0, 0, ffi.from_buffer(out), *none)
    assert status == 0
    np.testing.assert_array_equal(out, host)
    assert lib.pycl_enqueue_copy_buffer_rect(q, mem, other.buf._live(), at, at, extent, 5, 0, 5, 0, *none) == 0
    queue.finish()
    box(other.model, b_origin, region, (5,))[...] = box(tail.model, b_origin, region, (5,))
    other.check(queue)


# }}}


# {{{ events: wait lists go to the first piece, the event is the last one's


@pytest.mark.parametrize("out_of_order", [False, True])
def test_gated_chain_at_tail(ctx_factory, out_of_order):
    """write (host -> a), copy (a -> b), read (b -> host), all split, all
    non-blocking behind a user event and chained by wait_for: nothing runs
    before the gate opens, and waiting for the read's event alone is enough
    to see every byte of all three (the pieces are chained, also out of
    order)."""
    ctx = ctx_factory()
    device = ctx.devices[0]
    if out_of_order and not device.queue_properties & OUT_OF_ORDER:
        pytest.skip("%s has no out-of-order queues" % device.name)
    queue = cl.CommandQueue(ctx, properties=OUT_OF_ORDER if out_of_order else 0)
    origin, region, pitches = (2, 1, 0), (3, 2, 2), (5, 20)
    size = end_of(origin, region, pitches)
    a, b = Tail(ctx, size, 12), Tail(ctx, size, 13)
    h_origin, h_pitches, h_size = host_side(region)
    host_in = random_bytes(h_size, 14)
    host_out = np.full(h_size, 0xAA, np.uint8)
    rect = dict(
        buffer_origin=origin, host_origin=h_origin, region=region, buffer_pitches=pitches, host_pitches=h_pitches
    )
    gate = cl.UserEvent(ctx)
    try:
        write = cl.enqueue_copy(queue, a.buf, host_in, is_blocking=False, wait_for=[gate], **rect)
        copy = cl.enqueue_copy(
            queue,
            b.buf,
            a.buf,
            src_origin=origin,
            dst_origin=origin,
            region=region,
            src_pitches=pitches,
            dst_pitches=pitches,
            wait_for=[write],
        )
        read = cl.enqueue_copy(queue, host_out, b.buf, is_blocking=False, wait_for=[copy], **rect)
        for event in (write, copy, read):
            assert event.command_execution_status != COMPLETE
        np.testing.assert_array_equal(host_out, 0xAA)
    finally:
        gate.set_status(COMPLETE)
    read.wait()
    box(a.model, origin, region, pitches)[...] = box(host_in, h_origin, region, h_pitches)
    box(b.model, origin, region, pitches)[...] = box(a.model, origin, region, pitches)
    expected = np.full(h_size, 0xAA, np.uint8)
    box(expected, h_origin, region, h_pitches)[...] = box(b.model, origin, region, pitches)
    np.testing.assert_array_equal(host_out, expected)
    for event in (write, copy):
        assert event.command_execution_status == COMPLETE
    a.check(queue)
    b.check(queue)


@pytest.mark.parametrize("out_of_order", [False, True])
def test_gated_copy_within_one_buffer(ctx_factory, out_of_order):
    """The same-buffer copy whose last piece PoCL refuses, behind a gate: the
    pieces it enqueued before stay ordered before pycl's row copies."""
    ctx = ctx_factory()
    device = ctx.devices[0]
    if out_of_order and not device.queue_properties & OUT_OF_ORDER:
        pytest.skip("%s has no out-of-order queues" % device.name)
    queue = cl.CommandQueue(ctx, properties=OUT_OF_ORDER if out_of_order else 0)
    s_origin, d_origin, region, pitches, size = SAME_BUFFER_CASES[0]
    tail = Tail(ctx, size, 15)
    gate = cl.UserEvent(ctx)
    try:
        event = cl.enqueue_copy(
            queue,
            tail.buf,
            tail.buf,
            src_origin=s_origin,
            dst_origin=d_origin,
            region=region,
            src_pitches=pitches,
            dst_pitches=pitches,
            wait_for=[gate],
        )
        assert event.command_execution_status != COMPLETE
    finally:
        gate.set_status(COMPLETE)
    out = np.empty(size, np.uint8)
    cl.enqueue_copy(queue, out, tail.buf, is_blocking=False, wait_for=[event]).wait()
    box(tail.model, d_origin, region, pitches)[...] = box(tail.model, s_origin, region, pitches).copy()
    np.testing.assert_array_equal(out, tail.model)


# }}}


# {{{ hypothesis: random rects at the tail of small buffers


@st.composite
def tail_sides(draw, region):
    """(origin, pitches as the caller spells them, size) of a side of
    ``region`` that ends at (or 1 to 3 bytes before) the buffer's end."""
    r0, r1, r2 = region
    row = r0 + draw(st.integers(0, 4))
    slice_ = (r1 + draw(st.integers(0, 3))) * row
    origin = (draw(st.integers(0, 2 * row)), draw(st.integers(0, 3)), draw(st.integers(0, 2)))
    if slice_ == r1 * row and draw(st.booleans()):
        pitches = (row,) if row > r0 or draw(st.booleans()) else None
    else:
        pitches = (row, slice_)
    end = end_of(origin, region, pitches)
    return origin, pitches, end + draw(st.sampled_from([0, 0, 0, 1, 3]))


regions = st.tuples(st.integers(1, 5), st.integers(1, 4), st.integers(1, 3))


def test_random_rects_at_tail(cq):
    ctx, queue = cq
    ooo_queue = None
    if ctx.devices[0].queue_properties & OUT_OF_ORDER:
        ooo_queue = cl.CommandQueue(ctx, properties=OUT_OF_ORDER)

    @given(st.data())
    def run(data):
        region = data.draw(regions, label="region")
        kind = data.draw(st.sampled_from(["write", "read", "copy", "same"]), label="kind")
        sub = data.draw(st.booleans(), label="sub")
        q = queue if ooo_queue is None or not data.draw(st.booleans(), label="out of order") else ooo_queue
        a_origin, a_pitches, a_size = data.draw(tail_sides(region), label="buffer side")
        seed = data.draw(st.integers(0, 2**16))
        if kind in ("write", "read"):
            tail = Tail(ctx, a_size, seed, sub)
            h_origin, h_pitches, h_size = data.draw(tail_sides(region), label="host side")
            blocking = data.draw(st.booleans(), label="blocking")
            kwargs = dict(buffer_origin=a_origin, host_origin=h_origin, region=region, is_blocking=blocking)
            if a_pitches is not None:
                kwargs["buffer_pitches"] = a_pitches
            if h_pitches is not None:
                kwargs["host_pitches"] = h_pitches
            if kind == "write":
                host = random_bytes(h_size, seed + 1)
                cl.enqueue_copy(q, tail.buf, host, **kwargs).wait()
                box(tail.model, a_origin, region, a_pitches)[...] = box(host, h_origin, region, h_pitches)
            else:
                host = np.full(h_size, 0x5A, np.uint8)
                expected = host.copy()
                box(expected, h_origin, region, h_pitches)[...] = box(tail.model, a_origin, region, a_pitches)
                cl.enqueue_copy(q, host, tail.buf, **kwargs).wait()
                np.testing.assert_array_equal(host, expected)
            tail.check(q)
            return
        if kind == "copy":
            b_origin, b_pitches, b_size = data.draw(tail_sides(region), label="other side")
            src, dst = Tail(ctx, a_size, seed, sub), Tail(ctx, b_size, seed + 1, data.draw(st.booleans()))
            if data.draw(st.booleans(), label="swap"):
                src, dst = dst, src
                a_origin, a_pitches, b_origin, b_pitches = b_origin, b_pitches, a_origin, a_pitches
        else:  # within one buffer: same pitches, another origin, disjoint
            b_origin = (data.draw(st.integers(0, 12)), data.draw(st.integers(0, 3)), data.draw(st.integers(0, 2)))
            b_pitches = a_pitches
            assume(not cells(a_origin, region, a_pitches) & cells(b_origin, region, b_pitches))
            size = max(a_size, end_of(b_origin, region, b_pitches))
            src = dst = Tail(ctx, size, seed, sub)
        note("src %r %r, dst %r %r" % (a_origin, a_pitches, b_origin, b_pitches))
        cl.enqueue_copy(
            q,
            dst.buf,
            src.buf,
            src_origin=a_origin,
            dst_origin=b_origin,
            region=region,
            src_pitches=a_pitches,
            dst_pitches=b_pitches,
        ).wait()
        box(dst.model, b_origin, region, b_pitches)[...] = box(src.model, a_origin, region, a_pitches).copy()
        dst.check(q)
        src.check(q)

    run()


# }}}
