"""MemoryObject and Buffer: creation, flags, host pointers, info, lifetimes,
sub-buffers. Every test runs on every device; contents are compared with a
numpy model."""

import gc
import weakref

import numpy as np
import pytest
from bufutil import align_of, read_all

import pycl as cl
from pycl.testing import require_kernel_compiler

mf = cl.mem_flags


def test_create_and_cached_info(cq):
    ctx, queue = cq
    buf = cl.Buffer(ctx, mf.READ_ONLY, 100)
    assert buf.size == 100 == buf.get_info(cl.mem_info.SIZE)
    assert buf.flags == mf.READ_ONLY == buf.get_info(cl.mem_info.FLAGS)
    assert buf.type == cl.mem_object_type.BUFFER == buf.get_info(cl.mem_info.TYPE)
    assert buf.context == ctx and buf.get_info(cl.mem_info.CONTEXT) == ctx
    assert buf.offset == 0 and buf.associated_memobject is None
    assert buf.reference_count >= 1 and buf.map_count == 0
    assert buf.hostbuf is None and buf.nbytes == 100
    # default flags: OpenCL's READ_WRITE, as the driver reports it
    plain = cl.Buffer(ctx, 0, 8)
    assert plain.flags == mf.READ_WRITE == plain.get_info(cl.mem_info.FLAGS)


def test_int_ptr_round_trip_eq_hash(cq):
    ctx, _ = cq
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    other = cl.Buffer.from_int_ptr(buf.int_ptr)
    assert other == buf and hash(other) == hash(buf) and other is not buf
    assert other.size == 64 and other.flags == buf.flags and other.context == ctx
    generic = cl.MemoryObject.from_int_ptr(buf.int_ptr)
    assert generic == buf and generic.size == 64
    assert buf != cl.Buffer(ctx, mf.READ_WRITE, 64)
    # ownership transfer: retain, then hand over without retain
    from pycl._lib import lib

    lib.pycl_mem_retain(buf._live())
    owned = cl.Buffer.from_int_ptr(buf.int_ptr, retain=False)
    count = buf.reference_count
    owned.release()
    assert buf.reference_count == count - 1


def test_release_refuses_every_use(cq):
    ctx, queue = cq
    buf = cl.Buffer(ctx, mf.READ_WRITE, 256)
    buf.release()
    host = np.zeros(4, np.uint8)
    uses = [
        lambda: buf.size,
        lambda: buf.flags,
        lambda: buf.type,
        lambda: buf.context,
        lambda: buf.hostbuf,
        lambda: buf.int_ptr,
        lambda: buf.reference_count,
        lambda: buf.get_info(cl.mem_info.SIZE),
        lambda: buf[0:128],
        lambda: buf.get_sub_region(0, 128),
        lambda: cl.enqueue_copy(queue, host, buf),
        lambda: cl.enqueue_copy(queue, buf, host),
        lambda: cl.enqueue_copy(queue, buf, buf),
        lambda: cl.enqueue_fill_buffer(queue, buf, np.uint8(0), 0, 4),
        lambda: cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, (4,), np.uint8),
        lambda: cl.enqueue_migrate_mem_objects(queue, [buf]),
        lambda: buf.release(),
    ]
    for use in uses:
        with pytest.raises(cl.LogicError, match="released"):
            use()
    assert "released" in repr(buf)


def test_with_statement_and_double_release(cq):
    ctx, _ = cq
    with cl.Buffer(ctx, mf.READ_WRITE, 16) as buf:
        assert buf.size == 16
    with pytest.raises(cl.LogicError):
        buf.release()
    with cl.Buffer(ctx, mf.READ_WRITE, 16) as buf2:
        buf2.release()  # __exit__ after an explicit release does nothing


def test_kernel_arg(cq, device):
    ctx, queue = cq
    require_kernel_compiler(device)
    prg = cl.Program(ctx, "__kernel void twice(__global int *a) { a[get_global_id(0)] *= 2; }").build()
    a = np.arange(16, dtype=np.int32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
    sub = buf[0 : align_of(ctx)]
    prg.twice(queue, (sub.size // 4,), None, sub)
    prg.twice(queue, (16,), None, buf)
    expected = a * 2
    expected[: sub.size // 4] *= 2
    np.testing.assert_array_equal(read_all(queue, buf).view(np.int32), expected)
    knl = prg.twice
    knl.set_arg(0, buf)
    buf.release()
    with pytest.raises(cl.LogicError, match="released"):
        cl.enqueue_nd_range_kernel(queue, knl, (16,), None)
    with pytest.raises(cl.LogicError, match="released"):
        knl.set_arg(0, buf)


@pytest.mark.parametrize(
    "flags, why",
    [
        (mf.READ_ONLY | mf.WRITE_ONLY, "combine mutually exclusive flags"),
        (mf.READ_WRITE | mf.READ_ONLY, "combine mutually exclusive flags"),
        (mf.HOST_READ_ONLY | mf.HOST_NO_ACCESS, "combine mutually exclusive flags"),
        (mf.USE_HOST_PTR | mf.COPY_HOST_PTR, "USE_HOST_PTR excludes ALLOC_HOST_PTR and COPY_HOST_PTR"),
        (mf.USE_HOST_PTR | mf.ALLOC_HOST_PTR, "USE_HOST_PTR excludes ALLOC_HOST_PTR and COPY_HOST_PTR"),
        (1 << 40, "holds bits that are no mem_flags"),
    ],
)
def test_invalid_flags(cq, flags, why):
    ctx, _ = cq
    with pytest.raises(cl.LogicError, match=why) as info:
        cl.Buffer(ctx, flags, 64, hostbuf=np.zeros(64, np.uint8) if flags & mf.USE_HOST_PTR else None)
    assert info.value.routine == "Buffer"  # refused by pycl, before the driver


def test_invalid_creation(cq):
    ctx, _ = cq
    with pytest.raises(cl.LogicError) as info:
        cl.Buffer(ctx, mf.READ_WRITE, 0)
    assert info.value.code == cl.status_code.INVALID_BUFFER_SIZE
    with pytest.raises(cl.LogicError, match="size = -1"):
        cl.Buffer(ctx, mf.READ_WRITE, -1)
    with pytest.raises(TypeError, match="size"):
        cl.Buffer(ctx, mf.READ_WRITE, 1.5)
    with pytest.raises(TypeError, match="flags"):
        cl.Buffer(ctx, "rw", 8)
    with pytest.raises(cl.LogicError, match="need a hostbuf"):
        cl.Buffer(ctx, mf.COPY_HOST_PTR, 8)
    with pytest.raises(cl.LogicError, match="neither USE_HOST_PTR nor COPY_HOST_PTR"):
        cl.Buffer(ctx, mf.READ_WRITE, hostbuf=np.zeros(4))
    with pytest.raises(cl.LogicError, match="larger than hostbuf"):
        cl.Buffer(ctx, mf.COPY_HOST_PTR, 100, hostbuf=np.zeros(4))
    with pytest.raises(cl.LogicError, match="empty"):
        cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=np.zeros(0))
    with pytest.raises(TypeError, match="ascontiguousarray"):
        cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=np.zeros((4, 4))[:, ::2])
    readonly = np.zeros(4)
    readonly.flags.writeable = False
    with pytest.raises(cl.LogicError, match="read-only"):
        cl.Buffer(ctx, mf.USE_HOST_PTR, hostbuf=readonly)
    cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=readonly)  # COPY only reads it


def test_host_pointer_flags(cq):
    ctx, queue = cq
    data = np.arange(64, dtype=np.uint8)
    # COPY_HOST_PTR copies at creation: later host changes do not reach it
    host = data.copy()
    copied = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
    host[:] = 0
    np.testing.assert_array_equal(read_all(queue, copied), data)
    assert copied.hostbuf is None
    # size smaller than hostbuf takes the prefix
    prefix = cl.Buffer(ctx, mf.COPY_HOST_PTR, 16, hostbuf=data)
    np.testing.assert_array_equal(read_all(queue, prefix), data[:16])
    # USE_HOST_PTR keeps the host object alive and shares it
    used_host = data.copy()
    ref = weakref.ref(used_host)
    used = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=used_host)
    assert used.hostbuf is used_host
    del used_host
    gc.collect()
    assert ref() is not None
    cl.enqueue_fill_buffer(queue, used, np.uint8(7), 0, 64)
    queue.finish()
    view = used.get_host_array((64,), np.uint8)
    assert view.base is used
    with cl.enqueue_map_buffer(queue, used, cl.map_flags.READ, 0, 64, np.uint8)[0].base:
        pass  # a map synchronizes the host memory of USE_HOST_PTR buffers
    np.testing.assert_array_equal(ref(), np.full(64, 7, np.uint8))
    with pytest.raises(cl.LogicError, match="needs 65 bytes"):
        used.get_host_array((65,), np.uint8)
    with pytest.raises(cl.LogicError, match="only a memory object made with USE_HOST_PTR"):
        copied.get_host_array((4,), np.uint8)
    # ALLOC_HOST_PTR: ordinary use; get_host_array refuses it, as PyOpenCL does
    alloc = cl.Buffer(ctx, mf.ALLOC_HOST_PTR, 64)
    cl.enqueue_copy(queue, alloc, data)
    np.testing.assert_array_equal(read_all(queue, alloc), data)
    with pytest.raises(cl.LogicError, match="USE_HOST_PTR"):
        alloc.get_host_array((4,), np.uint8)
    # The array alone keeps the buffer alive (its .base is the buffer).
    floats = used.get_host_array((4, 4), np.float32, order="F")
    assert floats.base is used and floats.strides == (4, 16)
    buffer_ref = weakref.ref(used)
    del used, view
    gc.collect()
    assert buffer_ref() is floats.base
    np.testing.assert_array_equal(floats.ravel(order="F"), np.full(64, 7, np.uint8).view(np.float32))
    del floats
    for _ in range(4):  # PyPy frees what numpy's C code (cpyext) held only after a few passes
        gc.collect()
    assert buffer_ref() is None


# {{{ sub-buffers


def test_sub_buffers(cq):
    ctx, queue = cq
    align = align_of(ctx)
    size = 4 * align
    model = np.random.default_rng(3).integers(0, 256, size, dtype=np.uint8)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=model)
    sub = buf[align : 3 * align]
    assert sub.size == 2 * align and sub.offset == align
    assert sub.get_info(cl.mem_info.OFFSET) == align
    assert sub.associated_memobject == buf
    np.testing.assert_array_equal(read_all(queue, sub), model[align : 3 * align])
    # writes through the sub-buffer land in the parent
    cl.enqueue_copy(queue, sub, np.full(8, 9, np.uint8), dst_offset=4)
    model[align + 4 : align + 12] = 9
    np.testing.assert_array_equal(read_all(queue, buf), model)
    # negative slice bounds like Python's
    tail = buf[-align:]
    assert tail.offset == 3 * align and tail.size == align
    region = buf.get_sub_region(2 * align, 8)
    np.testing.assert_array_equal(read_all(queue, region), model[2 * align : 2 * align + 8])


def test_slices_as_python_slices_them(cq):
    """Every slice shape, the common one (plain non-negative ints, no step)
    and those slice.indices resolves, gives the bytes Python's slicing of
    the model gives; the invalid ones raise the same errors either way."""
    ctx, queue = cq
    align = align_of(ctx)
    size = 4 * align
    model = np.random.default_rng(5).integers(0, 256, size, dtype=np.uint8)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=model)
    shapes = [
        slice(0, align),
        slice(align, size),
        slice(0, size),
        slice(align, 10 * size),  # past the end: clamped, as Python does
        slice(-align, None),
        slice(None, align),
        slice(align, -align),
        slice(np.int64(align), np.int64(2 * align)),
        slice(0, align, 1),
    ]
    for slc in shapes:
        start, stop, _ = slc.indices(size)
        if start % align:
            with pytest.raises(cl.LogicError, match="mem_base_addr_align"):
                buf[slc]
            continue
        sub = buf[slc]
        assert (sub.offset, sub.size) == (start, stop - start), slc
        np.testing.assert_array_equal(read_all(queue, sub), model[slc])
        sub.release()
    for slc, message in (
        (slice(align, align), "empty"),
        (slice(2 * align, align), "empty"),
        (slice(0, align, 2), "step 1"),
    ):
        with pytest.raises(cl.LogicError, match=message):
            buf[slc]
    buf.release()
    with pytest.raises(cl.LogicError, match="was released"):
        buf[0:align]


def test_nested_sub_buffers_resolve_to_the_root(cq):
    ctx, queue = cq
    align = align_of(ctx)
    model = np.arange(4 * align, dtype=np.uint32).view(np.uint8)[: 4 * align].copy()
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=model)
    outer = buf[align:]
    inner = outer[align : 2 * align]
    assert inner.offset == 2 * align  # in the root: OpenCL has no nested sub-buffers
    assert inner.associated_memobject == buf
    np.testing.assert_array_equal(read_all(queue, inner), model[2 * align : 3 * align])
    with pytest.raises(cl.LogicError, match="mem_base_addr_align"):
        outer[1:]


def test_misaligned_sub_buffer(cq):
    ctx, _ = cq
    align = align_of(ctx)
    buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * align)
    with pytest.raises(cl.LogicError) as info:
        buf[align // 2 : align]
    assert info.value.code == cl.status_code.MISALIGNED_SUB_BUFFER_OFFSET
    assert "mem_base_addr_align" in str(info.value) and str(align) in str(info.value)


def test_sub_buffer_flags(cq):
    ctx, queue = cq
    align = align_of(ctx)
    host = np.zeros(2 * align, np.uint8)
    parent = cl.Buffer(ctx, mf.READ_ONLY | mf.USE_HOST_PTR | mf.HOST_READ_ONLY, hostbuf=host)
    sub = parent[0:align]  # PyOpenCL passes USE_HOST_PTR on and fails
    assert sub.flags & (mf.READ_ONLY | mf.HOST_READ_ONLY) == mf.READ_ONLY | mf.HOST_READ_ONLY
    driver_flags = sub.get_info(cl.mem_info.FLAGS)
    assert driver_flags & (mf.READ_ONLY | mf.HOST_READ_ONLY) == mf.READ_ONLY | mf.HOST_READ_ONLY
    with pytest.raises(cl.LogicError, match="host-pointer flags"):
        parent.get_sub_region(0, align, mf.USE_HOST_PTR)
    with pytest.raises(cl.LogicError, match="conflict"):
        parent.get_sub_region(0, align, mf.WRITE_ONLY)
    with pytest.raises(cl.LogicError, match="conflict"):
        parent.get_sub_region(0, align, mf.READ_WRITE)
    with pytest.raises(cl.LogicError, match="conflict"):
        parent.get_sub_region(0, align, mf.HOST_WRITE_ONLY)
    # the host-access flags are enforced on the sub-buffer too
    with pytest.raises(cl.LogicError, match="HOST_READ_ONLY"):
        cl.enqueue_copy(queue, sub, np.zeros(4, np.uint8))


def test_sub_buffer_argument_errors(cq):
    ctx, _ = cq
    align = align_of(ctx)
    buf = cl.Buffer(ctx, mf.READ_WRITE, 2 * align)
    with pytest.raises(TypeError, match="slice"):
        buf[3]
    with pytest.raises(cl.LogicError, match="step 1"):
        buf[0:align:2]
    with pytest.raises(cl.LogicError, match="empty"):
        buf[align:align]
    with pytest.raises(cl.LogicError, match="past the end"):
        buf.get_sub_region(align, 2 * align)
    with pytest.raises(cl.LogicError, match="origin = -1"):
        buf.get_sub_region(-1, 4)
    with pytest.raises(cl.LogicError, match="size must be positive"):
        buf.get_sub_region(0, 0)
    with pytest.raises(TypeError, match="origin"):
        buf.get_sub_region(0.0, 4)


def test_fast_paths_refuse_what_the_general_path_refuses(cq):
    """Buffer() and sub-buffers remember flags they found valid; once they
    have, every refusal must still happen (the common case's short cut
    checks the same as the full path)."""
    ctx, _ = cq
    align = align_of(ctx)
    rw = mf.READ_WRITE
    cl.Buffer(ctx, rw, 64).release()  # rw is known now
    with pytest.raises(TypeError, match="flags"):
        cl.Buffer(ctx, True, 64)  # equal to READ_WRITE and hashes alike, but a bool
    with pytest.raises(cl.LogicError, match="size = -1"):
        cl.Buffer(ctx, rw, -1)
    with pytest.raises(cl.LogicError, match="exceeds"):
        cl.Buffer(ctx, rw, 1 << 64)
    with pytest.raises(TypeError, match="size"):
        cl.Buffer(ctx, rw, 64.0)
    assert cl.Buffer(ctx, np.uint64(rw), 64).flags == rw
    parent = cl.Buffer(ctx, rw, 4 * align)
    parent[0:align].release()  # (flags, parent flags) and the alignments are known now
    with pytest.raises(cl.LogicError) as info:
        parent[align // 2 : align]
    assert info.value.code == cl.status_code.MISALIGNED_SUB_BUFFER_OFFSET
    with pytest.raises(cl.LogicError, match="past the end"):
        parent.get_sub_region(align, 4 * align)
    with pytest.raises(TypeError, match="origin"):
        parent.get_sub_region(np.float64(0), align)
    with pytest.raises(TypeError, match="flags"):
        parent.get_sub_region(0, align, True)
    sub = parent[align : 3 * align]
    middle = sub[0:align]  # a sub-buffer of the root at 2 * align
    assert middle.offset == align and middle._origin == align
    parent.release()
    with pytest.raises(cl.LogicError, match="released"):
        sub[0:align]  # the root was released
    with pytest.raises(cl.LogicError, match="released"):
        parent[0:align]


# }}}


HOST_MISTAKES = {
    "read-only for USE_HOST_PTR": lambda: np.frombuffer(bytes(64), np.uint8),
    "larger size": lambda: np.zeros(32, np.uint8),
    "empty": lambda: np.zeros(0, np.uint8),
    "objects": lambda: np.array([object()] * 8),
    "strided": lambda: np.zeros(128, np.uint8)[::2],
    "not a buffer": lambda: [0] * 64,
}


@pytest.mark.parametrize("flags", [mf.READ_ONLY | mf.COPY_HOST_PTR, mf.READ_WRITE | mf.USE_HOST_PTR])
@pytest.mark.parametrize("mistake", sorted(HOST_MISTAKES))
def test_host_buffer_fast_path_refuses_what_the_general_path_refuses(cq, monkeypatch, flags, mistake):
    """Buffer() with a hostbuf remembers the flags it found valid; after
    that, each hostbuf mistake gets the general path's exception and
    message, and a valid hostbuf the same buffer."""
    import pycl.memory

    ctx, queue = cq
    outcomes = []
    for learned in (False, True):
        monkeypatch.setattr(pycl.memory, "_checked_host_flags", {})
        if learned:
            cl.Buffer(ctx, flags, hostbuf=np.zeros(64, np.uint8)).release()
            assert pycl.memory._checked_host_flags
        try:
            cl.Buffer(ctx, flags, 64, hostbuf=HOST_MISTAKES[mistake]())
            outcomes.append("made")
        except Exception as error:  # noqa: BLE001  (any exception must match)
            outcomes.append((type(error), str(error)))
    assert outcomes[0] == outcomes[1]
    # a valid hostbuf through the fast path: its bytes, and size from it
    host = np.arange(48, dtype=np.uint8)
    buf = cl.Buffer(ctx, flags, hostbuf=host)
    assert buf.size == 48 and read_all(queue, buf).tobytes() == host.tobytes()
    assert (buf.hostbuf is host) == bool(flags & mf.USE_HOST_PTR)
    assert cl.Buffer(ctx, flags, 16, hostbuf=host).size == 16


def test_associated_memobject_of_from_int_ptr_sub_buffer(cq):
    ctx, queue = cq
    align = align_of(ctx)
    buf = cl.Buffer(ctx, mf.READ_WRITE, 3 * align)
    sub = buf[align : 2 * align]
    again = cl.Buffer.from_int_ptr(sub.int_ptr)
    assert again.offset == align and again._root_ptr == buf.int_ptr
    # overlap checks see through the re-wrapped sub-buffer
    with pytest.raises(cl.LogicError, match="overlap"):
        cl.enqueue_copy(queue, buf, again, dst_offset=align + 4, byte_count=8)
