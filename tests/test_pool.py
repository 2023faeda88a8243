"""MemoryPool: bins, counters, pooled buffers in every operation, threads, OOM."""

import gc
import threading
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import pycl as cl
import pycl.characterize
from pycl import pool as pool_module
from pycl.allocator import DeferredAllocator, ImmediateAllocator
from pycl.pool import MemoryPool, PooledBuffer
from pycl.testing import get_test_platforms_and_devices, require_kernel_compiler


def reference_bin(size, bits):
    """An independent model of the bin scheme: the exponent, then the
    ``bits`` bits after the leading one (sizes below 2**bits: shifted up)."""
    if size == 0:
        return 0
    exponent = size.bit_length() - 1
    text = bin(size)[3:] + "0" * bits
    return exponent << bits | int(text[:bits] or "0", 2)


def reference_alloc_size(bin_nr, bits):
    exponent, mantissa = bin_nr >> bits, bin_nr & ((1 << bits) - 1)
    sizes = [n for n in range(1 << exponent, 1 << (exponent + 1))] if exponent < 20 else None
    if sizes is None:
        # Largest size whose leading bits are (1, mantissa): those bits, then all ones.
        if exponent >= bits:
            return ((1 << bits | mantissa) << (exponent - bits)) | ((1 << (exponent - bits)) - 1)
        return (1 << bits | mantissa) >> (bits - exponent)
    return max(n for n in sizes if reference_bin(n, bits) == bin_nr)


@given(st.integers(0, 1 << 18), st.integers(0, 8))
def test_bins_match_model(size, bits):
    bin_nr = pool_module.bin_number(size, bits)
    assert bin_nr == reference_bin(size, bits)
    if size:
        assert pool_module.alloc_size(bin_nr, bits) == reference_alloc_size(bin_nr, bits)


@given(st.integers(0, 1 << 40), st.integers(0, 12))
def test_alloc_size_covers_request_and_bins_are_monotone(size, bits):
    bin_nr = pool_module.bin_number(size, bits)
    assert pool_module.alloc_size(bin_nr, bits) >= size
    assert pool_module.bin_number(size + 1, bits) >= bin_nr
    assert pool_module.bin_number(pool_module.alloc_size(bin_nr, bits), bits) == bin_nr


def test_documented_rounding():
    # PyOpenCL's documentation: with four leading bits, 1024 rounds to 1087.
    assert pool_module.alloc_size(pool_module.bin_number(1024)) == 1087


def test_bins_match_pyopencl():
    pyopencl = pytest.importorskip("pyopencl")
    if not hasattr(pyopencl, "Buffer"):
        pytest.skip("pyopencl is only the empty namespace of the pip device wheels")
    import pyopencl.tools

    device = pyopencl.get_platforms()[0].get_devices()[0]
    queue = pyopencl.CommandQueue(pyopencl.Context([device]))
    for bits in (2, 4, 6):
        theirs = pyopencl.tools.MemoryPool(pyopencl.tools.ImmediateAllocator(queue), leading_bits_in_bin_id=bits)
        for size in list(range(0, 300)) + [1000, 1023, 1024, 1025, 4096, 10**6, 2**31 + 5]:
            assert pool_module.bin_number(size, bits) == theirs.bin_number(size)
            assert pool_module.alloc_size(theirs.bin_number(size), bits) == theirs.alloc_size(theirs.bin_number(size))


@pytest.fixture
def queue(ctx_factory):
    return cl.CommandQueue(ctx_factory())


def test_pooled_buffer_everywhere(queue):
    pool = MemoryPool(ImmediateAllocator(queue))
    ctx = queue.context
    host = np.arange(1000, dtype=np.uint8)
    a = pool.allocate(1000)
    assert isinstance(a, cl.Buffer) and isinstance(a, PooledBuffer)
    assert a.size == 1000 and a.get_info(cl.mem_info.SIZE) == pool.alloc_size(pool.bin_number(1000))
    assert (pool.active_blocks, pool.active_bytes, pool.managed_bytes) == (1, 1000, 1023)
    cl.enqueue_copy(queue, a, host)
    b = pool(1000)
    cl.enqueue_copy(queue, b, a)  # buffer -> buffer copies the requested 1000 bytes
    cl.enqueue_fill_buffer(queue, b, np.uint8(7), 0, 8)
    model = host.copy()
    model[:8] = 7
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, b)
    np.testing.assert_array_equal(out, model)
    align = max(1, queue.device.mem_base_addr_align // 8)
    if align < 1000:
        sub = b[align : min(1000, 2 * align)]
        part = np.empty(sub.size, np.uint8)
        cl.enqueue_copy(queue, part, sub)
        np.testing.assert_array_equal(part, model[align : align + sub.size])
    mapped, event = cl.enqueue_map_buffer(queue, a, cl.map_flags.READ, 0, (1000,), np.uint8)
    np.testing.assert_array_equal(mapped, host)
    mapped.base.release()
    c = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 1000)
    cl.enqueue_copy(queue, c, b)
    assert a != b and hash(a) != hash(b) or a.int_ptr != b.int_ptr


def test_pooled_buffer_in_kernel(queue):
    require_kernel_compiler(queue.device)
    program = cl.Program(queue.context, "__kernel void inc(__global int *x) { x[get_global_id(0)] += 1; }")
    program.build()
    pool = MemoryPool(ImmediateAllocator(queue))
    buf = pool.allocate(4 * 64)
    host = np.arange(64, dtype=np.int32)
    cl.enqueue_copy(queue, buf, host)
    inc = program.inc  # one kernel: each retrieval is a new one
    inc(queue, (64,), None, buf)
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, host + 1)
    buf.release()
    with pytest.raises(cl.LogicError, match="kernel argument 0 .* was released"):
        cl.enqueue_nd_range_kernel(queue, inc, (64,), None)


def test_release_and_collection_return_blocks(queue):
    pool = MemoryPool(ImmediateAllocator(queue))
    a = pool.allocate(100)
    handle = a.int_ptr
    a.release()
    with pytest.raises(cl.LogicError, match="was released"):
        a.release()
    with pytest.raises(cl.LogicError):
        a.size
    with pytest.raises(cl.LogicError):
        cl.enqueue_copy(queue, a, np.zeros(10, np.uint8))
    assert (pool.held_blocks, pool.active_blocks) == (1, 0)
    b = pool.allocate(101)  # same bin: the held block comes back
    assert b.int_ptr == handle and pool.held_blocks == 0
    del b
    gc.collect()
    assert (pool.held_blocks, pool.active_blocks, pool.active_bytes) == (1, 0, 0)
    pool.stop_holding()
    assert pool.held_blocks == 0 and pool.managed_bytes == 0
    c = pool.allocate(100)
    c.release()
    assert pool.held_blocks == 0 and pool.managed_bytes == 0


def test_blocks_outlive_their_pool(queue):
    """The shim's pool lives until its last handed-out block comes back: a
    pool dropped while a block is in use leaves the block usable, and the
    block's release (or collection) then frees it and the held ones."""
    pool = MemoryPool(ImmediateAllocator(queue))
    a = pool.allocate(1000)
    pool.allocate(1000).release()  # one block held
    dropped = pool.allocate(500)  # one returned by collection after the pool is gone
    host = np.arange(1000, dtype=np.uint8)
    cl.enqueue_copy(queue, a, host)
    del pool
    gc.collect()
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, a)
    np.testing.assert_array_equal(out, host)
    del dropped
    gc.collect()
    a.release()


def test_deferred_allocator_warns_and_allocators_check(ctx_factory):
    ctx = ctx_factory()
    with pytest.warns(UserWarning, match="DeferredAllocator"):
        MemoryPool(DeferredAllocator(ctx))
    assert DeferredAllocator(ctx)(0) is None
    queue = cl.CommandQueue(ctx)
    assert ImmediateAllocator(queue)(0) is None
    assert ImmediateAllocator(queue)(10).size == 10
    with pytest.raises(cl.LogicError, match="need a host buffer"):
        DeferredAllocator(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR)
    with pytest.raises(cl.LogicError, match="need a host buffer"):
        ImmediateAllocator(queue, cl.mem_flags.COPY_HOST_PTR)
    with pytest.raises(TypeError):
        MemoryPool(ImmediateAllocator(queue), 4)  # leading_bits_in_bin_id is keyword-only


def test_max_bytes_frees_held_then_raises(queue):
    pool = MemoryPool(ImmediateAllocator(queue), max_bytes=4096)
    a = pool.allocate(2000)  # 2047 bytes in its bin
    b = pool.allocate(1000)  # 1023
    b.release()
    assert pool.held_blocks == 1
    c = pool.allocate(2000)  # needs the held block's bytes: freed first
    assert pool.held_blocks == 0 and pool.managed_bytes == 4094
    with pytest.raises(cl.MemoryError) as info:
        pool.allocate(3)  # 3 bytes: one past the limit
    message = str(info.value)
    assert "3 bytes requested" in message and "max_bytes = 4096" in message
    assert "4094 bytes active in 2 blocks and 0 bytes held" in message
    assert isinstance(info.value, MemoryError)
    del a, c
    gc.collect()
    pool.free_held()
    assert pool.managed_bytes == 0 and pool.active_blocks == 0


def test_oom_ladder_frees_held_blocks(queue, monkeypatch):
    """An allocator that fails while the pool holds memory: the ladder frees
    held blocks and retries; with nothing left to free, MemoryError."""
    pool = MemoryPool(ImmediateAllocator(queue))
    capacity = {"bytes": 3000}
    real = pool._allocate_block

    def limited(nbytes):
        # The device's memory, as far as this pool goes: what it manages.
        if pool.managed_bytes + nbytes > capacity["bytes"]:
            raise cl.MemoryError("clCreateBuffer", cl.status_code.MEM_OBJECT_ALLOCATION_FAILURE, "test limit")
        return real(nbytes)

    monkeypatch.setattr(pool, "_allocate_block", limited)
    held = [pool.allocate(1000) for _ in range(2)]
    for b in held:
        b.release()
    assert pool.held_blocks == 2
    big = pool.allocate(2000)  # fails, retries after freeing the held blocks
    assert pool.stats()["oom_retries"] == 1 and pool.held_blocks == 0
    with pytest.raises(cl.MemoryError, match="cannot allocate 2047 bytes .2000 requested. even after freeing"):
        pool.allocate(2000)
    big.release()
    pool.free_held()
    assert pool.managed_bytes == 0


def test_threads_share_a_pool(queue):
    if queue.device.platform.name == "Oclgrind":
        pytest.skip("Oclgrind 21.10 crashes under concurrent OpenCL calls from several threads (docs/quirks.md)")
    # A DeferredAllocator: the pool's own thread safety is under test, and an
    # ImmediateAllocator's concurrent enqueues crash the pip PoCL 3.0
    # (docs/quirks.md).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pool = MemoryPool(DeferredAllocator(queue.context))
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        try:
            for _ in range(200):
                buf = pool.allocate(int(rng.integers(1, 5000)))
                if rng.random() < 0.5:
                    buf.release()
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    gc.collect()
    assert not errors
    stats = pool.stats()
    assert stats["active_blocks"] == 0 and stats["active_bytes"] == 0
    assert stats["allocations"] == 800
    assert stats["held_blocks"] == pool._count_held()
    pool.free_held()
    assert pool.managed_bytes == 0


def _first_device():
    for _, devices in get_test_platforms_and_devices():
        if devices:
            return devices[0]
    pytest.skip("no OpenCL device")


class PoolMachine(RuleBasedStateMachine):
    """Random allocate/release/free_held/stop_holding/trim against a model."""

    @initialize(bits=st.integers(1, 6))
    def setup(self, bits):
        device = _first_device()
        self.queue = cl.CommandQueue(cl.Context([device]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.pool = MemoryPool(DeferredAllocator(self.queue.context), leading_bits_in_bin_id=bits)
        self.bits = bits
        self.active = []  # (buffer, requested, alloc size)
        self.held = {}  # bin -> count
        self.holding = True

    def size_of(self, bin_nr):
        return reference_alloc_size(bin_nr, self.bits)

    @rule(size=st.integers(0, 70000))
    def allocate(self, size):
        bin_nr = reference_bin(size, self.bits)
        buf = self.pool.allocate(size)
        if self.held.get(bin_nr):
            self.held[bin_nr] -= 1
        self.active.append((buf, size, self.size_of(bin_nr), bin_nr))

    @precondition(lambda self: self.active)
    @rule(index=st.integers(0, 1000))
    def release(self, index):
        buf, size, nbytes, bin_nr = self.active.pop(index % len(self.active))
        buf.release()
        if self.holding:
            self.held[bin_nr] = self.held.get(bin_nr, 0) + 1

    @rule()
    def free_held(self):
        self.pool.free_held()
        self.held = {}

    @rule()
    def stop_holding(self):
        self.pool.stop_holding()
        self.held = {}
        self.holding = False

    @rule(goal=st.integers(0, 200000))
    def trim(self, goal):
        target = goal
        self.pool.trim(target)
        held = self.held_bytes()
        for bin_nr in sorted(self.held, reverse=True):
            while self.held[bin_nr] and held > target:
                self.held[bin_nr] -= 1
                held -= self.size_of(bin_nr)

    def held_bytes(self):
        return sum(self.size_of(b) * n for b, n in self.held.items())

    @invariant()
    def counters_match(self):
        if not hasattr(self, "pool"):
            return
        pool = self.pool
        assert pool.active_blocks == len(self.active)
        assert pool.active_bytes == sum(size for _, size, _, _ in self.active)
        assert pool.held_blocks == sum(self.held.values())
        active_alloc = sum(n for _, _, n, _ in self.active)
        assert pool.managed_bytes == active_alloc + self.held_bytes()
        stats = pool.stats()
        assert stats["peak_managed_bytes"] >= pool.managed_bytes
        for buf, size, nbytes, _ in self.active:
            assert buf.size == size and buf.get_info(cl.mem_info.SIZE) == nbytes

    def teardown(self):
        if hasattr(self, "pool"):
            for buf, _, _, _ in self.active:
                buf.release()
            self.pool.free_held()
            assert self.pool.managed_bytes == 0


TestPoolMachine = PoolMachine.TestCase
TestPoolMachine.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)


def svm_queue(ctx_factory):
    device = ctx_factory.device
    if not cl.characterize.has_coarse_grain_buffer_svm(device):
        pytest.skip("%s has no coarse-grain SVM (OpenCL %d.%d)" % ((device.name,) + device.cl_version))
    return cl.CommandQueue(ctx_factory())


def test_svm_pool(ctx_factory):
    from pycl.allocator import SVMAllocator
    from pycl.pool import PooledSVM, SVMPool

    queue = svm_queue(ctx_factory)
    pool = SVMPool(SVMAllocator(queue.context, queue=queue))
    a = pool.allocate(1000)
    assert isinstance(a, PooledSVM) and a.size == 1000 and a.svm_ptr
    assert (pool.active_blocks, pool.active_bytes, pool.managed_bytes) == (1, 1000, 1023)
    host = np.arange(1000, dtype=np.uint8)
    cl.enqueue_copy(queue, a, host)
    b = pool(1000)
    cl.enqueue_copy(queue, b, a)
    cl.enqueue_svm_memfill(queue, b, np.uint8(9), byte_count=10)
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, b)
    model = host.copy()
    model[:10] = 9
    np.testing.assert_array_equal(out, model)
    with b.map_ro(queue) as mapped:
        np.testing.assert_array_equal(mapped, model)
    assert a != b and a == a and hash(a) == hash(a.svm_ptr)
    ptr = a.svm_ptr
    a.release()
    with pytest.raises(cl.LogicError, match="was released"):
        a.release()
    with pytest.raises(cl.LogicError):
        a.svm_ptr
    c = pool.allocate(1001)
    assert c.svm_ptr == ptr and pool.stats()["hits"] == 1
    del b, c, mapped
    for _ in range(3):  # PyPy may need several passes to clear weak references
        gc.collect()
    assert pool.active_blocks == 0 and pool.held_blocks == 2
    pool.free_held()
    assert pool.managed_bytes == 0


def test_svm_pool_orders_reuse_across_queues(ctx_factory):
    """A block released on queue 1 while a user event still holds queue 1
    back, then handed out by a pool on queue 2: the new user's commands wait."""
    from pycl.allocator import SVMAllocator
    from pycl.pool import SVMPool

    queue1 = svm_queue(ctx_factory)
    ctx = queue1.context
    queue2 = cl.CommandQueue(ctx)
    pool = SVMPool(SVMAllocator(ctx, queue=queue2))
    block = pool.allocate(4096)
    block.bind_to_queue(queue1)
    gate = cl.UserEvent(ctx)
    ones = np.ones(4096, np.uint8)
    pending = cl.enqueue_copy(queue1, block, ones, wait_for=[gate], is_blocking=False)
    ptr = block.svm_ptr
    block.release()
    again = pool.allocate(4096)
    assert again.svm_ptr == ptr
    twos = np.full(4096, 2, np.uint8)
    cl.enqueue_copy(queue2, again, twos, is_blocking=False)
    gate.set_status(cl.command_execution_status.COMPLETE)
    pending.wait()
    queue2.finish()
    out = np.empty(4096, np.uint8)
    cl.enqueue_copy(queue2, out, again)
    np.testing.assert_array_equal(out, twos)  # queue 2's write came after queue 1's


def test_svm_pool_needs_svm_allocator(ctx_factory):
    from pycl.pool import SVMPool

    with pytest.raises(TypeError, match="SVMAllocator"):
        SVMPool(DeferredAllocator(ctx_factory()))
