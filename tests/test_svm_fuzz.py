"""Fuzzing SVM copies and fills against an independent model.

Two SVM allocations mirror numpy uint8 arrays. Each example draws a copy
(SVM->SVM, host->SVM, SVM->host, over slices ``SVM(ary[a:b])``) or a fill,
with or without ``byte_count``, sometimes with the offsets SVM routes reject
and sometimes with wrong types. The model decides with plain arithmetic
whether the call must fail (and with which class) or what bytes change, and
numpy slicing applies the change; the device's memory must then equal the
model byte for byte. Runs on every SVM device (tests/conftest.py).
"""

import numpy as np
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

import pycl as cl

SIZE = 384
PATTERN_SIZES = (1, 2, 4, 8, 16, 32, 64, 128)
_setups = {}  # device handle -> (queue, arrays, models)


def setup(device):
    if device.cl_version < (2, 0) or not device.svm_capabilities & cl.device_svm_capabilities.COARSE_GRAIN_BUFFER:
        pytest.skip("%s has no SVM (OpenCL %d.%d)" % ((device.name,) + device.cl_version))
    entry = _setups.get(device.int_ptr)
    if entry is None:
        ctx = cl.Context([device])
        queue = cl.CommandQueue(ctx)
        arrays = [cl.csvm_empty(ctx, SIZE, np.uint8, alignment=128, queue=queue) for _ in range(2)]
        models = [np.random.default_rng(i).integers(0, 256, SIZE, dtype=np.uint8) for i in range(2)]
        for ary, model in zip(arrays, models):
            cl.enqueue_copy(queue, cl.SVM(ary), model)
        entry = _setups[device.int_ptr] = (queue, arrays, models)
    return entry


def region(data, name):
    start = data.draw(st.integers(0, SIZE), label=name + " start")
    stop = data.draw(st.integers(start, SIZE), label=name + " stop")
    return start, stop


def maybe_byte_count(data, limit):
    return data.draw(
        st.one_of(st.none(), st.integers(0, limit + 8), st.sampled_from([-1, 2.0, "8"])), label="byte_count"
    )


def check_device(queue, arrays, models):
    for ary, model in zip(arrays, models):
        out = np.empty(SIZE, np.uint8)
        cl.enqueue_copy(queue, out, cl.SVM(ary))
        np.testing.assert_array_equal(out, model)


def expected_copy_error(src_len, dst_len, byte_count, offsets, overlap):
    """(error class or None, byte count) by the documented rules."""
    if any(offsets):  # checked first: rejected whatever else is passed
        return cl.LogicError, 0
    if isinstance(byte_count, (float, str)):
        return TypeError, 0
    if byte_count is None:
        if src_len != dst_len:
            return cl.LogicError, 0
        n = src_len
    else:
        if byte_count < 0 or byte_count > src_len or byte_count > dst_len:
            return cl.LogicError, 0
        n = byte_count
    if overlap(n):
        return cl.LogicError, 0
    return None, n


@given(data=st.data())
def test_svm_copies_match_model(device, data):
    queue, arrays, models = setup(device)
    kind = data.draw(st.sampled_from(["svm->svm", "host->svm", "svm->host"]), label="kind")
    d_index = data.draw(st.integers(0, 1), label="dest array")
    s_index = data.draw(st.integers(0, 1), label="src array")
    d0, d1 = region(data, "dest")
    s0, s1 = region(data, "src")
    byte_count = maybe_byte_count(data, max(d1 - d0, s1 - s0))
    offsets = data.draw(
        st.one_of(st.just((0, 0)), st.tuples(st.integers(0, 3), st.integers(0, 3))), label="src/dst offsets"
    )
    kwargs = {} if byte_count is None else {"byte_count": byte_count}
    if offsets != (0, 0):
        kwargs.update(src_offset=offsets[0], dst_offset=offsets[1])
    host = np.random.default_rng(data.draw(st.integers(0, 1000), label="seed")).integers(0, 256, SIZE, np.uint8)

    if kind == "svm->svm":
        dest, src = cl.SVM(arrays[d_index][d0:d1]), cl.SVM(arrays[s_index][s0:s1])

        def overlap(n):
            return d_index == s_index and n > 0 and abs(d0 - s0) < n

    else:

        def overlap(n):
            return False

        if kind == "host->svm":
            dest, src = cl.SVM(arrays[d_index][d0:d1]), host[s0:s1]
        else:
            dest, src = host[d0:d1], cl.SVM(arrays[s_index][s0:s1])
    error, n = expected_copy_error(s1 - s0, d1 - d0, byte_count, offsets, overlap)
    note("expect %s, %d bytes" % (error, n))
    if error is not None:
        with pytest.raises(error):
            cl.enqueue_copy(queue, dest, src, **kwargs)
    else:
        before = host.copy()
        event = cl.enqueue_copy(queue, dest, src, **kwargs)
        assert isinstance(event, cl.NannyEvent) == (kind != "svm->svm")
        if kind == "svm->svm":
            models[d_index][d0 : d0 + n] = models[s_index][s0 : s0 + n].copy()
        elif kind == "host->svm":
            models[d_index][d0 : d0 + n] = host[s0 : s0 + n]
        else:
            before[d0 : d0 + n] = models[s_index][s0 : s0 + n]
            np.testing.assert_array_equal(host, before)
    check_device(queue, arrays, models)


@given(data=st.data())
def test_svm_fills_match_model(device, data):
    queue, arrays, models = setup(device)
    index = data.draw(st.integers(0, 1), label="array")
    d0, d1 = region(data, "dest")
    p = data.draw(st.sampled_from(PATTERN_SIZES + (3, 0)), label="pattern size")
    pattern = np.random.default_rng(p).integers(0, 256, p, np.uint8)
    byte_count = maybe_byte_count(data, d1 - d0)
    use_fill = data.draw(st.booleans(), label="enqueue_fill")
    offset = data.draw(st.sampled_from([0, 0, 0, p or 1]), label="offset") if use_fill else 0
    dest = cl.SVM(arrays[index][d0:d1])
    if use_fill:
        size = d1 - d0 if byte_count is None else byte_count

        def call():
            return cl.enqueue_fill(queue, dest, pattern, size, offset=offset)

    else:

        def call():
            return cl.enqueue_svm_memfill(queue, dest, pattern, byte_count)

    n = d1 - d0 if byte_count is None else byte_count
    # Checked in this order: offset, pattern size, then byte_count's type and range.
    if offset or p not in PATTERN_SIZES:
        error = cl.LogicError
    elif isinstance(n, (float, str)):
        error = TypeError
    elif n < 0 or n > d1 - d0 or n % p or (n and d0 % p):
        error = cl.LogicError  # the allocation is 128-aligned: d0 % p is the pointer's alignment
    else:
        error = None
    note("expect %s, %r bytes" % (error, n))
    if error is not None:
        with pytest.raises(error):
            call()
    else:
        call()
        models[index][d0 : d0 + n] = np.tile(pattern, n // p)
    check_device(queue, arrays, models)
