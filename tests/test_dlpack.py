"""DLPack export of host-visible memory: buffer maps (MemoryMap) and
fine-grain SVM allocations, checked with numpy.from_dlpack on every device."""

import gc
import weakref

import numpy as np
import pytest

import pycl as cl

mf = cl.mem_flags
MAP = cl.map_flags
FINE = cl.svm_mem_flags.READ_WRITE | cl.svm_mem_flags.SVM_FINE_GRAIN_BUFFER
COARSE = cl.svm_mem_flags.READ_WRITE
DL_CPU = (1, 0)

pytestmark = pytest.mark.skipif(not hasattr(np, "from_dlpack"), reason="numpy %s has no from_dlpack" % np.__version__)


def svm_caps(device):
    return device.svm_capabilities if device.cl_version >= (2, 0) else 0


# numpy < 2.1 (PyPy's 2.0.2) marks what from_dlpack imports read-only: the
# legacy DLPack capsule cannot say whether the memory is.
WRITABLE_IMPORTS = tuple(int(part) for part in np.__version__.split(".")[:2]) >= (2, 1)


class _Writable:
    def __init__(self, view):
        self.view = view
        self.__array_interface__ = dict(view.__array_interface__, data=(view.__array_interface__["data"][0], False))


def writable(view):
    """``view`` itself where numpy imports DLPack writable; else a writable
    array over the very pointer the DLPack capsule carried."""
    assert view.flags.writeable == WRITABLE_IMPORTS
    return view if WRITABLE_IMPORTS else np.asarray(_Writable(view))


def collect():
    # PyPy frees objects that numpy's C code (cpyext) held only after a few passes.
    for _ in range(4):
        gc.collect()


def read(queue, buf, dtype, count):
    out = np.empty(count, dtype)
    cl.enqueue_copy(queue, out, buf)
    return out


# {{{ MemoryMap


def test_map_exports_shared_memory(cq):
    ctx, queue = cq
    model = np.arange(256, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=model)
    ary, _ = cl.enqueue_map_buffer(queue, buf, MAP.READ | MAP.WRITE, 64, (8, 16), np.float32)
    memory_map = ary.base
    assert memory_map.__dlpack_device__() == DL_CPU
    view = np.from_dlpack(memory_map)
    assert view.shape == (8, 16) and view.dtype == np.float32
    assert np.shares_memory(view, ary)
    np.testing.assert_array_equal(view, model[16:144].reshape(8, 16))
    writable(view)[2] = -1  # written through the DLPack view ...
    model[16 + 32 : 16 + 48] = -1
    memory_map.release()
    np.testing.assert_array_equal(read(queue, buf, np.float32, 256), model)  # ... read back by pycl


def test_map_kept_alive_by_the_dlpack_view(cq):
    ctx, queue = cq
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    cl.enqueue_fill(queue, buf, np.uint32(7), 64)
    ary, _ = cl.enqueue_map_buffer(queue, buf, MAP.READ | MAP.WRITE, 0, 16, np.uint32)
    view = np.from_dlpack(ary.base)
    alive = weakref.ref(ary.base)
    del ary
    collect()
    assert alive() is not None, "the DLPack view must keep the MemoryMap (and the map) alive"
    assert (view == 7).all()
    writable(view)[::2] = 9
    del view
    collect()
    assert alive() is None  # collected: the shim unmapped it, queued after the map
    assert read(queue, buf, np.uint32, 16).tolist() == [9, 7] * 8


def test_released_map_refuses_export(cq):
    ctx, queue = cq
    buf = cl.Buffer(ctx, mf.READ_WRITE, 16)
    ary, _ = cl.enqueue_map_buffer(queue, buf, MAP.READ, 0, 4, np.uint32)
    ary.base.release()
    with pytest.raises(cl.LogicError, match="released"):
        np.from_dlpack(ary.base)


# }}}


# {{{ SVM


def test_fine_grain_svm_exports_shared_memory(cq):
    ctx, queue = cq
    device = queue.device
    if not svm_caps(device) & cl.device_svm_capabilities.FINE_GRAIN_BUFFER:
        pytest.skip("%s has no fine-grain SVM" % device.name)
    ary = cl.fsvm_empty(ctx, (4, 8), np.int32, queue=queue)
    alloc = ary.base
    assert isinstance(alloc, cl.SVMAllocation)
    assert alloc.__dlpack_device__() == DL_CPU
    view = np.from_dlpack(alloc)
    assert view.shape == (4, 8) and view.dtype == np.int32  # the allocation's array layout
    assert np.shares_memory(view, ary)
    writable(view)[...] = np.arange(32).reshape(4, 8)  # written through the DLPack view ...
    out = np.empty((4, 8), np.int32)
    cl.enqueue_copy(queue, out, cl.SVM(ary))  # ... read back by pycl
    np.testing.assert_array_equal(out, np.arange(32).reshape(4, 8))

    # An SVMAllocation made directly exports its bytes, and the view keeps it alive.
    alloc = cl.SVMAllocation(ctx, 64, 0, FINE, queue=queue)
    cl.enqueue_svm_memfill(queue, cl.SVM(alloc.buf), np.uint8(3))
    queue.finish()
    view = np.from_dlpack(alloc)
    assert view.shape == (64,) and view.dtype == np.uint8 and (view == 3).all()
    alive = weakref.ref(alloc)
    del alloc
    collect()
    assert alive() is not None, "the DLPack view must keep the SVMAllocation alive"
    writable(view)[:10] = 200
    out = np.empty(64, np.uint8)
    cl.enqueue_copy(queue, out, cl.SVM(view))
    assert out.tolist() == [200] * 10 + [3] * 54


def test_coarse_grain_svm_needs_a_map(cq):
    ctx, queue = cq
    device = queue.device
    if not svm_caps(device) & cl.device_svm_capabilities.COARSE_GRAIN_BUFFER:
        pytest.skip("%s has no SVM" % device.name)
    alloc = cl.SVMAllocation(ctx, 64, 0, COARSE, queue=queue)
    with pytest.raises(BufferError, match="coarse-grain SVM.*map"):
        np.from_dlpack(alloc)
    with pytest.raises(BufferError, match="coarse-grain"):
        alloc.__dlpack_device__()
    # The map's array is host-visible and exports.
    with alloc.map_rw(queue) as ary:
        ary[:] = 5
        assert (np.from_dlpack(ary) == 5).all()
    alloc.release()
    with pytest.raises(cl.LogicError, match="released"):
        alloc.__dlpack__()


# }}}
