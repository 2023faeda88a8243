"""enqueue_copy's routes, fills, migration, P2P and NannyEvent lifetimes,
on every device, compared with numpy slicing of a host mirror."""

import gc
import platform
import warnings
import weakref

import numpy as np
import pytest
from bufutil import align_of, filled, read_all

import pycl as cl
from pycl import _wards as wards

mf = cl.mem_flags


# {{{ buffer <-> host


def test_host_round_trip_with_offsets(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 256)
    data = np.arange(10, dtype=np.float32)
    event = cl.enqueue_copy(queue, buf, data, dst_offset=12)
    assert isinstance(event, cl.NannyEvent) and event.get_ward() is data
    model[12:52] = data.view(np.uint8)
    out = np.zeros(7, np.float32)
    event = cl.enqueue_copy(queue, out, buf, src_offset=12)
    assert event.get_ward() is out
    np.testing.assert_array_equal(out.view(np.uint8), model[12:40])
    np.testing.assert_array_equal(read_all(queue, buf), model)


@pytest.mark.parametrize("kind", ["bytes", "bytearray", "memoryview", "fortran", "2d"])
def test_host_object_kinds(cq, kind):
    ctx, queue = cq
    buf, model = filled(ctx, 64)
    if kind == "bytes":
        cl.enqueue_copy(queue, buf, bytes(range(64)))
        model[:] = np.arange(64)
        host = bytearray(64)
    elif kind == "bytearray":
        host = bytearray(64)
    elif kind == "memoryview":
        host = memoryview(bytearray(64))
    elif kind == "fortran":
        host = np.zeros((4, 16), np.uint8, order="F")
    else:
        host = np.zeros((4, 16), np.uint8)
    cl.enqueue_copy(queue, host, buf)
    # the bytes in memory order (column-major for the Fortran array)
    got = host.ravel(order="F") if kind == "fortran" else np.frombuffer(bytes(host), np.uint8)
    np.testing.assert_array_equal(got, model)


def test_host_side_errors(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 64)
    with pytest.raises(TypeError, match="ascontiguousarray"):
        cl.enqueue_copy(queue, np.zeros((4, 16), np.uint8)[:, ::2], buf)
    with pytest.raises(TypeError, match="ascontiguousarray"):
        cl.enqueue_copy(queue, buf, np.zeros((4, 16), np.uint8)[:, ::2])
    readonly = np.zeros(8, np.uint8)
    readonly.flags.writeable = False
    with pytest.raises(cl.LogicError, match="read-only"):
        cl.enqueue_copy(queue, readonly, buf)
    with pytest.raises(cl.LogicError, match="read-only"):
        cl.enqueue_copy(queue, b"12345678", buf)
    cl.enqueue_copy(queue, buf, readonly)  # a read-only source is fine
    model[:8] = 0
    with pytest.raises(cl.LogicError, match=r"past the end of dest \(64 bytes\)"):
        cl.enqueue_copy(queue, buf, np.zeros(65, np.uint8))
    with pytest.raises(cl.LogicError, match="dst_offset = 60"):
        cl.enqueue_copy(queue, buf, np.zeros(5, np.uint8), dst_offset=60)
    with pytest.raises(cl.LogicError, match="src_offset = 1"):
        cl.enqueue_copy(queue, np.zeros(64, np.uint8), buf, src_offset=1)
    with pytest.raises(cl.LogicError, match="dst_offset = 4 applies where offsets are not supported: the host side"):
        cl.enqueue_copy(queue, np.zeros(4, np.uint8), buf, dst_offset=4)
    with pytest.raises(cl.LogicError, match="src_offset = 4 applies where offsets are not supported: the host side"):
        cl.enqueue_copy(queue, buf, np.zeros(4, np.uint8), src_offset=4)
    with pytest.raises(cl.LogicError, match="negative"):
        cl.enqueue_copy(queue, np.zeros(4, np.uint8), buf, src_offset=-4)
    with pytest.raises(TypeError, match="src_offset"):
        cl.enqueue_copy(queue, np.zeros(4, np.uint8), buf, src_offset=4.0)
    # An array where an offset that must be 0 goes: its type is refused
    # before any comparison (an array compared with 0 has no truth value).
    with pytest.raises(TypeError, match="src_offset must be an int, not ndarray"):
        cl.enqueue_copy(queue, buf, np.zeros(4, np.uint8), src_offset=np.array([1, 2]))
    with pytest.raises(TypeError, match="buffer protocol"):
        cl.enqueue_copy(queue, buf, 17)
    with pytest.raises(TypeError, match="host-to-host"):
        cl.enqueue_copy(queue, np.zeros(4), np.zeros(4))
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        cl.enqueue_copy(queue, np.zeros(4, np.uint8), buf, byte_count=4)
    with pytest.raises(TypeError, match="queue"):
        cl.enqueue_copy(buf, np.zeros(4, np.uint8), buf)
    with pytest.raises(TypeError, match="wait_for"):
        cl.enqueue_copy(queue, np.zeros(4, np.uint8), buf, wait_for=[buf])
    np.testing.assert_array_equal(read_all(queue, buf), model)


def test_other_context_and_host_access(cq, ctx_factory):
    ctx, queue = cq
    foreign = cl.Buffer(ctx_factory(), mf.READ_WRITE, 64)
    with pytest.raises(cl.LogicError, match="another context") as info:
        cl.enqueue_copy(queue, np.zeros(4, np.uint8), foreign)
    assert info.value.code == cl.status_code.INVALID_CONTEXT
    write_only = cl.Buffer(ctx, mf.HOST_WRITE_ONLY, 64)
    cl.enqueue_copy(queue, write_only, np.zeros(64, np.uint8))
    with pytest.raises(cl.LogicError, match="HOST_WRITE_ONLY") as info:
        cl.enqueue_copy(queue, np.zeros(4, np.uint8), write_only)
    assert info.value.code == cl.status_code.INVALID_OPERATION
    no_access = cl.Buffer(ctx, mf.HOST_NO_ACCESS, 64)
    with pytest.raises(cl.LogicError, match="HOST_NO_ACCESS"):
        cl.enqueue_copy(queue, no_access, np.zeros(4, np.uint8), buffer_origin=(0,), host_origin=(0,), region=(4,))


def test_deprecated_aliases(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 64)
    other, _ = filled(ctx, 64, 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cl.enqueue_copy(queue, buf, np.zeros(4, np.uint8), device_offset=8)
        cl.enqueue_copy(queue, other, buf, dest_offset=4, byte_count=8)
    assert [w.category for w in caught] == [DeprecationWarning] * 2
    assert [w.filename for w in caught] == [__file__] * 2  # the caller's line, whatever the route's depth
    model[8:12] = 0
    np.testing.assert_array_equal(read_all(queue, other)[4:12], model[:8])
    # PyOpenCL tests the new name's presence, not its value: 0 counts.
    out = np.zeros(4, np.uint8)
    for call in (
        lambda: cl.enqueue_copy(queue, buf, np.zeros(4, np.uint8), device_offset=8, dst_offset=4),
        lambda: cl.enqueue_copy(queue, buf, np.zeros(4, np.uint8), device_offset=8, dst_offset=0),
        lambda: cl.enqueue_copy(queue, out, buf, device_offset=8, src_offset=0),
        lambda: cl.enqueue_copy(queue, other, buf, dest_offset=0, dst_offset=0),
        lambda: cl.enqueue_copy(queue, other, buf, dest_offset=4, dst_offset=0, byte_count=8),
    ):
        with pytest.raises(TypeError, match="both"):
            call()
    np.testing.assert_array_equal(read_all(queue, other)[4:12], model[:8])  # nothing was copied
    # A deprecated name given as None is ignored, as PyOpenCL does.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cl.enqueue_copy(queue, out, buf, device_offset=None, src_offset=8)
    np.testing.assert_array_equal(out, model[8:12])


# }}}


# {{{ buffer -> buffer


def test_buffer_copy_defaults_to_the_minimum(cq):
    ctx, queue = cq
    big, big_model = filled(ctx, 256, 1)
    small, small_model = filled(ctx, 100, 2)
    cl.enqueue_copy(queue, small, big)  # PyOpenCL copies 256 bytes and fails
    np.testing.assert_array_equal(read_all(queue, small), big_model[:100])
    cl.enqueue_copy(queue, big, small, dst_offset=200)  # min(100, 256 - 200) = 56
    big_model[200:256] = big_model[:56]
    np.testing.assert_array_equal(read_all(queue, big), big_model)
    cl.enqueue_copy(queue, small, big, src_offset=10, dst_offset=20, byte_count=30)
    expected = big_model[:100].copy()
    expected[20:50] = big_model[10:40]
    np.testing.assert_array_equal(read_all(queue, small), expected)
    with pytest.raises(cl.LogicError, match="byte_count 90"):
        cl.enqueue_copy(queue, small, big, dst_offset=20, byte_count=90)
    with pytest.raises(cl.LogicError, match="src_offset = 300"):
        cl.enqueue_copy(queue, small, big, src_offset=300)
    with pytest.raises(TypeError, match="is_blocking"):
        cl.enqueue_copy(queue, small, big, is_blocking=True)  # as PyOpenCL: not a host transfer
    assert type(cl.enqueue_copy(queue, small, big)) is cl.Event


def test_buffer_copy_overlap(cq):
    ctx, queue = cq
    align = align_of(ctx)
    buf, model = filled(ctx, 4 * align)
    with pytest.raises(cl.LogicError, match="overlap") as info:
        cl.enqueue_copy(queue, buf, buf, src_offset=0, dst_offset=8, byte_count=16)
    assert info.value.code == cl.status_code.MEM_COPY_OVERLAP
    sub_a, sub_b = buf[0 : 2 * align], buf[align : 3 * align]
    with pytest.raises(cl.LogicError, match="overlap"):
        cl.enqueue_copy(queue, sub_b, sub_a)  # both are bytes [align, 2*align) of the parent
    cl.enqueue_copy(queue, buf, buf, src_offset=0, dst_offset=16, byte_count=16)  # adjacent: fine
    model[16:32] = model[0:16]
    cl.enqueue_copy(queue, sub_b, sub_a, byte_count=16, src_offset=0, dst_offset=align)
    model[2 * align : 2 * align + 16] = model[0:16]
    np.testing.assert_array_equal(read_all(queue, buf), model)


# }}}


# {{{ rect copies


def rect_view(array, origin, region, pitches):
    row, slice_ = pitches
    start = origin[0] + origin[1] * row + origin[2] * slice_
    return np.lib.stride_tricks.as_strided(array[start:], shape=region[::-1], strides=(slice_, row, 1), writeable=True)


@pytest.mark.parametrize("use_sub", [False, True])
def test_rect_host_copies(cq, use_sub):
    ctx, queue = cq
    align = align_of(ctx)
    root, root_model = filled(ctx, 3 * align, 5)
    buf, model = (root[align:], root_model[align:]) if use_sub else (root, root_model)
    host = np.arange(300, dtype=np.uint8)
    cl.enqueue_copy(
        queue,
        buf,
        host,
        buffer_origin=(3, 1, 1),
        host_origin=(2, 1),
        region=(5, 2, 2),
        buffer_pitches=(16, 48),
        host_pitches=(20, 60),
    )
    rect_view(model, (3, 1, 1), (5, 2, 2), (16, 48))[...] = rect_view(host, (2, 1, 0), (5, 2, 2), (20, 60))
    np.testing.assert_array_equal(read_all(queue, root), root_model)
    out = np.zeros((6, 10), np.uint8)
    cl.enqueue_copy(
        queue,
        out,
        buf,
        buffer_origin=(4, 2),
        host_origin=(1, 1),
        region=(7, 3),
        buffer_pitches=(12,),
        host_pitches=(10,),
    )
    expected = np.zeros(60, np.uint8)
    rect_view(expected, (1, 1, 0), (7, 3, 1), (10, 30))[...] = rect_view(model, (4, 2, 0), (7, 3, 1), (12, 36))
    np.testing.assert_array_equal(out.ravel(), expected)


@pytest.mark.parametrize("use_sub", [False, True])
def test_rect_buffer_copies_on_sub_buffers(cq, use_sub):
    # PoCL crashes in clEnqueueCopyBufferRect on sub-buffers; the shim passes
    # their parent and a shifted origin (docs/quirks.md).
    ctx, queue = cq
    align = align_of(ctx)
    a_root, a_model_root = filled(ctx, 3 * align, 6)
    b_root, b_model_root = filled(ctx, 3 * align, 7)
    if use_sub:
        src, src_model = a_root[align:], a_model_root[align:]
        dst, dst_model = b_root[2 * align :], b_model_root[2 * align :]
    else:
        src, src_model, dst, dst_model = a_root, a_model_root, b_root, b_model_root
    cl.enqueue_copy(
        queue, dst, src, src_origin=(1, 2), dst_origin=(3, 1), region=(6, 3), src_pitches=(10,), dst_pitches=(12,)
    ).wait()
    rect_view(dst_model, (3, 1, 0), (6, 3, 1), (12, 36))[...] = rect_view(src_model, (1, 2, 0), (6, 3, 1), (10, 30))
    np.testing.assert_array_equal(read_all(queue, b_root), b_model_root)
    np.testing.assert_array_equal(read_all(queue, a_root), a_model_root)


def test_rect_same_buffer(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 256, 8)
    # columns 0..3 -> columns 8..11 of 16-byte rows: disjoint, interleaved
    cl.enqueue_copy(
        queue, buf, buf, src_origin=(0, 0), dst_origin=(8, 0), region=(4, 8), src_pitches=(16,), dst_pitches=(16,)
    )
    rect_view(model, (8, 0, 0), (4, 8, 1), (16, 128))[...] = rect_view(model, (0, 0, 0), (4, 8, 1), (16, 128)).copy()
    np.testing.assert_array_equal(read_all(queue, buf), model)
    with pytest.raises(cl.LogicError, match="overlap"):
        cl.enqueue_copy(
            queue, buf, buf, src_origin=(0, 0), dst_origin=(2, 0), region=(4, 8), src_pitches=(16,), dst_pitches=(16,)
        )
    with pytest.raises(cl.LogicError, match="pitches must be equal"):
        cl.enqueue_copy(
            queue, buf, buf, src_origin=(0, 0), dst_origin=(0, 8), region=(4, 4), src_pitches=(16,), dst_pitches=(20,)
        )


def test_rect_argument_errors(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 64)
    host = np.zeros(64, np.uint8)
    good = dict(buffer_origin=(0,), host_origin=(0,), region=(4, 4))
    cases = [
        (
            dict(good, buffer_pitches=(3,)),
            cl.LogicError,
            r"buffer_pitches\[0\] \(row pitch\) = 3 is smaller than region\[0\] = 4",
        ),
        (dict(good, host_pitches=(4, 15)), cl.LogicError, r"host_pitches\[1\] \(slice pitch\) = 15 is smaller"),
        (dict(good, region=(4, 4, 2), host_pitches=(6, 26)), cl.LogicError, "not a multiple"),
        (dict(good, buffer_origin=(0, 13)), cl.LogicError, r"reaches byte 68, past the end of the buffer"),
        (dict(good, region=(4, 4, 5)), cl.LogicError, "past the end"),
        (dict(good, host_origin=(1, 0, 0, 0)), cl.LogicError, "1 to 3 entries"),
        (dict(good, buffer_pitches=(4, 16, 64)), cl.LogicError, "at most 2 entries"),
        (dict(good, region=(4, -1)), cl.LogicError, r"region\[1\] = -1 is negative"),
        (dict(good, region=4), TypeError, "region must be a tuple"),
        (dict(good, host_origin=(0.5,)), TypeError, r"host_origin\[0\] must be an int"),
        (dict(good, buffer_origin=(2**64,)), cl.LogicError, "exceeds the limit"),
        (dict(good, buffer_origin=np.array([1, 2])), TypeError, "buffer_origin must be a tuple"),
        # Each entry of an origin, region and pitch pair is bounded, the
        # first ones too (their fast paths test the entries one by one).
        (dict(good, buffer_pitches=(2**63, 0)), cl.LogicError, r"buffer_pitches\[0\] = %d exceeds the limit" % 2**63),
        (dict(good, host_pitches=(4, 2**63)), cl.LogicError, r"host_pitches\[1\] = %d exceeds the limit" % 2**63),
        (dict(good, region=(2**63, 1)), cl.LogicError, r"region\[0\] = %d exceeds the limit" % 2**63),
        (dict(good, host_origin=(0, 0, 2**63)), cl.LogicError, r"host_origin\[2\] = %d exceeds the limit" % 2**63),
    ]
    for kwargs, error, message in cases:
        with pytest.raises(error, match=message):
            cl.enqueue_copy(queue, host, buf, **kwargs)
        with pytest.raises(error):
            cl.enqueue_copy(queue, buf, host, **kwargs)
    with pytest.raises(TypeError, match="dst_origin"):
        cl.enqueue_copy(queue, buf, buf, src_origin=(0,), region=(4,))
    np.testing.assert_array_equal(host, 0)
    np.testing.assert_array_equal(read_all(queue, buf), model)


# }}}


def test_zero_byte_transfers_are_markers(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 64)
    other, other_model = filled(ctx, 64, 1)
    empty = np.zeros(0, np.uint8)
    for event in [
        cl.enqueue_copy(queue, empty, buf),
        cl.enqueue_copy(queue, buf, empty, dst_offset=64),
        cl.enqueue_copy(queue, buf, np.zeros(8, np.uint8), buffer_origin=(0,), host_origin=(0,), region=(4, 0)),
    ]:
        assert isinstance(event, cl.NannyEvent)
        event.wait()
    for event in [
        cl.enqueue_copy(queue, other, buf, byte_count=0),
        cl.enqueue_copy(queue, other, buf, src_origin=(0,), dst_origin=(0,), region=(0,)),
        cl.enqueue_fill_buffer(queue, buf, np.uint32(1), 64, 0),
    ]:
        assert type(event) is cl.Event
        event.wait()
    np.testing.assert_array_equal(read_all(queue, buf), model)
    np.testing.assert_array_equal(read_all(queue, other), other_model)


# {{{ fills


@pytest.mark.parametrize("pattern_size", [1, 2, 4, 8, 16, 32, 64, 128])
def test_fill_patterns(cq, pattern_size):
    ctx, queue = cq
    buf, model = filled(ctx, 1024)
    pattern = np.arange(pattern_size, dtype=np.uint8) + 1
    offset, size = pattern_size, 4 * pattern_size
    cl.enqueue_fill_buffer(queue, buf, pattern, offset, size)
    model[offset : offset + size] = np.tile(pattern, 4)
    cl.enqueue_fill(queue, buf, pattern, pattern_size, offset=512)
    model[512 : 512 + pattern_size] = pattern
    np.testing.assert_array_equal(read_all(queue, buf), model)


def test_fill_errors(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 64)
    with pytest.raises(cl.LogicError, match="3 bytes"):
        cl.enqueue_fill_buffer(queue, buf, np.zeros(3, np.uint8), 0, 63)
    with pytest.raises(cl.LogicError, match="offset = 2 is not a multiple of the pattern size 4"):
        cl.enqueue_fill_buffer(queue, buf, np.uint32(0), 2, 8)
    with pytest.raises(cl.LogicError, match="size = 6 is not a multiple"):
        cl.enqueue_fill_buffer(queue, buf, np.uint32(0), 0, 6)
    with pytest.raises(cl.LogicError, match="past the end of mem"):
        cl.enqueue_fill_buffer(queue, buf, np.uint32(0), 60, 8)
    with pytest.raises(TypeError, match="pycl.Buffer"):
        cl.enqueue_fill_buffer(queue, np.zeros(4), np.uint32(0), 0, 4)
    with pytest.raises(TypeError, match="does not know how to fill"):
        cl.enqueue_fill(queue, np.zeros(4), np.uint32(0), 4)
    np.testing.assert_array_equal(read_all(queue, buf), model)


# }}}


def test_migrate(cq):
    ctx, queue = cq
    a, a_model = filled(ctx, 64)
    b, b_model = filled(ctx, 128, 1)
    mig = cl.mem_migration_flags
    cl.enqueue_migrate_mem_objects(queue, [a, b]).wait()
    cl.enqueue_migrate_mem_objects(queue, [a], mig.HOST).wait()
    cl.enqueue_migrate_mem_objects(queue, [b[0:64]], wait_for=[cl.enqueue_marker(queue)]).wait()
    np.testing.assert_array_equal(read_all(queue, a), a_model)
    np.testing.assert_array_equal(read_all(queue, b), b_model)
    cl.enqueue_migrate_mem_objects(queue, [a], mig.CONTENT_UNDEFINED).wait()
    with pytest.raises(cl.LogicError, match="empty"):
        cl.enqueue_migrate_mem_objects(queue, [])
    with pytest.raises(cl.LogicError, match="mem_migration_flags"):
        cl.enqueue_migrate_mem_objects(queue, [a], 8)
    with pytest.raises(TypeError, match=r"mem_objects\[1\]"):
        cl.enqueue_migrate_mem_objects(queue, [a, np.zeros(3)])


def test_p2p_unavailable(cq):
    ctx, queue = cq
    platform = ctx.devices[0].platform
    a, _ = filled(ctx, 64)
    b, _ = filled(ctx, 64)
    if "cl_amd_copy_buffer_p2p" in platform.extensions:
        pytest.skip("this platform has cl_amd_copy_buffer_p2p (not among pycl's test devices)")
    with pytest.raises(cl.UnavailableError, match="cl_amd_copy_buffer_p2p"):
        cl.enqueue_copy_buffer_p2p_amd(platform, queue, a, b)
    with pytest.raises(NotImplementedError):
        cl.enqueue_copy_buffer_p2p_amd(platform, queue, a, b, byte_count=8)
    with pytest.raises(cl.LogicError, match="byte_count = 100"):
        cl.enqueue_copy_buffer_p2p_amd(platform, queue, a, b, byte_count=100)


# {{{ NannyEvent lifetimes


def test_non_blocking_read_keeps_dropped_array_alive(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 4096)
    gate = cl.UserEvent(ctx)
    host = np.zeros(4096, np.uint8)
    ref = weakref.ref(host)
    before = wards.pending_count()
    event = cl.enqueue_copy(queue, host, buf, is_blocking=False, wait_for=[gate])
    assert event.get_ward() is host
    # dropping the array and the pending event neither blocks (the gate is
    # still closed: a blocking finalizer would hang here) nor frees the memory
    del host, event
    gc.collect()
    assert ref() is not None and wards.pending_count() == before + 1
    np.testing.assert_array_equal(ref(), 0)
    gate.set_status(cl.command_execution_status.COMPLETE)
    queue.finish()
    assert wards.pending_count() == before
    for _ in range(5):  # PyPy frees cpyext objects over several collections
        gc.collect()
    assert ref() is None


def test_non_blocking_write_and_later_calls_prune(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 256)
    for i in range(40):
        data = np.full(4, i, np.uint8)
        cl.enqueue_copy(queue, buf, data, dst_offset=4 * i, is_blocking=False)
        model[4 * i : 4 * i + 4] = i
    queue.finish()
    assert wards.pending_count() == 0
    event = cl.enqueue_copy(queue, buf, np.ones(4, np.uint8), is_blocking=False)
    event.wait()
    model[:4] = 1
    assert wards.pending_count() == 0
    resized = bytearray(16)
    gate = cl.UserEvent(ctx)
    cl.enqueue_copy(queue, resized, buf, is_blocking=False, wait_for=[gate])
    try:
        if platform.python_implementation() == "CPython":
            # the pending transfer holds a buffer export (PyPy's bytearray has
            # no export lock: docs/differences.md)
            with pytest.raises(BufferError):
                resized.extend(b"x" * 4096)
    finally:
        gate.set_status(cl.command_execution_status.COMPLETE)
    cl.wait_for_events([cl.enqueue_marker(queue)])
    queue.finish()
    np.testing.assert_array_equal(np.frombuffer(resized, np.uint8), model[:16])
    np.testing.assert_array_equal(read_all(queue, buf), model)


# }}}
