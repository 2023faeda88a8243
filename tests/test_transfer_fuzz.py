"""Fuzzing buffers and transfers against an independent model.

The model of each root buffer is a numpy uint8 array (a sub-buffer is a slice
of its root's model); every operation is applied to the model with numpy
slicing (rect copies through ``numpy.lib.stride_tricks.as_strided`` views),
never with pycl code. Runs on every device (tests/conftest.py).
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test
from numpy.lib.stride_tricks import as_strided

import pycl as cl
from pycl import strategies as S
from pycl._rect import rects_overlap

ALIGN = 128  # the scale of buffer sizes: PoCL and Oclgrind align sub-buffers to 128 bytes


def box(array, rect, side):
    """The bytes of ``array`` that side ``side`` of ``rect`` covers, as a
    (depth, height, width) strided view."""
    origin, (r0, r1, r2), row, slice_ = rect.resolved(side)
    start = origin[0] + origin[1] * row + origin[2] * slice_
    return as_strided(array[start:], shape=(r2, r1, r0), strides=(slice_, row, 1), writeable=True)


# {{{ the overlap test against brute force (no device)


@settings(max_examples=500)
@given(st.data())
def test_rects_overlap_matches_brute_force(data):
    w = data.draw(st.integers(1, 6))
    h = data.draw(st.integers(1, 4))
    d = data.draw(st.integers(1, 3))
    row = data.draw(st.integers(w, 10))
    slice_ = data.draw(st.integers(h, 6)) * row
    a = data.draw(st.integers(0, 200))
    b = data.draw(st.integers(0, 200))

    def cells(start):
        return {start + z * slice_ + y * row + x for z in range(d) for y in range(h) for x in range(w)}

    assert rects_overlap(a, b, (w, h, d), row, slice_) == bool(cells(a) & cells(b))


# }}}


# {{{ the state machine


def _sizes():
    return st.lists(st.integers(1, 6 * ALIGN), min_size=2, max_size=3)


class TransferMachine(RuleBasedStateMachine):
    """Random mixes of every copy kind, fills and map writes on a few buffers
    and sub-buffers, compared byte for byte with the model after every step."""

    ctx = None  # set by the test
    align = ALIGN  # the devices' sub-buffer alignment in bytes, set by the test

    def __init__(self):
        super().__init__()
        self.queue = cl.CommandQueue(self.ctx)
        self.roots = []  # (Buffer, model)
        self.views = []  # (Buffer or sub-buffer, model view)

    @precondition(lambda self: not self.roots)
    @rule(sizes=_sizes(), data=st.data())
    def create(self, sizes, data):
        for size in sizes:
            init = np.frombuffer(data.draw(st.binary(min_size=size, max_size=size)), np.uint8).copy()
            buf = cl.Buffer(self.ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=init)
            self.roots.append((buf, init))
            self.views.append((buf, init))

    @precondition(lambda self: self.roots)
    @rule(data=st.data())
    def sub_buffer(self, data):
        buf, model = data.draw(st.sampled_from(self.views))
        # the sub-buffer's root offset must be aligned; nested views resolve to the root
        root_origin = buf._origin
        align = self.align
        first = (-root_origin) % align
        if first >= buf.size:
            return
        origin = data.draw(st.integers(0, (buf.size - 1 - first) // align)) * align + first
        size = data.draw(st.integers(1, buf.size - origin))
        note("sub-buffer %r[%d:%d]" % (buf, origin, origin + size))
        sub = buf[origin : origin + size]
        assert sub.size == size and sub._origin == root_origin + origin
        self.views.append((sub, model[origin : origin + size]))

    def _pick(self, data, name):
        return data.draw(st.sampled_from(self.views), label=name)

    @precondition(lambda self: self.roots)
    @rule(data=st.data(), blocking=st.booleans())
    def write(self, data, blocking):
        buf, model = self._pick(data, "dest")
        offset = data.draw(st.integers(0, buf.size))
        host = np.frombuffer(data.draw(st.binary(max_size=buf.size - offset)), np.uint8).copy()
        event = cl.enqueue_copy(self.queue, buf, host, dst_offset=offset, is_blocking=blocking)
        assert event.get_ward() is host
        model[offset : offset + host.size] = host

    @precondition(lambda self: self.roots)
    @rule(data=st.data())
    def read(self, data):
        buf, model = self._pick(data, "src")
        offset = data.draw(st.integers(0, buf.size))
        n = data.draw(st.integers(0, buf.size - offset))
        host = np.full(n, 0xAA, np.uint8)
        cl.enqueue_copy(self.queue, host, buf, src_offset=offset)
        np.testing.assert_array_equal(host, model[offset : offset + n])

    def _disjoint_pair(self, data):
        dst, dst_model = self._pick(data, "dest")
        src, src_model = self._pick(data, "src")
        return dst, dst_model, src, src_model

    @precondition(lambda self: self.roots)
    @rule(data=st.data())
    def copy(self, data):
        dst, dst_model, src, src_model = self._disjoint_pair(data)
        kwargs = data.draw(S.linear_copy_kwargs(src.size, dst.size))
        n = kwargs.get("byte_count", min(src.size - kwargs["src_offset"], dst.size - kwargs["dst_offset"]))
        a = src._origin + kwargs["src_offset"]
        b = dst._origin + kwargs["dst_offset"]
        if src._root_ptr == dst._root_ptr and n and abs(a - b) < n:
            with pytest.raises(cl.LogicError, match="overlap"):
                cl.enqueue_copy(self.queue, dst, src, **kwargs)
            return
        cl.enqueue_copy(self.queue, dst, src, **kwargs)
        s, d = kwargs["src_offset"], kwargs["dst_offset"]
        dst_model[d : d + n] = src_model[s : s + n].copy()

    @precondition(lambda self: self.roots)
    @rule(data=st.data(), blocking=st.booleans())
    def write_rect(self, data, blocking):
        buf, model = self._pick(data, "dest")
        host_size = data.draw(st.integers(1, 2 * buf.size))
        host = np.frombuffer(data.draw(st.binary(min_size=host_size, max_size=host_size)), np.uint8).copy()
        rect = data.draw(S.rects(buf.size, host_size))
        kwargs = S._host_kwargs(rect)
        cl.enqueue_copy(self.queue, buf, host, is_blocking=blocking, **kwargs)
        box(model, rect, "a")[...] = box(host, rect, "b")

    @precondition(lambda self: self.roots)
    @rule(data=st.data())
    def read_rect(self, data):
        buf, model = self._pick(data, "src")
        host_size = data.draw(st.integers(1, 2 * buf.size))
        rect = data.draw(S.rects(buf.size, host_size))
        host = np.full(host_size, 0x55, np.uint8)
        expected = host.copy()
        box(expected, rect, "b")[...] = box(model, rect, "a")
        cl.enqueue_copy(self.queue, host, buf, **S._host_kwargs(rect))
        np.testing.assert_array_equal(host, expected)

    @precondition(lambda self: self.roots)
    @rule(data=st.data())
    def copy_rect(self, data):
        dst, dst_model, src, src_model = self._disjoint_pair(data)
        rect = data.draw(S.rects(src.size, dst.size))
        kwargs = S._buffer_kwargs(rect)
        if src._root_ptr == dst._root_ptr:
            _, region, s_row, s_slice = rect.resolved("a")
            _, _, d_row, d_slice = rect.resolved("b")
            starts = [o + r.rows(side)[0][0] for o, r, side in ((src._origin, rect, "a"), (dst._origin, rect, "b"))]
            if (s_row, s_slice) != (d_row, d_slice):
                with pytest.raises(cl.LogicError, match="pitches must be equal"):
                    cl.enqueue_copy(self.queue, dst, src, **kwargs)
                return
            if rects_overlap(starts[0], starts[1], region, s_row, s_slice):
                with pytest.raises(cl.LogicError, match="overlap"):
                    cl.enqueue_copy(self.queue, dst, src, **kwargs)
                return
        cl.enqueue_copy(self.queue, dst, src, **kwargs)
        box(dst_model, rect, "b")[...] = box(src_model, rect, "a").copy()

    @precondition(lambda self: self.roots)
    @rule(data=st.data())
    def fill(self, data):
        buf, model = self._pick(data, "mem")
        pattern_size, offset, size = data.draw(S.fill_args(buf.size))
        pattern = np.frombuffer(data.draw(st.binary(min_size=pattern_size, max_size=pattern_size)), np.uint8)
        if data.draw(st.booleans()):
            cl.enqueue_fill_buffer(self.queue, buf, pattern, offset, size)
        else:
            cl.enqueue_fill(self.queue, buf, pattern, size, offset=offset)
        model[offset : offset + size] = np.tile(pattern, size // pattern_size)

    @precondition(lambda self: self.roots)
    @rule(data=st.data())
    def map_write(self, data):
        buf, model = self._pick(data, "buf")
        offset, nbytes = data.draw(S.map_args(buf.size))
        flags = data.draw(st.sampled_from([cl.map_flags.WRITE, cl.map_flags.READ | cl.map_flags.WRITE]))
        array, _ = cl.enqueue_map_buffer(self.queue, buf, flags, offset, (nbytes,), np.uint8)
        if flags & cl.map_flags.READ:
            np.testing.assert_array_equal(array, model[offset : offset + nbytes])
        values = np.frombuffer(data.draw(st.binary(min_size=nbytes, max_size=nbytes)), np.uint8)
        array[...] = values
        model[offset : offset + nbytes] = values
        if data.draw(st.booleans()):
            array.base.release()
        else:
            with array.base:
                pass

    @invariant()
    def buffers_match_model(self):
        for buf, model in self.roots:
            host = np.empty(buf.size, np.uint8)
            cl.enqueue_copy(self.queue, host, buf)
            np.testing.assert_array_equal(host, model)

    def teardown(self):
        self.queue.finish()


def test_state_machine(ctx_factory):
    ctx = ctx_factory()
    align = max(d.mem_base_addr_align // 8 for d in ctx.devices)  # 512 bytes on NVIDIA
    machine = type("Machine", (TransferMachine,), {"ctx": ctx, "align": align})
    run_state_machine_as_test(machine, settings=settings(stateful_step_count=25))


# }}}


# {{{ invalid arguments leave every buffer unchanged


class _Buffers:
    def __init__(self, ctx, sizes):
        self.queue = cl.CommandQueue(ctx)
        rng = np.random.default_rng(sum(sizes))
        self.models = [rng.integers(0, 256, size, dtype=np.uint8) for size in sizes]
        self.buffers = [
            cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=m) for m in self.models
        ]

    def check_unchanged(self):
        for buf, model in zip(self.buffers, self.models):
            host = np.empty(buf.size, np.uint8)
            cl.enqueue_copy(self.queue, host, buf)
            np.testing.assert_array_equal(host, model)


def _expect(invalid, call):
    with pytest.raises(invalid.error) as info:
        call()
    message = str(info.value)
    assert any(name in message for name in invalid.names), (message, invalid.names)
    if invalid.error is cl.LogicError:
        assert info.value.code < 0


@pytest.fixture
def buffers_for(ctx_factory):
    ctx = ctx_factory()
    cache = {}

    def get(sizes):
        key = tuple(sizes)
        if key not in cache:
            cache[key] = _Buffers(ctx, sizes)
        return cache[key]

    return get


BUF_SIZES = (384, 200)


def test_invalid_host_rect(buffers_for):
    bufs = buffers_for(BUF_SIZES)

    @given(st.data())
    def run(data):
        host_size = data.draw(st.integers(1, 500))
        reading = data.draw(st.booleans())
        buf = bufs.buffers[data.draw(st.integers(0, 1))]
        invalid = data.draw(S.invalid_host_rect_kwargs(buf.size, host_size))
        host = np.zeros(host_size, np.uint8)
        host_before = host.copy()
        if reading:
            _expect(invalid, lambda: cl.enqueue_copy(bufs.queue, host, buf, **invalid.kwargs))
        else:
            _expect(invalid, lambda: cl.enqueue_copy(bufs.queue, buf, host, **invalid.kwargs))
        np.testing.assert_array_equal(host, host_before)
        bufs.check_unchanged()

    run()


def test_invalid_buffer_rect(buffers_for):
    bufs = buffers_for(BUF_SIZES)

    @given(st.data())
    def run(data):
        src, dst = bufs.buffers
        if data.draw(st.booleans()):
            src, dst = dst, src
        invalid = data.draw(S.invalid_buffer_rect_kwargs(src.size, dst.size))
        _expect(invalid, lambda: cl.enqueue_copy(bufs.queue, dst, src, **invalid.kwargs))
        bufs.check_unchanged()

    run()


def test_invalid_linear(buffers_for):
    bufs = buffers_for(BUF_SIZES)

    @given(st.data())
    def run(data):
        src, dst = bufs.buffers
        kind = data.draw(st.sampled_from(["copy", "read", "write"]))
        if kind == "copy":
            invalid = data.draw(S.invalid_linear_copy_kwargs(src.size, dst.size))
            _expect(invalid, lambda: cl.enqueue_copy(bufs.queue, dst, src, **invalid.kwargs))
        else:
            offset = data.draw(st.integers(0, src.size))
            n = data.draw(st.integers(src.size - offset + 1, src.size + 50))
            host = np.zeros(n, np.uint8)
            if kind == "read":
                with pytest.raises(cl.LogicError, match="src_offset = %d" % offset):
                    cl.enqueue_copy(bufs.queue, host, src, src_offset=offset)
            else:
                with pytest.raises(cl.LogicError, match="dst_offset = %d" % offset):
                    cl.enqueue_copy(bufs.queue, src, host, dst_offset=offset)
        bufs.check_unchanged()

    run()


def test_invalid_fill(buffers_for):
    bufs = buffers_for(BUF_SIZES)

    @given(st.data())
    def run(data):
        buf = bufs.buffers[data.draw(st.integers(0, 1))]
        invalid = data.draw(S.invalid_fill_args(buf.size))
        kw = invalid.kwargs
        pattern = np.zeros(kw["pattern_size"], np.uint8)
        _expect(invalid, lambda: cl.enqueue_fill_buffer(bufs.queue, buf, pattern, kw["offset"], kw["size"]))
        bufs.check_unchanged()

    run()


def test_invalid_map(buffers_for):
    bufs = buffers_for(BUF_SIZES)

    @given(st.data())
    def run(data):
        buf = bufs.buffers[data.draw(st.integers(0, 1))]
        invalid = data.draw(S.invalid_map_args(buf.size))
        kw = invalid.kwargs
        _expect(
            invalid,
            lambda: cl.enqueue_map_buffer(bufs.queue, buf, cl.map_flags.WRITE, kw["offset"], (kw["nbytes"],), np.uint8),
        )
        assert buf.map_count == 0
        bufs.check_unchanged()

    run()


# }}}


# {{{ hostile calls in a subprocess cannot crash the interpreter

HOSTILE = textwrap.dedent(
    r"""
    import gc, sys
    import numpy as np
    import pycl as cl
    from hypothesis import given, settings, strategies as st, HealthCheck
    from pycl import strategies as S

    platform_index, device_index = int(sys.argv[1]), int(sys.argv[2])
    device = cl.get_platforms()[platform_index].get_devices()[device_index]
    ctx = cl.Context([device])
    other = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 256)
    foreign = cl.Buffer(other, cl.mem_flags.READ_WRITE, 256)
    dead = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 256)
    dead.release()
    host = np.zeros(64, np.float32)
    expected = (cl.Error, TypeError, ValueError)
    calls = 0

    targets = st.sampled_from(
        [buf, dead, foreign, host, host[::2], host.view(np.uint8)[1:], b"abc", None, 3, queue, ctx])

    @settings(max_examples=%d, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def hostile(data):
        global calls
        dest, src = data.draw(targets), data.draw(targets)
        kwargs = data.draw(st.dictionaries(
            st.sampled_from(["src_offset", "dst_offset", "byte_count", "buffer_origin", "host_origin", "region",
                             "buffer_pitches", "host_pitches", "src_origin", "dst_origin", "src_pitches",
                             "dst_pitches", "is_blocking", "wait_for"]),
            st.one_of(st.integers(-2**65, 2**65), st.tuples(st.integers(-3, 2**40)),
                      st.lists(st.integers(-2, 300), max_size=4),
                      st.none(), st.booleans(), st.just([dead]), st.just([buf])),
            max_size=5))
        which = data.draw(st.integers(0, 4))
        calls += 1
        try:
            if which == 0:
                cl.enqueue_copy(queue, dest, src, **kwargs)
            elif which == 1:
                cl.enqueue_fill_buffer(queue, dest, src, kwargs.get("src_offset", 0), kwargs.get("byte_count", 4))
            elif which == 2:
                shape = data.draw(st.one_of(st.integers(-5, 300), st.tuples(st.integers(0, 99))))
                cl.enqueue_map_buffer(queue, dest, data.draw(st.integers(-1, 9)), kwargs.get("src_offset", 0),
                                      shape, np.uint8)
            elif which == 3:
                cl.enqueue_migrate_mem_objects(queue, [dest, src], data.draw(st.integers(-1, 8)))
            else:
                dest[kwargs.get("src_offset", 0):kwargs.get("byte_count", 8)]
        except expected:
            pass

    hostile()
    queue.finish()
    gc.collect()
    print("survived", calls)
    """
)


def test_hostile_calls_cannot_crash(device):
    platforms = cl.get_platforms()
    platform_index = next(i for i, p in enumerate(platforms) if p == device.platform)
    device_index = platforms[platform_index].get_devices().index(device)
    examples = int(os.environ.get("PYCL_HOSTILE_EXAMPLES", "300"))
    result = subprocess.run(
        [sys.executable, "-c", HOSTILE % examples, str(platform_index), str(device_index)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, (result.returncode, result.stdout[-2000:], result.stderr[-4000:])
    assert "survived" in result.stdout


# }}}
