"""Staged copies and pinned arrays. Staging is meant for GPUs; these tests turn
it on for every device type with small chunks so that the chunk/slot logic
(several threads, slot reuse, partial last chunk, offsets, events) runs on
every device, compared with numpy."""

import gc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_strategies import check_image_host_copy, formats, host_index, image_queue, model_shape, padded, read_image

import pycl as cl
from pycl import staging
from pycl import strategies as S
from pycl.pinned import PinnedPool, pinned_empty


@pytest.fixture
def staged(ctx_factory):
    before = staging.settings()
    # Oclgrind and the pip PoCL 3.0 run one thread whatever is asked (docs/quirks.md).
    staging.configure(min_bytes=1, chunk_bytes=4096, threads=3, device_types=cl.device_type.ALL)
    yield
    staging.configure(**before)


@pytest.fixture
def queue(ctx_factory):
    return cl.CommandQueue(ctx_factory())


def test_staged_round_trip(queue, staged):
    ctx = queue.context
    rng = np.random.default_rng(5)
    host = rng.integers(0, 256, 10 * 4096 + 123, dtype=np.uint8)  # 11 chunks, the last partial
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.size + 1000)
    cl.enqueue_copy(queue, buf, host, dst_offset=1000)
    assert ctx._stager is not None  # the copy was staged
    back = np.zeros(host.size, np.uint8)
    cl.enqueue_copy(queue, back, buf, src_offset=1000)
    np.testing.assert_array_equal(back, host)
    # the staged path agrees with a plain read of the same bytes
    staging.configure(device_types=0)
    plain = np.zeros(host.size + 1000, np.uint8)
    cl.enqueue_copy(queue, plain, buf)
    np.testing.assert_array_equal(plain[1000:], host)


def test_non_blocking_copies_are_not_staged(queue, staged):
    """A staged copy waits for the queue to drain its slots, so non-blocking
    copies (here behind a user event completed only afterwards, which would
    deadlock a staged copy) take the driver's path."""
    ctx = queue.context
    gate = cl.UserEvent(ctx)
    host = np.arange(20000, dtype=np.uint32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
    event = cl.enqueue_copy(queue, buf, host, is_blocking=False, wait_for=[gate])
    assert ctx._stager is None and event.get_ward() is host
    assert event.command_execution_status != cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    event.wait()
    back = np.empty_like(host)
    cl.enqueue_copy(queue, back, buf)  # blocking: staged
    assert ctx._stager is not None
    np.testing.assert_array_equal(back, host)


def test_staged_copy_waits_for_wait_for(queue, staged):
    ctx = queue.context
    first = np.arange(30000, dtype=np.uint16)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, first.nbytes)
    write = cl.enqueue_copy(queue, buf, first, is_blocking=False)
    back = np.empty_like(first)
    cl.enqueue_copy(queue, back, buf, wait_for=[write])
    np.testing.assert_array_equal(back, first)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_staged_copies_match_numpy(ctx_factory, data):
    before = staging.settings()
    chunk = data.draw(st.sampled_from([64, 1000, 4096]))
    threads = data.draw(st.integers(1, 4))
    staging.configure(min_bytes=1, chunk_bytes=chunk, threads=threads, device_types=cl.device_type.ALL)
    try:
        ctx = ctx_factory()
        queue = cl.CommandQueue(ctx)
        size = data.draw(st.integers(1, 40000))
        # Bytes from a drawn seed: hypothesis refuses inputs this large.
        rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
        model = rng.integers(0, 256, size, dtype=np.uint8)
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=model)
        for _ in range(3):
            offset = data.draw(st.integers(0, size - 1))
            n = data.draw(st.integers(1, size - offset))
            if data.draw(st.booleans()):
                piece = rng.integers(0, 256, n, dtype=np.uint8)
                cl.enqueue_copy(queue, buf, piece, dst_offset=offset, is_blocking=data.draw(st.booleans()))
                model[offset : offset + n] = piece
            else:
                out = np.empty(n, np.uint8)
                cl.enqueue_copy(queue, out, buf, src_offset=offset)
                np.testing.assert_array_equal(out, model[offset : offset + n])
        queue.finish()
        staging.configure(device_types=0)
        whole = np.empty(size, np.uint8)
        cl.enqueue_copy(queue, whole, buf)
        np.testing.assert_array_equal(whole, model)
    finally:
        staging.configure(**before)


def test_pinned_arrays_are_not_staged(queue, staged):
    ctx = queue.context
    pinned = pinned_empty(queue, (5000,), np.float32)
    assert isinstance(pinned, np.ndarray) and pinned.shape == (5000,)
    pinned[:] = np.arange(5000)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, pinned.nbytes)
    cl.enqueue_copy(queue, buf, pinned[1000:])  # a view of a pinned array: direct
    assert ctx._stager is None
    back = pinned_empty(queue, (4000,), np.float32)
    cl.enqueue_copy(queue, back, buf)
    np.testing.assert_array_equal(back, np.arange(1000, 5000))
    assert ctx._stager is None
    assert pinned.base._mem.flags & cl.mem_flags.ALLOC_HOST_PTR


def test_pinned_pool_reuses_buffers(queue):
    pool = PinnedPool(queue)
    a = pool.empty((100, 10), np.float64)
    a[:] = 1.5
    assert pool.pool.active_blocks == 1
    ptr = a.__array_interface__["data"][0]
    del a
    gc.collect()
    gc.collect()
    assert pool.pool.active_blocks == 0 and pool.pool.held_blocks == 1
    b = pool.empty((1000,), np.float64)
    assert pool.pool.held_blocks == 0 and pool.pool.stats()["hits"] == 1
    b[:] = 2.0
    assert b.sum() == 2000.0
    assert ptr  # mapped memory has an address


def test_devices_that_are_cpus_are_not_staged_by_default(device):
    """Only GPUs and accelerators are staged by default; Oclgrind reports every
    device type, CPU included, and must not be staged."""
    queue = cl.CommandQueue(cl.Context([device]))
    expected = bool(device.type & (cl.device_type.GPU | cl.device_type.ACCELERATOR)) and not (
        device.type & cl.device_type.CPU
    )
    assert (staging.stager(queue, np.empty(1)) is not None) == expected


def test_configure_checks():
    with pytest.raises(cl.LogicError, match="chunk_bytes = 0 is not positive"):
        staging.configure(chunk_bytes=0)
    with pytest.raises(cl.LogicError, match="threads = 65 exceeds"):
        staging.configure(threads=65)


def _svm_queue(ctx_factory):
    """An in-order queue of a device with coarse-grain SVM, or a skip naming why not."""
    device = ctx_factory.device
    if device.cl_version < (2, 0) or not device.svm_capabilities & cl.device_svm_capabilities.COARSE_GRAIN_BUFFER:
        pytest.skip("%s has no coarse-grain SVM (OpenCL %d.%d)" % ((device.name,) + device.cl_version))
    return cl.CommandQueue(ctx_factory())


def test_staged_svm_round_trip(ctx_factory, staged):
    queue = _svm_queue(ctx_factory)
    ctx = queue.context
    rng = np.random.default_rng(7)
    host = rng.integers(0, 256, 10 * 4096 + 77, dtype=np.uint8)  # 11 chunks, the last partial
    ary = cl.csvm_empty(ctx, host.size + 1000, np.uint8, queue=queue)
    event = cl.enqueue_copy(queue, cl.SVM(ary[1000:]), host)
    assert ctx._stager is not None and event.get_ward() is host  # the copy was staged
    back = np.zeros(host.size, np.uint8)
    cl.enqueue_copy(queue, back, cl.SVM(ary[1000:]))
    np.testing.assert_array_equal(back, host)
    # the staged path agrees with the driver's
    staging.configure(device_types=0)
    plain = np.zeros(host.size, np.uint8)
    cl.enqueue_copy(queue, plain, cl.SVM(ary[1000:]))
    np.testing.assert_array_equal(plain, host)


def test_non_blocking_svm_copies_are_not_staged(ctx_factory, staged):
    queue = _svm_queue(ctx_factory)
    ctx = queue.context
    gate = cl.UserEvent(ctx)
    host = np.arange(20000, dtype=np.uint32)
    ary = cl.csvm_empty(ctx, host.size, np.uint32, queue=queue)
    event = cl.enqueue_copy(queue, cl.SVM(ary), host, is_blocking=False, wait_for=[gate])
    assert ctx._stager is None and event.get_ward() is host
    gate.set_status(cl.command_execution_status.COMPLETE)
    event.wait()
    back = np.empty_like(host)
    cl.enqueue_copy(queue, back, cl.SVM(ary))  # blocking: staged
    assert ctx._stager is not None
    np.testing.assert_array_equal(back, host)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_staged_svm_copies_match_numpy(ctx_factory, data):
    queue = _svm_queue(ctx_factory)
    before = staging.settings()
    chunk = data.draw(st.sampled_from([64, 1000, 4096]))
    staging.configure(
        min_bytes=1, chunk_bytes=chunk, threads=data.draw(st.integers(1, 4)), device_types=cl.device_type.ALL
    )
    try:
        ctx = queue.context
        size = data.draw(st.integers(1, 40000))
        rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
        model = rng.integers(0, 256, size, dtype=np.uint8)
        ary = cl.csvm_empty(ctx, size, np.uint8, queue=queue)
        cl.enqueue_copy(queue, cl.SVM(ary), model)
        pending = None
        for _ in range(3):
            offset = data.draw(st.integers(0, size - 1))
            n = data.draw(st.integers(1, size - offset))
            if data.draw(st.booleans()):
                piece = rng.integers(0, 256, n, dtype=np.uint8)
                # a non-blocking write first (the driver's path), then a
                # staged copy that must wait for it
                pending = cl.enqueue_copy(
                    queue, cl.SVM(ary[offset : offset + n]), piece, is_blocking=data.draw(st.booleans())
                )
                model[offset : offset + n] = piece
            else:
                out = np.empty(n, np.uint8)
                cl.enqueue_copy(queue, out, cl.SVM(ary[offset : offset + n]), wait_for=[pending] if pending else None)
                np.testing.assert_array_equal(out, model[offset : offset + n])
        queue.finish()
        staging.configure(device_types=0)
        whole = np.empty(size, np.uint8)
        cl.enqueue_copy(queue, whole, cl.SVM(ary))
        np.testing.assert_array_equal(whole, model)
    finally:
        staging.configure(**before)


# {{{ rects and images: the staged copy of one drawn box against a numpy model,
# with slots small enough for many chunks and for rows longer than a slot
# (which take the driver's path); everything else goes the driver's way


def _staged_only_for(call, data):
    before = staging.settings()
    chunk = data.draw(st.sampled_from([16, 64, 4096]), label="chunk bytes")
    staging.configure(
        min_bytes=1, chunk_bytes=chunk, threads=data.draw(st.integers(1, 4)), device_types=cl.device_type.ALL
    )
    try:
        return call()
    finally:
        staging.configure(**before)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_staged_rect_copies_match_numpy(ctx_factory, data):
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    size = 4096
    model = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))).integers(0, 256, size, dtype=np.uint8)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=model)
    rect = data.draw(S.rects(size, size), label="rect")
    kwargs = {"buffer_origin": rect.origin_a, "host_origin": rect.origin_b, "region": rect.region}
    kwargs.update(buffer_pitches=rect.pitches_a or (0, 0), host_pitches=rect.pitches_b or (0, 0))
    host = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))).integers(0, 256, size, dtype=np.uint8)
    if data.draw(st.booleans(), label="write"):
        _staged_only_for(lambda: cl.enqueue_copy(queue, buf, host, **kwargs), data)
        for (a0, a1), (b0, b1) in zip(rect.rows("a"), rect.rows("b")):
            model[a0:a1] = host[b0:b1]
    else:
        expected = host.copy()
        for (a0, a1), (b0, b1) in zip(rect.rows("a"), rect.rows("b")):
            expected[b0:b1] = model[a0:a1]
        _staged_only_for(lambda: cl.enqueue_copy(queue, host, buf, **kwargs), data)
        np.testing.assert_array_equal(host, expected)  # the bytes between the rows too
    assert ctx._stager is not None
    whole = np.empty(size, np.uint8)
    cl.enqueue_copy(queue, whole, buf)
    np.testing.assert_array_equal(whole, model)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_staged_image_copies_match_numpy(device, data):
    queue = image_queue(device)
    # the model check after the copy reads back on the driver's path
    check_image_host_copy(queue, data, copy=lambda call: _staged_only_for(call, data))
    assert queue.context._stager is not None


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_staged_image_creation_matches_numpy(device, data):
    """A COPY_HOST_PTR image (pitched host memory included) made through a
    staged write after creation holds the host's pixels."""
    if not device.image_support:
        pytest.skip("%s has no image support" % device.name)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    fmt = data.draw(formats, label="format")
    shape, is_array = data.draw(S.image_shapes(max_extent=6), label="shape, is_array")
    element = fmt.itemsize
    w, h, d = padded(shape, 1)
    pitches = None
    row = w * element
    layer = row * h  # 1D arrays: the host's rows are the layers
    if len(shape) > 1 and not (is_array and len(shape) == 2):  # a 2D image, 2D array or 3D image
        row += element * data.draw(st.integers(0, 3), label="row padding")
        layer = row * h + row * data.draw(st.integers(0, 2), label="slice padding rows")
        pitches = (row,) if len(shape) == 2 else (row, layer)
    size = row * h if len(shape) < 3 and not (is_array and len(shape) == 3) else layer * d
    host = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))).integers(0, 256, size, dtype=np.uint8)
    img = _staged_only_for(
        lambda: cl.Image(ctx, mf_copy, fmt, shape, pitches=pitches, hostbuf=host, is_array=is_array), data
    )
    assert ctx._stager is not None  # the pixels went through the slots
    expected = host[host_index((w, h, d), element, row, layer)]
    np.testing.assert_array_equal(read_image(queue, img, expected.reshape(model_shape(shape, fmt))), expected)


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_staged_image_from_array_matches_numpy(device, data):
    if not device.image_support:
        pytest.skip("%s has no image support" % device.name)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    dims = data.draw(st.integers(1, 3), label="dims")
    shape = tuple(data.draw(st.integers(1, 9)) for _ in range(dims)) + (4,)
    ary = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))).integers(0, 256, shape, dtype=np.uint8)
    img = _staged_only_for(lambda: cl.image_from_array(ctx, ary, num_channels=4), data)
    assert ctx._stager is not None
    back = np.empty_like(ary)
    cl.enqueue_copy(queue, back, img, origin=(0,), region=img.shape)
    np.testing.assert_array_equal(back, ary)


mf_copy = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_staged_buffer_creation_matches_numpy(device, data):
    """A COPY_HOST_PTR buffer made empty and written through the slots holds
    the host's bytes (the first ``size`` of them); buffers in host memory
    (ALLOC_HOST_PTR) and buffers the host may not write keep the driver's
    copy."""
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    host = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))).integers(
        0, 256, data.draw(st.integers(1, 20000), label="host bytes"), dtype=np.uint8
    )
    size = data.draw(st.sampled_from([0, len(host), data.draw(st.integers(1, len(host)))]), label="size")
    access = data.draw(st.sampled_from([mf.READ_WRITE, mf.READ_ONLY, mf.WRITE_ONLY]), label="access")
    extra = data.draw(st.sampled_from([0, mf.ALLOC_HOST_PTR, mf.HOST_READ_ONLY, mf.HOST_NO_ACCESS]), label="extra")
    flags = access | extra | mf.COPY_HOST_PTR
    buf = _staged_only_for(lambda: cl.Buffer(ctx, flags, size, hostbuf=host), data)
    assert buf.flags == flags
    assert (ctx._stager is not None) == (extra == 0)
    n = size or len(host)
    assert buf.size == n
    check = buf if not extra & (mf.HOST_READ_ONLY | mf.HOST_NO_ACCESS) else cl.Buffer(ctx, mf.READ_WRITE, n)
    if check is not buf:
        cl.enqueue_copy(queue, check, buf)
    out = np.empty(n, np.uint8)
    cl.enqueue_copy(queue, out, check)
    np.testing.assert_array_equal(out, host[:n])


# }}}
