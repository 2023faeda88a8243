"""Shared virtual memory on every device: allocations and their queue-ordered
frees, the SVM tag, copies, fills, maps, kernels, and the UnavailableError
paths where a device has no SVM (Oclgrind, PYCL_FORCE_CL_VERSION=1.2).
Expected data always comes from numpy on a host mirror."""

import gc
import warnings

import numpy as np
import pytest

import pycl as cl
from pycl import _svm_allocation
from pycl import svm as _svm
from pycl.testing import require_kernel_compiler

RW = cl.svm_mem_flags.READ_WRITE
FINE = cl.svm_mem_flags.READ_WRITE | cl.svm_mem_flags.SVM_FINE_GRAIN_BUFFER

# One warning per process is the documented behaviour; tests that make
# unbound allocations on purpose silence it.
pytestmark = pytest.mark.filterwarnings("ignore:an SVM allocation without a queue:RuntimeWarning")


def svm_caps(device):
    if device.cl_version < (2, 0):
        return 0
    return device.svm_capabilities


def has_svm(device):
    return bool(svm_caps(device) & cl.device_svm_capabilities.COARSE_GRAIN_BUFFER)


def has_fine(device):
    return bool(svm_caps(device) & cl.device_svm_capabilities.FINE_GRAIN_BUFFER)


@pytest.fixture
def svm_ctx(ctx_factory):
    device = ctx_factory.device
    if not has_svm(device):
        pytest.skip(
            "%s has no coarse-grain SVM (OpenCL %d.%d): see the UnavailableError tests"
            % ((device.name,) + device.cl_version)
        )
    ctx = ctx_factory()
    return ctx, cl.CommandQueue(ctx)


def host_data(n, seed=0):
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8)


def read_back(queue, svm):
    out = np.empty(svm.size, np.uint8)
    cl.enqueue_copy(queue, out, svm)
    return out


# {{{ UnavailableError where there is no SVM


def test_no_svm_raises_unavailable(ctx_factory):
    device = ctx_factory.device
    if has_svm(device):
        pytest.skip("%s supports SVM" % device.name)
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    host = np.zeros(16, np.float32)
    calls = [
        lambda: cl.SVMAllocation(ctx, 64, 0, RW, queue),
        lambda: cl.SVMAllocation(ctx, 0, 0, RW),
        lambda: cl.svm_empty(ctx, RW, 4, np.float32),
        lambda: cl.csvm_empty(ctx, 4, np.float32, queue=queue),
        lambda: cl.fsvm_empty(ctx, 4, np.float32),
        lambda: cl.csvm_empty_like(ctx, host),
        lambda: cl.enqueue_svm_memfill(queue, cl.SVM(host), np.float32(1)),
        lambda: cl.enqueue_copy(queue, cl.SVM(host), np.ones(16, np.float32)),
        lambda: cl.enqueue_copy(queue, np.ones(16, np.float32), cl.SVM(host)),
        lambda: cl.enqueue_fill(queue, cl.SVM(host), np.float32(1), 64),
        lambda: cl.SVM(host).map_rw(queue),
        lambda: cl.enqueue_svm_migratemem(queue, [cl.SVM(host)], 0),
    ]
    for call in calls:
        with pytest.raises(cl.UnavailableError) as info:
            call()
        text = str(info.value)
        assert "OpenCL 2" in text or "SVM" in text
        assert device.name in text, text
        assert isinstance(info.value, NotImplementedError)
    with pytest.raises(cl.UnavailableError, match=r"needs OpenCL 2\.0.*reports OpenCL 1\.2"):
        cl.SVMAllocation(ctx, 64, 0, RW, queue)


def test_no_svm_kernel_argument_unavailable(ctx_factory):
    device = ctx_factory.device
    if has_svm(device):
        pytest.skip("%s supports SVM" % device.name)
    require_kernel_compiler(device)
    ctx = ctx_factory()
    knl = cl.Program(ctx, "__kernel void k(__global float *a) { a[0] = 1; }").build().k
    with pytest.raises(cl.UnavailableError, match="clSetKernelArgSVMPointer needs OpenCL 2.0"):
        knl.set_arg(0, cl.SVM(np.zeros(4, np.float32)))
    with pytest.raises(cl.UnavailableError, match="clSetKernelExecInfo needs OpenCL 2.0"):
        cl.set_kernel_exec_info(knl, cl.kernel_exec_info.SVM_FINE_GRAIN_SYSTEM, False)


# }}}


# {{{ SVMAllocation


def test_allocation_basics(svm_ctx):
    ctx, queue = svm_ctx
    a = cl.SVMAllocation(ctx, 1000, 0, RW, queue)
    b = cl.SVMAllocation(ctx, 1000, 0, RW, queue=queue)
    assert isinstance(a, cl.SVMPointer)
    assert a.size == 1000 and a.svm_ptr and a.int_ptr == a.svm_ptr
    assert a != b and a == a and hash(a) == hash(a.svm_ptr)
    assert {a, b, a} == {a, b}
    assert a.queue is queue and a.context is ctx
    assert a.buf.shape == (1000,) and a.buf.dtype == np.uint8
    data = host_data(1000)
    cl.enqueue_copy(queue, a, data)
    np.testing.assert_array_equal(read_back(queue, a), data)
    a.release()
    with pytest.raises(cl.LogicError, match="was released"):
        a.release()
    for use in (
        lambda: a.svm_ptr,
        lambda: a.size,
        lambda: a.buf,
        lambda: a.int_ptr,
        lambda: a.map_rw(queue),
        lambda: cl.enqueue_copy(queue, a, data),
        lambda: cl.enqueue_copy(queue, data, a),
        lambda: cl.enqueue_svm_memfill(queue, a, np.uint8(1)),
        lambda: a.enqueue_release(),
        lambda: a.bind_to_queue(queue),
    ):
        with pytest.raises(cl.LogicError, match="SVMAllocation"):
            use()
    assert "released" in repr(a)
    b.release()
    a = b = None
    gc.collect()  # collection after release does nothing


def test_allocation_context_manager_and_collection(svm_ctx):
    ctx, queue = svm_ctx
    with cl.SVMAllocation(ctx, 64, 0, RW, queue) as a:
        assert a.size == 64
    with pytest.raises(cl.LogicError):
        a.svm_ptr
    for _ in range(200):
        cl.SVMAllocation(ctx, 4096, 0, RW, queue)  # collected at once: queued frees
    queue.finish()
    assert _svm.pending_frees(wait=True) == 0


def test_zero_size_allocation(svm_ctx):
    ctx, queue = svm_ctx
    a = cl.SVMAllocation(ctx, 0, 0, RW, queue)
    assert a.svm_ptr == 0 and a.size == 0
    b = cl.SVMAllocation(ctx, 0, 0, RW, queue)
    assert a != b  # NULL pointers compare by identity
    empty = np.empty(0, np.uint8)
    assert isinstance(cl.enqueue_copy(queue, a, empty), cl.NannyEvent)
    cl.enqueue_copy(queue, empty, a).wait()
    with a.map_rw(queue) as ary:
        assert ary.shape == (0,)
    cl.enqueue_svm_memfill(queue, a, np.uint32(0)).wait()
    a.release()
    b.enqueue_release().wait()
    for shape in (0, (0,), (3, 0)):
        ary = cl.csvm_empty(ctx, shape, np.float32, queue=queue)
        assert ary.size == 0 and ary.base.svm_ptr == 0
    c = cl.SVMAllocation(ctx, 0, 0, RW)
    del c
    gc.collect()


@pytest.mark.parametrize("spec", ["(2,)u2", np.dtype([("x", "<u2"), ("y", "<f4")], align=True)])
def test_arrays_of_subarray_and_aligned_dtypes(svm_ctx, spec):
    """SVM arrays and a USE_HOST_PTR buffer's host array have numpy's shape
    and dtype for the same spec (a subarray adds its axes; an aligned
    structured dtype stays itself)."""
    ctx, queue = svm_ctx
    model = np.empty((3,), spec)
    ary = cl.csvm_empty(ctx, (3,), spec, queue=queue)
    assert (ary.shape, ary.dtype) == (model.shape, model.dtype)
    ary.view(np.uint8)[...] = 7
    assert ary.tobytes() == bytes([7]) * model.nbytes
    host = np.arange(model.nbytes, dtype=np.uint8)
    buf = cl.Buffer(ctx, RW | cl.mem_flags.USE_HOST_PTR, hostbuf=host)
    view = buf.get_host_array((3,), spec)
    assert (view.shape, view.dtype) == (model.shape, model.dtype)
    assert view.tobytes() == host.tobytes()


def test_allocation_argument_checks(svm_ctx, ctx_factory):
    ctx, queue = svm_ctx
    with pytest.raises(cl.LogicError, match="power of two"):
        cl.SVMAllocation(ctx, 64, 3, RW, queue)
    with pytest.raises(cl.LogicError, match="largest OpenCL data type"):
        cl.SVMAllocation(ctx, 64, 256, RW, queue)
    with pytest.raises(cl.LogicError, match="negative"):
        cl.SVMAllocation(ctx, -1, 0, RW, queue)
    with pytest.raises(TypeError):
        cl.SVMAllocation(ctx, 1.5, 0, RW, queue)
    with pytest.raises(cl.LogicError, match="no svm_mem_flags"):
        cl.SVMAllocation(ctx, 64, 0, 1 << 40, queue)
    with pytest.raises(cl.LogicError, match="exclusive"):
        cl.SVMAllocation(ctx, 64, 0, RW | cl.svm_mem_flags.READ_ONLY, queue)
    with pytest.raises(cl.LogicError, match="SVM_ATOMICS needs SVM_FINE_GRAIN_BUFFER"):
        cl.SVMAllocation(ctx, 64, 0, RW | cl.svm_mem_flags.SVM_ATOMICS, queue)
    ooo = cl.CommandQueue(ctx, properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE)
    with pytest.raises(cl.LogicError, match="out-of-order"):
        cl.SVMAllocation(ctx, 64, 0, RW, ooo)
    other = ctx_factory()
    with pytest.raises(cl.LogicError, match="another context"):
        cl.SVMAllocation(ctx, 64, 0, RW, cl.CommandQueue(other))
    a = cl.SVMAllocation(ctx, 64, 0, RW, queue)
    with pytest.raises(cl.LogicError, match="out-of-order"):
        a.bind_to_queue(ooo)
    with pytest.raises(cl.LogicError, match="another context"):
        cl.enqueue_copy(cl.CommandQueue(other), a, np.zeros(64, np.uint8))
    with pytest.raises(cl.LogicError):
        cl.SVMAllocation.from_int_ptr(a.svm_ptr)


@pytest.mark.parametrize("alignment", [0, 1, 64, 128])
def test_alignment(svm_ctx, alignment):
    ctx, queue = svm_ctx
    allocations = [cl.SVMAllocation(ctx, 100 + i, alignment, RW, queue) for i in range(8)]
    for a in allocations:
        assert a.svm_ptr % max(alignment, 1) == 0
    ary = cl.csvm_empty(ctx, 10, np.float64, alignment=alignment or None, queue=queue)
    assert ary.ctypes.data % max(alignment, 8) == 0


def test_allocation_failure_is_memory_error(svm_ctx):
    ctx, queue = svm_ctx
    huge = ctx.devices[0].global_mem_size * 64
    with pytest.raises(cl.MemoryError) as info:
        cl.SVMAllocation(ctx, huge, 0, RW, queue)
    assert isinstance(info.value, MemoryError)
    assert "clSVMAlloc" in str(info.value)


def test_unbound_allocation_warns_once(svm_ctx):
    ctx, queue = svm_ctx
    _svm_allocation._warned_unbound = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = cl.SVMAllocation(ctx, 64, 0, RW)
        b = cl.csvm_empty(ctx, 4, np.float32)
    assert len([w for w in caught if "without a queue" in str(w.message)]) == 1
    assert caught[0].filename == __file__
    assert a.queue is None and b.base.queue is None
    a.release()


def test_enqueue_release_orders_after_queued_work(svm_ctx):
    ctx, queue = svm_ctx
    gate = cl.UserEvent(ctx)
    a = cl.SVMAllocation(ctx, 4096, 0, RW, queue)
    data = host_data(4096, 1)
    out = np.zeros(4096, np.uint8)
    cl.enqueue_copy(queue, a, data, is_blocking=False, wait_for=[gate])
    cl.enqueue_copy(queue, out, a, is_blocking=False)
    free = a.enqueue_release()
    assert isinstance(free, cl.Event)
    assert free.command_type == cl.command_type.SVM_FREE
    with pytest.raises(cl.LogicError):
        a.svm_ptr
    assert free.command_execution_status > cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    free.wait()
    np.testing.assert_array_equal(out, data)


def test_enqueue_release_needs_a_queue(svm_ctx):
    ctx, queue = svm_ctx
    a = cl.SVMAllocation(ctx, 64, 0, RW)
    with pytest.raises(cl.LogicError, match="no queue"):
        a.enqueue_release()
    a.enqueue_release(queue).wait()


def test_bind_to_queue_orders_old_queue_first(svm_ctx):
    ctx, q1 = svm_ctx
    q2 = cl.CommandQueue(ctx)
    gate = cl.UserEvent(ctx)
    a = cl.SVMAllocation(ctx, 1024, 0, RW, q1)
    data = host_data(1024, 2)
    cl.enqueue_copy(q1, a, data, is_blocking=False, wait_for=[gate])
    a.bind_to_queue(q2)
    assert a.queue is q2
    out = np.zeros(1024, np.uint8)
    read = cl.enqueue_copy(q2, out, a, is_blocking=False)
    assert read.command_execution_status > cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    read.wait()
    np.testing.assert_array_equal(out, data)
    a.bind_to_queue(q2)  # the same queue: nothing to do
    a.release()
    q2.finish()


def test_unbind_from_queue_finishes_old_queue(svm_ctx):
    ctx, queue = svm_ctx
    a = cl.SVMAllocation(ctx, 1 << 20, 0, RW, queue)
    event = cl.enqueue_svm_memfill(queue, a, np.uint32(7))
    a.unbind_from_queue()
    assert a.queue is None
    assert event.command_execution_status == cl.command_execution_status.COMPLETE
    np.testing.assert_array_equal(read_back(queue, a).view(np.uint32), 7)
    a.release()


# }}}


# {{{ numpy-style allocation


@pytest.mark.parametrize("order", ["C", "F"])
def test_svm_empty_family(svm_ctx, order):
    ctx, queue = svm_ctx
    like = np.zeros((3, 5), np.int16, order=order)
    arrays = [
        cl.svm_empty(ctx, RW, (3, 5), np.int16, order=order, queue=queue),
        cl.svm_empty_like(ctx, RW, like, queue=queue),
        cl.csvm_empty(ctx, (3, 5), np.int16, order, queue=queue),
        cl.csvm_empty_like(ctx, like, queue=queue),
    ]
    if has_fine(ctx.devices[0]):
        arrays += [
            cl.fsvm_empty(ctx, (3, 5), np.int16, order, queue=queue),
            cl.fsvm_empty_like(ctx, like, queue=queue),
        ]
    for ary in arrays:
        assert isinstance(ary, np.ndarray) and ary.shape == (3, 5) and ary.dtype == np.int16
        assert isinstance(ary.base, cl.SVMAllocation)
        assert ary.base.size == 30 and ary.ctypes.data == ary.base.svm_ptr
        assert ary.flags.f_contiguous if order == "F" else ary.flags.c_contiguous
        assert ary.base.queue is queue
        assert ary.ctypes.data % 2 == 0  # alignment defaults to the itemsize


def test_fine_grain_unavailable_without_support(svm_ctx):
    ctx, queue = svm_ctx
    device = ctx.devices[0]
    if has_fine(device):
        ary = cl.fsvm_empty(ctx, 4, np.float32, queue=queue)
        ary[:] = 1.5  # fine grain: direct host access
        assert ary.sum() == 6
    else:
        with pytest.raises(cl.UnavailableError, match="no fine-grain SVM support"):
            cl.fsvm_empty(ctx, 4, np.float32, queue=queue)


def test_forced_version_names_the_cap(ctx_factory):
    device = ctx_factory.device
    if device.cl_version >= (2, 0) or device.version.startswith("OpenCL 1."):
        pytest.skip("only with PYCL_FORCE_CL_VERSION below a device's real version")
    with pytest.raises(cl.UnavailableError, match="capped by PYCL_FORCE_CL_VERSION"):
        cl.csvm_empty(ctx_factory(), 4, np.float32)


# }}}


# {{{ the SVM tag and copies


def test_svm_tag(svm_ctx):
    ctx, queue = svm_ctx
    ary = cl.csvm_empty(ctx, 100, np.float32, queue=queue)
    tag = cl.SVM(ary)
    assert tag.mem is ary and tag.size == 400 and tag.svm_ptr == ary.ctypes.data
    assert isinstance(tag, cl.SVMPointer)
    part = cl.SVM(ary[10:20])
    assert part.svm_ptr == ary.ctypes.data + 40 and part.size == 40
    with pytest.raises(TypeError, match="contiguous"):
        cl.SVM(ary[::2])
    with pytest.raises(TypeError):
        cl.SVM(object())
    readonly = cl.SVM(bytes(16))
    with pytest.raises(cl.LogicError, match="read-only"):
        cl.enqueue_copy(queue, readonly, np.zeros(16, np.uint8))
    ary.base.release()
    with pytest.raises(cl.LogicError, match="was released"):
        tag.svm_ptr
    with pytest.raises(cl.LogicError, match="was released"):
        cl.enqueue_copy(queue, tag, np.zeros(400, np.uint8))


def test_copies_against_numpy(svm_ctx):
    ctx, queue = svm_ctx
    n = 4096
    a = cl.SVMAllocation(ctx, n, 0, RW, queue)
    b = cl.csvm_empty(ctx, n, np.uint8, queue=queue)
    model_a, model_b = host_data(n, 3), host_data(n, 4)
    event = cl.enqueue_copy(queue, a, model_a)
    assert isinstance(event, cl.NannyEvent) and event.get_ward() is model_a
    cl.enqueue_copy(queue, cl.SVM(b), model_b)
    # SVM -> SVM, whole
    event = cl.enqueue_copy(queue, cl.SVM(b), a)
    assert type(event) is cl.Event
    model_b[:] = model_a
    # SVM -> SVM, slices and byte_count
    cl.enqueue_copy(queue, cl.SVM(b[100:300]), cl.SVM(b[1000:1200]))
    model_b[100:300] = model_b[1000:1200].copy()
    cl.enqueue_copy(queue, a, cl.SVM(b[:2048]), byte_count=1000)
    model_a[:1000] = model_b[:1000]
    # host <-> SVM with byte_count
    src = host_data(n, 5)
    cl.enqueue_copy(queue, cl.SVM(b[512:]), src[: n - 512], byte_count=77)
    model_b[512:589] = src[:77]
    out = np.zeros(n, np.uint8)
    cl.enqueue_copy(queue, out, a, byte_count=300)
    np.testing.assert_array_equal(out[:300], model_a[:300])
    assert not out[300:].any()
    np.testing.assert_array_equal(read_back(queue, a), model_a)
    np.testing.assert_array_equal(read_back(queue, cl.SVM(b)), model_b)


def test_copy_validation(svm_ctx):
    ctx, queue = svm_ctx
    a = cl.SVMAllocation(ctx, 64, 0, RW, queue)
    b = cl.SVMAllocation(ctx, 32, 0, RW, queue)
    with pytest.raises(cl.LogicError, match="differ in size"):
        cl.enqueue_copy(queue, a, b)
    with pytest.raises(cl.LogicError, match="differ in size"):
        cl.enqueue_copy(queue, a, np.zeros(10, np.uint8))
    with pytest.raises(cl.LogicError, match="larger than src"):
        cl.enqueue_copy(queue, a, b, byte_count=33)
    with pytest.raises(cl.LogicError, match="larger than dest"):
        cl.enqueue_copy(queue, b, a, byte_count=33)
    with pytest.raises(cl.LogicError, match="src_offset"):
        cl.enqueue_copy(queue, a, np.zeros(64, np.uint8), src_offset=4)
    with pytest.raises(cl.LogicError, match="dst_offset"):
        cl.enqueue_copy(queue, a, a, dst_offset=4)
    cl.enqueue_copy(queue, a, np.zeros(64, np.uint8), src_offset=0, dst_offset=0)  # zero is harmless
    with pytest.raises(TypeError, match="contiguous"):
        cl.enqueue_copy(queue, np.zeros((8, 8), np.uint8)[:, ::2], b)
    with pytest.raises(cl.LogicError, match="read-only"):
        cl.enqueue_copy(queue, bytes(32), b)
    with pytest.raises(TypeError, match="unexpected keyword"):
        cl.enqueue_copy(queue, a, b, region=(1, 1, 1))


def test_non_blocking_host_copy_keeps_ward(svm_ctx):
    ctx, queue = svm_ctx
    gate = cl.UserEvent(ctx)
    a = cl.SVMAllocation(ctx, 1 << 16, 0, RW, queue)
    data = host_data(1 << 16, 6)
    src = data.copy()
    event = cl.enqueue_copy(queue, a, src, is_blocking=False, wait_for=[gate])
    assert event.get_ward() is src
    del src, event
    gc.collect()
    gate.set_status(cl.command_execution_status.COMPLETE)
    np.testing.assert_array_equal(read_back(queue, a), data)


# }}}


# {{{ fills


@pytest.mark.parametrize("pattern", [np.uint8(0x5A), np.uint16(0x1234), np.float32(2.5), np.arange(4, dtype=np.int32)])
def test_memfill_against_numpy(svm_ctx, pattern):
    ctx, queue = svm_ctx
    n = 1024
    ary = cl.csvm_empty(ctx, n, np.uint8, queue=queue)
    model = host_data(n, 7)
    cl.enqueue_copy(queue, cl.SVM(ary), model)
    p = np.asarray(pattern).tobytes()
    cl.enqueue_svm_memfill(queue, cl.SVM(ary[64:]), pattern, byte_count=10 * len(p))
    model[64 : 64 + 10 * len(p)] = np.frombuffer(p * 10, np.uint8)
    np.testing.assert_array_equal(read_back(queue, cl.SVM(ary)), model)
    cl.enqueue_fill(queue, cl.SVM(ary[128:]), pattern, 4 * len(p))
    model[128 : 128 + 4 * len(p)] = np.frombuffer(p * 4, np.uint8)
    np.testing.assert_array_equal(read_back(queue, cl.SVM(ary)), model)
    cl.enqueue_svm_memfill(queue, cl.SVM(ary), pattern)
    model[:] = np.frombuffer(p * (n // len(p)), np.uint8)
    np.testing.assert_array_equal(read_back(queue, cl.SVM(ary)), model)


def test_memfill_validation(svm_ctx):
    ctx, queue = svm_ctx
    a = cl.SVMAllocation(ctx, 64, 64, RW, queue)
    with pytest.raises(cl.LogicError, match="larger than dest"):
        cl.enqueue_svm_memfill(queue, a, np.uint32(1), byte_count=68)
    with pytest.raises(cl.LogicError, match="multiple of the pattern size"):
        cl.enqueue_svm_memfill(queue, a, np.uint32(1), byte_count=6)
    with pytest.raises(cl.LogicError, match="has 3 bytes"):
        cl.enqueue_svm_memfill(queue, a, b"abc")
    with pytest.raises(cl.LogicError, match="aligned"):
        cl.enqueue_svm_memfill(queue, cl.SVM(a.buf[2:10]), np.uint32(1))
    with pytest.raises(cl.LogicError, match="offset"):
        cl.enqueue_fill(queue, a, np.uint32(1), 8, offset=4)


# }}}


# {{{ maps


def test_map_with_size_and_release(svm_ctx):
    ctx, queue = svm_ctx
    a = cl.SVMAllocation(ctx, 256, 0, RW, queue)
    model = host_data(256, 8)
    cl.enqueue_copy(queue, a, model)
    m = a.map_rw(queue, size=100)
    assert isinstance(m, cl.SVMMap) and isinstance(m.event, cl.Event) and m.queue is queue
    assert m.array.shape == (100,) and m.array.dtype == np.uint8
    np.testing.assert_array_equal(m.array, model[:100])
    m.array[:] = 9
    model[:100] = 9
    with pytest.raises(cl.LogicError, match="still mapped"):
        a.release()
    with pytest.raises(cl.LogicError, match="still mapped"):
        a.enqueue_release()
    assert isinstance(m.release(), cl.Event)
    with pytest.raises(cl.LogicError, match="already released"):
        m.release()
    np.testing.assert_array_equal(read_back(queue, a), model)
    with pytest.raises(cl.LogicError, match="exceeds"):
        a.map_ro(queue, size=257)
    with pytest.raises(cl.LogicError, match="map_flags"):
        a.map(queue, flags=0)
    with a.map_ro(queue) as ro:
        np.testing.assert_array_equal(ro, model)
    m = a.map(queue, flags=cl.map_flags.WRITE_INVALIDATE_REGION, is_blocking=False)
    m.event.wait()
    m.array[:] = 3
    m.release().wait()
    np.testing.assert_array_equal(read_back(queue, a), 3)
    a.release()


def test_svm_tag_map_yields_mem(svm_ctx):
    ctx, queue = svm_ctx
    ary = cl.csvm_empty(ctx, (4, 4), np.float32, queue=queue)
    svm = cl.SVM(ary)
    with svm.map_rw(queue) as mapped:
        assert mapped is ary
        mapped[:] = np.arange(16).reshape(4, 4)
    out = np.empty((4, 4), np.float32)
    cl.enqueue_copy(queue, out, svm)
    np.testing.assert_array_equal(out, np.arange(16).reshape(4, 4))
    m = svm.map_ro(queue)
    with pytest.raises(cl.LogicError, match="still mapped"):
        ary.base.release()
    m.release()
    ary.base.release()


def test_dropped_map_is_unmapped_before_free(svm_ctx):
    ctx, queue = svm_ctx
    for _ in range(20):
        a = cl.SVMAllocation(ctx, 4096, 0, RW, queue)
        m = a.map_rw(queue)
        m.array[:] = 1
        del a, m  # both collected together, in either order
        gc.collect()
    ary = cl.csvm_empty(ctx, 64, np.uint8, queue=queue)
    cl.SVM(ary).map_rw(queue)
    del ary
    gc.collect()
    queue.finish()
    assert _svm.pending_frees(wait=True) == 0


def test_as_buffer(svm_ctx):
    ctx, queue = svm_ctx
    a = cl.SVMAllocation(ctx, 512, 0, RW, queue)
    model = host_data(512, 9)
    cl.enqueue_copy(queue, a, model)
    buf = a.as_buffer(ctx)
    assert isinstance(buf, cl.Buffer) and buf.size == 512
    out = np.empty(512, np.uint8)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, model)
    half = a.as_buffer(ctx, flags=cl.mem_flags.READ_ONLY | cl.mem_flags.USE_HOST_PTR, size=256)
    assert half.size == 256
    buf.release()
    half.release()


# }}}


# {{{ migration


def test_migratemem(svm_ctx):
    ctx, queue = svm_ctx
    a = cl.SVMAllocation(ctx, 1024, 0, RW, queue)
    ary = cl.csvm_empty(ctx, 256, np.uint8, queue=queue)
    model = host_data(1024, 10)
    cl.enqueue_copy(queue, a, model)
    try:
        event = cl.enqueue_svm_migratemem(queue, [a, cl.SVM(ary)], 0)
    except cl.UnavailableError as error:
        pytest.skip("the driver has no clEnqueueSVMMigrateMem: %s" % error)
    assert isinstance(event, cl.Event)
    cl.enqueue_svm_migrate_mem(queue, [a], cl.mem_migration_flags.HOST).wait()
    np.testing.assert_array_equal(read_back(queue, a), model)
    with pytest.raises(cl.LogicError, match="empty"):
        cl.enqueue_svm_migratemem(queue, [], 0)
    with pytest.raises(cl.LogicError, match="mem_migration_flags"):
        cl.enqueue_svm_migratemem(queue, [a], 1 << 20)


# }}}


# {{{ kernels

DOUBLE = """
__kernel void twice(__global float *a) { a[get_global_id(0)] *= 2; }
__kernel void indirect(__global const ulong *table, float factor) {
    __global float *p = (__global float *) table[0];
    p[get_global_id(0)] *= factor;
}
"""


def test_kernel_doubles_coarse_grain_with_maps(svm_ctx):
    ctx, queue = svm_ctx
    require_kernel_compiler(ctx.devices[0])
    prg = cl.Program(ctx, DOUBLE).build()
    model = np.random.default_rng(11).random(1000).astype(np.float32)
    svm_ary = cl.SVM(cl.csvm_empty(ctx, 1000, np.float32, alignment=64, queue=queue))
    with svm_ary.map_rw(queue) as ary:
        ary[:] = model
    prg.twice(queue, (1000,), None, svm_ary)
    with svm_ary.map_ro(queue) as ary:
        np.testing.assert_array_equal(ary, model * 2)
    alloc = cl.SVMAllocation(ctx, 4000, 0, RW, queue)
    cl.enqueue_copy(queue, alloc, model)
    prg.twice(queue, (1000,), None, alloc)
    with alloc.map_ro(queue) as raw:
        np.testing.assert_array_equal(raw.view(np.float32), model * 2)
    knl = prg.twice
    knl.set_arg(0, alloc)
    alloc.release()
    with pytest.raises(cl.LogicError, match="was released"):
        cl.enqueue_nd_range_kernel(queue, knl, (1000,), None)


def test_kernel_doubles_fine_grain_without_maps(svm_ctx):
    ctx, queue = svm_ctx
    require_kernel_compiler(ctx.devices[0])
    if not has_fine(ctx.devices[0]):
        pytest.skip("%s has no fine-grain SVM" % ctx.devices[0].name)
    prg = cl.Program(ctx, DOUBLE).build()
    ary = cl.fsvm_empty(ctx, 1000, np.float32, queue=queue)
    model = np.random.default_rng(12).random(1000).astype(np.float32)
    ary[:] = model
    prg.twice(queue, ary.shape, None, cl.SVM(ary))
    queue.finish()
    np.testing.assert_array_equal(ary, model * 2)


def test_kernel_exec_info_indirect_pointers(svm_ctx):
    ctx, queue = svm_ctx
    require_kernel_compiler(ctx.devices[0])
    if not has_fine(ctx.devices[0]):
        pytest.skip("%s has no fine-grain SVM" % ctx.devices[0].name)
    prg = cl.Program(ctx, DOUBLE).build()
    target = cl.fsvm_empty(ctx, 64, np.float32, queue=queue)
    model = np.arange(64, dtype=np.float32)
    target[:] = model
    table = cl.fsvm_empty(ctx, 1, np.uint64, queue=queue)
    table[0] = target.base.svm_ptr
    knl = prg.indirect
    cl.set_kernel_exec_info(knl, cl.kernel_exec_info.SVM_PTRS, [target.base])
    cl.set_kernel_exec_info(knl, cl.kernel_exec_info.SVM_FINE_GRAIN_SYSTEM, False)
    knl(queue, (64,), None, cl.SVM(table), np.float32(3))
    queue.finish()
    np.testing.assert_array_equal(target, model * 3)
    # The table argument switched from SVM to a Buffer renews the kernel
    # (Kernel._renew), which sets the exec info again.
    table_buf = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.array(table))
    knl(queue, (64,), None, table_buf, np.float32(2))
    queue.finish()
    np.testing.assert_array_equal(target, model * 6)
    with pytest.raises(cl.LogicError, match="no kernel_exec_info"):
        cl.set_kernel_exec_info(knl, 12345, None)


# }}}


def test_buf_keeps_memory_and_finds_its_allocation(svm_ctx):
    ctx, queue = svm_ctx
    if not has_fine(ctx.devices[0]):
        pytest.skip("%s has no fine-grain SVM (direct host access)" % ctx.devices[0].name)
    a = cl.SVMAllocation(ctx, 4096, 0, FINE, queue)
    view = a.buf
    assert view.shape == (4096,) and view.ctypes.data == a.svm_ptr
    tag = cl.SVM(view[100:200])
    assert tag.svm_ptr == a.svm_ptr + 100
    model = host_data(4096, 13)
    view[:] = model
    del a  # the view keeps the memory: no queued free yet
    gc.collect()
    others = [cl.SVMAllocation(ctx, 4096, 0, FINE, queue) for _ in range(16)]
    for other in others:
        cl.enqueue_svm_memfill(queue, other, np.uint8(0xEE))
    queue.finish()
    np.testing.assert_array_equal(view, model)
    b = cl.SVMAllocation(ctx, 64, 0, FINE, queue)
    tag = cl.SVM(b.buf)
    b.release()
    with pytest.raises(cl.LogicError, match="was released"):
        cl.enqueue_svm_memfill(queue, tag, np.uint8(1))
