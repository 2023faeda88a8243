"""``enqueue_copy_between``: copies into a buffer of another context or
another device, compared with a numpy model of both buffers. Small pinned
slots (4 KiB, 3 of them) make every copy of more than 12 KiB reuse slots, so
the chunk and slot ordering runs on every device; two contexts on one device
stand in for two GPUs with a context each."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pycl as cl
from pycl import staging

CHUNK = 4096
SIZE = 7 * CHUNK + 123  # 8 chunks, the last partial: slots are reused


@pytest.fixture(autouse=True)
def small_slots():
    before = staging.settings()
    staging.configure(between_chunk_bytes=CHUNK, between_slots=3)
    yield
    staging.configure(**before)


def _lazy(device):
    """Oclgrind runs queues only when flushed and its flush waits for every
    command (docs/quirks.md)."""
    return device.platform.name == "Oclgrind"


class Pair:
    """Two contexts on the test's device, a queue and a buffer in each, and
    numpy mirrors of both buffers."""

    def __init__(self, device, size=SIZE, seed=0):
        rng = np.random.default_rng(seed)
        self.device = device
        self.src_ctx, self.dst_ctx = cl.Context([device]), cl.Context([device])
        self.src_queue, self.dst_queue = cl.CommandQueue(self.src_ctx), cl.CommandQueue(self.dst_ctx)
        self.src_host = rng.integers(0, 256, size, dtype=np.uint8)
        self.dst_host = rng.integers(0, 256, size, dtype=np.uint8)
        flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
        self.src = cl.Buffer(self.src_ctx, flags, hostbuf=self.src_host)
        self.dst = cl.Buffer(self.dst_ctx, flags, hostbuf=self.dst_host)

    def dst_contents(self, queue=None):
        out = np.empty(self.dst.size, np.uint8)
        cl.enqueue_copy(queue or self.dst_queue, out, self.dst)
        return out


@pytest.fixture
def pair(device):
    return Pair(device)


def test_whole_buffer_between_contexts(pair):
    event = cl.enqueue_copy_between(pair.dst_queue, pair.dst, pair.src_queue, pair.src)
    assert event.context == pair.dst_ctx
    assert event.command_execution_status == cl.command_execution_status.COMPLETE
    np.testing.assert_array_equal(pair.dst_contents(), pair.src_host)
    assert pair.src_ctx._between_stager is not None  # it went through the slots


@settings(max_examples=25)
@given(data=st.data())
def test_offsets_and_counts_match_numpy(device, data):
    size = data.draw(st.integers(1, 5 * CHUNK), label="size")
    pair = Pair(device, size, seed=size)
    src_offset = data.draw(st.integers(0, size), label="src_offset")
    dst_offset = data.draw(st.integers(0, size), label="dst_offset")
    room = min(size - src_offset, size - dst_offset)
    byte_count = data.draw(st.none() | st.integers(0, room), label="byte_count")
    blocking = data.draw(st.booleans(), label="is_blocking")
    event = cl.enqueue_copy_between(
        pair.dst_queue,
        pair.dst,
        pair.src_queue,
        pair.src,
        byte_count=byte_count,
        dst_offset=dst_offset,
        src_offset=src_offset,
        is_blocking=blocking,
    )
    n = room if byte_count is None else byte_count
    expected = pair.dst_host.copy()
    expected[dst_offset : dst_offset + n] = pair.src_host[src_offset : src_offset + n]
    # Not waited for when non-blocking: the read is a later command of dst_queue.
    np.testing.assert_array_equal(pair.dst_contents(), expected)
    event.wait()


@settings(max_examples=40)
@given(
    src_offset=st.integers(-3, 3 * CHUNK),
    dst_offset=st.integers(-3, 3 * CHUNK),
    byte_count=st.none() | st.integers(-3, 3 * CHUNK),
)
def test_bad_extents_raise_and_change_nothing(device, src_offset, dst_offset, byte_count):
    size = 2 * CHUNK + 7
    pair = Pair(device, size, seed=1)
    room = min(size - src_offset, size - dst_offset)
    valid = 0 <= src_offset <= size and 0 <= dst_offset <= size and (byte_count is None or 0 <= byte_count <= room)
    copy = (pair.dst_queue, pair.dst, pair.src_queue, pair.src, byte_count, dst_offset, src_offset)
    if valid:
        cl.enqueue_copy_between(*copy)
        return
    with pytest.raises(cl.LogicError) as caught:
        cl.enqueue_copy_between(*copy)
    message = str(caught.value)
    assert "enqueue_copy_between" in message
    assert any(name in message for name in ("src_offset", "dst_offset", "byte_count"))
    np.testing.assert_array_equal(pair.dst_contents(), pair.dst_host)


def test_sub_buffers_on_both_sides(pair):
    align = pair.device.mem_base_addr_align // 8
    src_sub = pair.src.get_sub_region(align, 3 * CHUNK)
    dst_sub = pair.dst.get_sub_region(2 * align, 3 * CHUNK + 5)
    cl.enqueue_copy_between(pair.dst_queue, dst_sub, pair.src_queue, src_sub, src_offset=5, dst_offset=9)
    n = min(3 * CHUNK - 5, 3 * CHUNK + 5 - 9)
    expected = pair.dst_host.copy()
    expected[2 * align + 9 : 2 * align + 9 + n] = pair.src_host[align + 5 : align + 5 + n]
    np.testing.assert_array_equal(pair.dst_contents(), expected)


def test_follows_earlier_commands_on_the_source_queue(pair):
    """A non-blocking write on src_queue, then the copy with no wait_for: the
    copy reads what the write wrote."""
    fresh = np.arange(SIZE, dtype=np.uint32).astype(np.uint8)
    cl.enqueue_copy(pair.src_queue, pair.src, fresh, is_blocking=False)
    cl.enqueue_fill_buffer(pair.src_queue, pair.src, np.uint8(7), 0, CHUNK)
    event = cl.enqueue_copy_between(pair.dst_queue, pair.dst, pair.src_queue, pair.src, is_blocking=False)
    fresh[:CHUNK] = 7
    np.testing.assert_array_equal(pair.dst_contents(), fresh)
    event.wait()


def test_later_commands_on_the_destination_queue_follow(pair):
    """A non-blocking copy, then a fill of part of dst on dst_queue: the fill
    lands on top of the copied bytes."""
    cl.enqueue_copy_between(pair.dst_queue, pair.dst, pair.src_queue, pair.src, is_blocking=False)
    cl.enqueue_fill_buffer(pair.dst_queue, pair.dst, np.uint8(9), CHUNK, 2 * CHUNK)
    expected = pair.src_host.copy()
    expected[CHUNK : 3 * CHUNK] = 9
    np.testing.assert_array_equal(pair.dst_contents(), expected)


@pytest.mark.parametrize("gate_in", ["src", "dst"])
def test_waits_for_a_user_event_of_either_context(pair, gate_in):
    gate = cl.UserEvent(pair.src_ctx if gate_in == "src" else pair.dst_ctx)
    if _lazy(pair.device):
        with pytest.raises(cl.UnavailableError, match="Oclgrind"):
            cl.enqueue_copy_between(
                pair.dst_queue, pair.dst, pair.src_queue, pair.src, wait_for=[gate], is_blocking=False
            )
        gate.set_status(cl.command_execution_status.COMPLETE)
        np.testing.assert_array_equal(pair.dst_contents(), pair.dst_host)
        return
    event = cl.enqueue_copy_between(
        pair.dst_queue, pair.dst, pair.src_queue, pair.src, wait_for=[gate], is_blocking=False
    )
    # Another queue of dst's context is not ordered after the copy: while the
    # gate is closed it sees dst as it was.
    np.testing.assert_array_equal(pair.dst_contents(cl.CommandQueue(pair.dst_ctx)), pair.dst_host)
    assert event.command_execution_status > cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    event.wait()
    np.testing.assert_array_equal(pair.dst_contents(), pair.src_host)


def test_waits_for_command_events_of_both_contexts(pair):
    fresh = pair.src_host[::-1].copy()
    written = cl.enqueue_copy(pair.src_queue, pair.src, fresh, is_blocking=False)
    other = cl.CommandQueue(pair.dst_ctx)
    filled = cl.enqueue_fill_buffer(other, pair.dst, np.uint8(1), 0, SIZE)
    other.flush()  # OpenCL's rule for an event waited for on other queues
    cl.enqueue_copy_between(
        pair.dst_queue, pair.dst, pair.src_queue, pair.src, byte_count=SIZE - 10, wait_for=[written, filled]
    )
    expected = np.ones(SIZE, np.uint8)
    expected[: SIZE - 10] = fresh[: SIZE - 10]
    np.testing.assert_array_equal(pair.dst_contents(), expected)


def test_zero_bytes_completes_after_its_waits(pair):
    written = cl.enqueue_copy(pair.src_queue, pair.src, pair.src_host, is_blocking=False)
    event = cl.enqueue_copy_between(
        pair.dst_queue, pair.dst, pair.src_queue, pair.src, byte_count=0, wait_for=[written]
    )
    assert event.context == pair.dst_ctx
    assert written.command_execution_status == cl.command_execution_status.COMPLETE
    np.testing.assert_array_equal(pair.dst_contents(), pair.dst_host)


def test_out_of_order_queues(pair):
    props = cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
    if not pair.device.queue_properties & props:
        pytest.skip("%r has no out-of-order queues" % pair.device.name)
    src_queue = cl.CommandQueue(pair.src_ctx, properties=props)
    dst_queue = cl.CommandQueue(pair.dst_ctx, properties=props)
    cl.enqueue_fill_buffer(src_queue, pair.src, np.uint8(3), 0, SIZE)
    cl.enqueue_fill_buffer(dst_queue, pair.dst, np.uint8(4), 0, SIZE)
    event = cl.enqueue_copy_between(dst_queue, pair.dst, src_queue, pair.src, byte_count=SIZE // 2, is_blocking=False)
    event.wait()
    expected = np.full(SIZE, 4, np.uint8)
    expected[: SIZE // 2] = 3
    np.testing.assert_array_equal(pair.dst_contents(), expected)


def test_wrong_arguments(pair):
    copy = cl.enqueue_copy_between
    with pytest.raises(TypeError, match="dst must be a pycl.Buffer"):
        copy(pair.dst_queue, np.empty(4), pair.src_queue, pair.src)
    with pytest.raises(TypeError, match="src must be a pycl.Buffer"):
        copy(pair.dst_queue, pair.dst, pair.src_queue, b"abcd")
    with pytest.raises(cl.LogicError, match="context"):
        copy(pair.src_queue, pair.dst, pair.src_queue, pair.src)  # dst is not of src_queue's context
    third = cl.UserEvent(cl.Context([pair.device]))
    with pytest.raises(cl.LogicError, match="wait_for: .* belongs to neither queue's context"):
        copy(pair.dst_queue, pair.dst, pair.src_queue, pair.src, wait_for=[third])
    third.set_status(cl.command_execution_status.COMPLETE)
    np.testing.assert_array_equal(pair.dst_contents(), pair.dst_host)


def test_within_one_context_it_is_the_drivers_copy(cq):
    ctx, queue = cq
    host = np.arange(SIZE, dtype=np.uint8)
    src = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
    dst = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, SIZE)
    other = cl.CommandQueue(ctx)
    cl.enqueue_fill_buffer(other, src, np.uint8(5), 0, 100)
    cl.enqueue_copy_between(queue, dst, other, src)
    assert ctx._between_stager is None
    host[:100] = 5
    out = np.empty(SIZE, np.uint8)
    cl.enqueue_copy(queue, out, dst)
    np.testing.assert_array_equal(out, host)


@pytest.mark.parametrize("staged", [False, True], ids=["driver", "staged"])
def test_between_devices_of_one_context(multi_ctx_factory, staged):
    """Both ways between two devices of one context, through the driver and
    (with CPUs staged) through the pinned slots."""
    staging.configure(device_types=cl.device_type.ALL if staged else 0)
    ctx = multi_ctx_factory()
    first, second = ctx.devices[:2]
    queues = cl.CommandQueue(ctx, first), cl.CommandQueue(ctx, second)
    rng = np.random.default_rng(3)
    hosts = [rng.integers(0, 256, SIZE, dtype=np.uint8) for _ in range(2)]
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    bufs = [cl.Buffer(ctx, flags, hostbuf=h) for h in hosts]
    cl.enqueue_copy_between(queues[1], bufs[1], queues[0], bufs[0], byte_count=SIZE - 1, src_offset=1)
    hosts[1][: SIZE - 1] = hosts[0][1:]
    event = cl.enqueue_copy_between(queues[0], bufs[0], queues[1], bufs[1], dst_offset=3, is_blocking=False)
    hosts[0][3:] = hosts[1][: SIZE - 3]
    assert (ctx._between_stager is not None) == staged
    for queue, buf, host in zip(queues, bufs, hosts):
        out = np.empty(SIZE, np.uint8)
        cl.enqueue_copy(queue, out, buf, wait_for=[event])
        np.testing.assert_array_equal(out, host)


def _copy_thread(device):
    """Non-blocking copies run on a copy thread, except on drivers that
    crash when a second thread enqueues (docs/quirks.md)."""
    return device.platform.name != "Oclgrind" and "PoCL 3.0-rc2" not in device.platform.version


def test_non_blocking_copies_in_a_row_match_numpy(device):
    """Copies from two contexts into a third and on, all non-blocking, then a
    blocking one: each lands after those asked for before it."""
    rng = np.random.default_rng(5)
    ctxs = [cl.Context([device]) for _ in range(3)]
    queues = [cl.CommandQueue(c) for c in ctxs]
    hosts = [rng.integers(0, 256, SIZE, dtype=np.uint8) for _ in ctxs]
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    bufs = [cl.Buffer(c, flags, hostbuf=h) for c, h in zip(ctxs, hosts)]
    events = [
        cl.enqueue_copy_between(queues[2], bufs[2], queues[0], bufs[0], byte_count=SIZE // 2, is_blocking=False),
        cl.enqueue_copy_between(queues[2], bufs[2], queues[1], bufs[1], byte_count=SIZE // 3, is_blocking=False),
        cl.enqueue_copy_between(
            queues[1], bufs[1], queues[2], bufs[2], dst_offset=7, byte_count=100, is_blocking=False
        ),
    ]
    hosts[2][: SIZE // 2] = hosts[0][: SIZE // 2]
    hosts[2][: SIZE // 3] = hosts[1][: SIZE // 3]
    hosts[1][7:107] = hosts[2][:100]
    cl.enqueue_copy_between(queues[0], bufs[0], queues[1], bufs[1], src_offset=1, byte_count=SIZE - 1)
    hosts[0][: SIZE - 1] = hosts[1][1:]
    for event in events:
        event.wait()
    for queue, buf, host in zip(queues, bufs, hosts):
        out = np.empty(SIZE, np.uint8)
        cl.enqueue_copy(queue, out, buf)
        np.testing.assert_array_equal(out, host)


def test_a_non_blocking_copy_does_not_wait_for_later_commands(pair):
    """A command enqueued on src_queue after the copy and held back by a user
    event does not hold the copy back."""
    if _lazy(pair.device):
        pytest.skip("Oclgrind (21.10) runs a queue's commands only at a flush, which waits for all of them")
    event = cl.enqueue_copy_between(pair.dst_queue, pair.dst, pair.src_queue, pair.src, is_blocking=False)
    gate = cl.UserEvent(pair.src_ctx)
    held = cl.enqueue_marker(pair.src_queue, wait_for=[gate])
    pair.src_queue.flush()
    event.wait()
    np.testing.assert_array_equal(pair.dst_contents(), pair.src_host)
    assert held.command_execution_status > cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    held.wait()


def _run_copy_script(device, body):
    """Runs ``body`` in a fresh process with ``src_ctx``, ``dst_ctx``, their
    queues, buffers and host mirrors made on ``device``: a crash fails the
    test instead of ending the run."""
    platforms = cl.get_platforms()
    platform = platforms.index(device.platform)
    index = platforms[platform].get_devices().index(device)
    script = textwrap.dedent(
        """
        import gc
        import numpy as np
        import pycl as cl
        from pycl import staging
        staging.configure(between_chunk_bytes=%d, between_slots=3)
        device = cl.get_platforms()[%d].get_devices()[%d]
        src_ctx, dst_ctx = cl.Context([device]), cl.Context([device])
        src_queue, dst_queue = cl.CommandQueue(src_ctx), cl.CommandQueue(dst_ctx)
        src_host = np.random.default_rng(0).integers(0, 256, %d, dtype=np.uint8)
        flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
        src = cl.Buffer(src_ctx, flags, hostbuf=src_host)
        dst = cl.Buffer(dst_ctx, flags, hostbuf=np.zeros_like(src_host))
        """
        % (CHUNK, platform, index, SIZE)
    ) + textwrap.dedent(body)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout


def test_a_failed_wait_for_fails_the_copy(device):
    """A non-blocking copy whose wait_for fails: its event fails (no byte
    moves) and later commands of dst_queue still run."""
    if _lazy(device):
        pytest.skip("Oclgrind (21.10) refuses a non-blocking copy that waits for an incomplete event")
    if not _copy_thread(device):
        pytest.skip(
            "%s orders a non-blocking copy by relayed events, which never complete after a failed wait_for "
            "(docs/quirks.md)" % device.platform.name
        )
    out = _run_copy_script(
        device,
        """
        gate = cl.UserEvent(src_ctx)
        event = cl.enqueue_copy_between(dst_queue, dst, src_queue, src, wait_for=[gate], is_blocking=False)
        gate.set_status(-5)
        try:
            event.wait()
        except cl.RuntimeError as e:
            print("failed:", e)
        out = np.ones_like(src_host)
        cl.enqueue_copy(cl.CommandQueue(dst_ctx), out, dst)
        assert not out.any()
        """,
    )
    assert "failed:" in out and "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST" in out


def test_objects_dropped_during_a_copy(device):
    """The source context, queue and buffer dropped and collected while a
    non-blocking copy runs: the copy completes (the copy holds what it uses)
    and the copy thread ends."""
    if _lazy(device):
        pytest.skip("Oclgrind (21.10) runs a queue's commands only at a flush, which waits for all of them")
    _run_copy_script(
        device,
        """
        gate = cl.UserEvent(dst_ctx)
        event = cl.enqueue_copy_between(dst_queue, dst, src_queue, src, wait_for=[gate], is_blocking=False)
        del src, src_queue, src_ctx
        gc.collect()
        gate.set_status(cl.command_execution_status.COMPLETE)
        event.wait()
        out = np.empty_like(src_host)
        cl.enqueue_copy(dst_queue, out, dst)
        np.testing.assert_array_equal(out, src_host)
        """,
    )


def test_configure_checks_the_slots():
    with pytest.raises(cl.LogicError, match="between_slots must be at least 2"):
        staging.configure(between_slots=1)
    with pytest.raises(cl.LogicError, match="between_chunk_bytes = 0 is not positive"):
        staging.configure(between_chunk_bytes=0)
