"""enqueue_map_buffer and MemoryMap on every device."""

import gc
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from bufutil import filled, read_all

import pycl as cl
from pycl import cltypes

mf = cl.mem_flags
MAP = cl.map_flags


def map_count(buf, queue):
    """``buf.map_count``, or None where the driver does not track it
    (Oclgrind 21.10 always reports 0; checked with a probe map)."""
    probe = cl.Buffer(buf.context, mf.READ_WRITE, 4)
    array, _ = cl.enqueue_map_buffer(queue, probe, MAP.READ, 0, 4, np.uint8)
    tracked = probe.map_count == 1
    array.base.release()
    return buf.map_count if tracked else None


def assert_map_count(buf, queue, expected):
    count = map_count(buf, queue)
    assert count in (None, expected)


def test_map_read_write(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 256)
    array, event = cl.enqueue_map_buffer(queue, buf, MAP.READ | MAP.WRITE, 16, (4, 8), np.uint16)
    assert isinstance(array.base, cl.MemoryMap) and isinstance(event, cl.Event)
    assert array.shape == (4, 8) and array.dtype == np.uint16
    np.testing.assert_array_equal(array.view(np.uint8).ravel(), model[16:80])
    assert_map_count(buf, queue, 1)
    array[1] = 0xBEEF
    model[16:80].view(np.uint16).reshape(4, 8)[1] = 0xBEEF
    with array.base as memory_map:
        assert memory_map is array.base
    assert array.base.is_released
    queue.finish()
    assert_map_count(buf, queue, 0)
    np.testing.assert_array_equal(read_all(queue, buf), model)


def test_map_order_and_strides(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 512)
    array, _ = cl.enqueue_map_buffer(queue, buf, MAP.READ, 0, (4, 6), np.int32, order="F")
    assert array.flags.f_contiguous
    np.testing.assert_array_equal(array, model[:96].view(np.int32).reshape(6, 4).T)
    array.base.release()
    # strides override order; the map spans what the strides reach
    array, _ = cl.enqueue_map_buffer(queue, buf, MAP.READ, 8, (3, 2), np.uint8, strides=(100, 7))
    expected = np.lib.stride_tricks.as_strided(model[8:], shape=(3, 2), strides=(100, 7))
    np.testing.assert_array_equal(array, expected)
    array.base.release()
    with pytest.raises(cl.LogicError, match="past the end"):
        cl.enqueue_map_buffer(queue, buf, MAP.READ, 400, (3, 2), np.uint8, strides=(100, 7))
    with pytest.raises(cl.LogicError, match="negative"):
        cl.enqueue_map_buffer(queue, buf, MAP.READ, 0, (3,), np.uint8, strides=(-1,))


# Plain dtypes take the one-pass path; fields, subarrays and unhashable
# specs the general one. Each spec is mapped twice: the second call finds
# its dtype remembered.
DTYPE_SPECS = [
    np.float32,
    "<f4",
    np.dtype(">i2"),
    np.dtype("u8"),
    "(2,)u2",
    [("a", "<i4"), ("b", "u1", (3,))],
    np.dtype([("x", "<u2"), ("y", "<f4")], align=True),
    cltypes.uchar4,
]


@pytest.mark.parametrize("spec", DTYPE_SPECS, ids=lambda spec: str(np.dtype(spec)))
def test_map_dtype_forms(cq, spec):
    ctx, queue = cq
    buf, model = filled(ctx, 256)
    dtype = np.dtype(spec)
    n = 96 // dtype.itemsize
    # numpy's own array over the same bytes (a subarray dtype adds axes)
    expected = np.ndarray((n,), dtype, buffer=model[8 : 8 + n * dtype.itemsize].tobytes())
    for _ in range(2):
        array, _ = cl.enqueue_map_buffer(queue, buf, MAP.READ | MAP.WRITE, 8, (n,), spec)
        assert (array.dtype, array.shape) == (expected.dtype, expected.shape)
        assert array.tobytes() == expected.tobytes()
        array.base.release()
    # writes through a structured map reach the buffer
    array, _ = cl.enqueue_map_buffer(queue, buf, MAP.WRITE_INVALIDATE_REGION, 8, (n,), spec)
    ones = np.full(n * dtype.itemsize, 0xA5, np.uint8)
    array.view(np.uint8).reshape(-1)[:] = ones
    array.base.release().wait()
    model[8 : 8 + n * dtype.itemsize] = ones
    np.testing.assert_array_equal(read_all(queue, buf), model)


def test_second_release_and_other_queue(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 64)
    other = cl.CommandQueue(ctx)
    array, event = cl.enqueue_map_buffer(queue, buf, MAP.WRITE_INVALIDATE_REGION, 0, 64, np.uint8)
    array[:] = 5
    unmap = array.base.release(other, wait_for=[event])
    assert isinstance(unmap, cl.Event)
    unmap.wait()
    with pytest.raises(cl.LogicError, match="already released"):
        array.base.release()
    with array.base:
        pass  # leaving the block after a release does nothing
    np.testing.assert_array_equal(read_all(queue, buf), 5)


def test_collection_unmaps(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 64)
    array, _ = cl.enqueue_map_buffer(queue, buf, MAP.WRITE, 0, 64, np.uint8)
    view = array[8:16]
    array[:] = 1
    del array
    gc.collect()
    assert_map_count(buf, queue, 1)  # the view keeps the map
    view[:] = 2
    del view
    for _ in range(5):  # PyPy frees cpyext objects over several collections
        gc.collect()
    queue.finish()
    assert_map_count(buf, queue, 0)
    expected = np.ones(64, np.uint8)
    expected[8:16] = 2
    np.testing.assert_array_equal(read_all(queue, buf), expected)


def test_collection_after_buffer_and_queue_release(cq):
    ctx, queue = cq
    buf, _ = filled(ctx, 64)
    array, _ = cl.enqueue_map_buffer(queue, buf, MAP.WRITE, 0, 64, np.uint8)
    array[:] = 3
    queue.finish()
    queue.release()
    buf.release()
    del array  # the shim retained queue and buffer: the unmap is still valid
    gc.collect()


def test_non_blocking_map(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 64)
    gate = cl.UserEvent(ctx)
    array, event = cl.enqueue_map_buffer(queue, buf, MAP.READ, 0, 64, np.uint8, wait_for=[gate], is_blocking=False)
    gate.set_status(cl.command_execution_status.COMPLETE)
    event.wait()
    np.testing.assert_array_equal(array, model)
    array.base.release().wait()


def test_map_errors(cq):
    ctx, queue = cq
    buf, model = filled(ctx, 64)
    with pytest.raises(cl.LogicError, match="WRITE_INVALIDATE_REGION excludes"):
        cl.enqueue_map_buffer(queue, buf, MAP.READ | MAP.WRITE_INVALIDATE_REGION, 0, 4, np.uint8)
    with pytest.raises(cl.LogicError, match="map_flags"):
        cl.enqueue_map_buffer(queue, buf, 0, 0, 4, np.uint8)
    with pytest.raises(cl.LogicError, match="map_flags"):
        cl.enqueue_map_buffer(queue, buf, 16, 0, 4, np.uint8)
    with pytest.raises(cl.LogicError, match="past the end of buf"):
        cl.enqueue_map_buffer(queue, buf, MAP.READ, 4, 16, np.float32)
    with pytest.raises(cl.LogicError, match="maps no bytes"):
        cl.enqueue_map_buffer(queue, buf, MAP.READ, 0, (0, 4), np.float32)
    with pytest.raises(cl.LogicError, match="order"):
        cl.enqueue_map_buffer(queue, buf, MAP.READ, 0, (2, 2), np.float32, order="X")
    with pytest.raises(TypeError, match="shape"):
        cl.enqueue_map_buffer(queue, buf, MAP.READ, 0, "x", np.float32)
    with pytest.raises(TypeError, match="pycl.Buffer"):
        cl.enqueue_map_buffer(queue, np.zeros(4), MAP.READ, 0, 4, np.uint8)
    no_read = cl.Buffer(ctx, mf.HOST_WRITE_ONLY, 64)
    with pytest.raises(cl.LogicError, match="reading"):
        cl.enqueue_map_buffer(queue, no_read, MAP.READ, 0, 4, np.uint8)
    cl.enqueue_map_buffer(queue, no_read, MAP.WRITE, 0, 4, np.uint8)[0].base.release()
    no_write = cl.Buffer(ctx, mf.HOST_READ_ONLY, 64)
    with pytest.raises(cl.LogicError, match="writing"):
        cl.enqueue_map_buffer(queue, no_write, MAP.WRITE_INVALIDATE_REGION, 0, 4, np.uint8)
    assert_map_count(buf, queue, 0)
    np.testing.assert_array_equal(read_all(queue, buf), model)


def test_map_sub_buffer(cq):
    ctx, queue = cq
    align = min(d.mem_base_addr_align // 8 for d in ctx.devices)
    buf, model = filled(ctx, 2 * align)
    sub = buf[align:]
    array, _ = cl.enqueue_map_buffer(queue, sub, MAP.READ | MAP.WRITE, 4, 8, np.uint8)
    np.testing.assert_array_equal(array, model[align + 4 : align + 12])
    array[:] = 0
    array.base.release()
    model[align + 4 : align + 12] = 0
    np.testing.assert_array_equal(read_all(queue, buf), model)


USE_AFTER_RELEASE = textwrap.dedent(
    """
    import sys, gc
    import numpy as np
    import pycl as cl
    device = cl.get_platforms()[int(sys.argv[1])].get_devices()[int(sys.argv[2])]
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096)
    array, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ | cl.map_flags.WRITE, 0, 4096, np.uint8)
    array.base.release().wait()
    buf.release()
    array[:] = 7          # undefined data, but the memory is still allocated
    print(int(array.sum()))
    del array
    gc.collect()
    queue.finish()
    print("ok")
    """
)


def test_use_after_release_does_not_crash(device):
    # Documented in pycl.mapping: on these CPU devices the mapped memory stays
    # allocated while the MemoryMap lives; the data is no longer synchronized.
    platforms = cl.get_platforms()
    p = next(i for i, x in enumerate(platforms) if x == device.platform)
    d = platforms[p].get_devices().index(device)
    result = subprocess.run(
        [sys.executable, "-c", USE_AFTER_RELEASE, str(p), str(d)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split()[-1] == "ok"
