"""Memory pools: ``MemoryPool`` (buffers) and ``SVMPool`` (SVM), with the
same bins as PyOpenCL's pools.

A size's bin is its exponent (the position of its highest set bit) followed
by the ``leading_bits_in_bin_id`` bits below the highest one; every size in a
bin is served by the bin's largest size, so blocks in a bin are
interchangeable (with 4 bits, 1024 rounds to 1087).

The bins, the counters and the held blocks live in the shim
(cl_shim/src/pool.c), under a mutex: an allocation that finds a held block is
one C call, and a handed-out block goes back to its bin from a C destructor
when its ``PooledBuffer``/``PooledSVM`` is released or collected (no Python
runs then). Python only allocates new blocks through the allocator, when a
bin is empty. A pool is safe to use from several threads.

Beyond PyOpenCL: ``max_bytes`` (a limit on managed bytes), ``stats()``,
``reset_peak()`` and ``trim()``.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Optional

from pycl._lib import ffi, lib
from pycl import budget as _budget
from pycl import constants as _constants
from pycl.errors import MemoryError, check, logic_error
from pycl.memory import Buffer
from pycl._args import SIZE_LIMIT, bounded_value, size_value, ulong_value
from pycl.svm import SVMPointer
from pycl.queue import queue_handle

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypedDict

    from pycl.allocator import SVMAllocator
    from pycl.context import Context
    from pycl.queue import CommandQueue
    from pycl.svm import SVMAllocation

    class _PoolStats(TypedDict):
        """What ``stats()`` returns."""

        active_blocks: int
        active_bytes: int
        active_alloc_bytes: int
        held_blocks: int
        held_bytes: int
        peak_active_blocks: int
        peak_active_bytes: int
        peak_held_blocks: int
        peak_held_bytes: int
        peak_managed_bytes: int
        allocations: int
        hits: int
        oom_retries: int
        managed_bytes: int
        max_bytes: Optional[int]


_BUFFER_TYPE = _constants.mem_object_type.BUFFER
_MISS = lib.PYCL_POOL_MISS
_take, _return, _gc, _ffi_release = lib.pycl_pool_take, lib.pycl_pool_return, ffi.gc, ffi.release
_new_object = object.__new__

__all__ = ["bin_number", "alloc_size", "MemoryPool", "SVMPool", "PooledBuffer", "PooledSVM"]


def _leading_bits(leading_bits: int, name: str, routine: str) -> int:
    # A bin is identified by at most 32 bits below the highest one.
    return bounded_value(leading_bits, name, routine, 32)


def bin_number(size: int, leading_bits: int = 4) -> int:
    """The bin of an allocation of ``size`` bytes (any ``size_t``, as in PyOpenCL)."""
    leading_bits = _leading_bits(leading_bits, "leading_bits", "bin_number")
    return lib.pycl_pool_bin_number(leading_bits, ulong_value(size, "size", "bin_number"))


def alloc_size(bin_nr: int, leading_bits: int = 4) -> int:
    """The bytes every block of bin ``bin_nr`` has: the largest size in the bin."""
    leading_bits = _leading_bits(leading_bits, "leading_bits", "alloc_size")
    bin_nr = size_value(bin_nr, "bin_nr", "alloc_size")
    if bin_nr >= 64 << leading_bits:
        raise logic_error("alloc_size", "bin_nr = %d is no bin of %d leading bits" % (bin_nr, leading_bits))
    return lib.pycl_pool_alloc_size(leading_bits, bin_nr)


_STATS = (
    "active_blocks",
    "active_bytes",
    "active_alloc_bytes",
    "held_blocks",
    "held_bytes",
    "peak_active_blocks",
    "peak_active_bytes",
    "peak_held_blocks",
    "peak_held_bytes",
    "peak_managed_bytes",
    "allocations",
    "hits",
    "oom_retries",
)


class _Pool:
    """The shim's pool, the out-of-memory ladder and the byte limit;
    subclasses say what a block is and how to hand one out."""

    _kind = lib.PYCL_POOL_BUFFERS
    #: What makes new blocks (None for ``_TestMemoryPool``).
    allocator: Any
    #: The bits below the highest set one that a size's bin keeps.
    leading_bits_in_bin_id: int
    #: The limit on managed bytes (None: no limit).
    max_bytes: Optional[int]

    def __init__(self, allocator: Any, leading_bits_in_bin_id: int = 4, max_bytes: Optional[int] = None) -> None:
        routine = type(self).__name__
        leading_bits_in_bin_id = _leading_bits(leading_bits_in_bin_id, "leading_bits_in_bin_id", routine)
        if max_bytes is not None:
            max_bytes = size_value(max_bytes, "max_bytes", routine)
        self.allocator = allocator
        self.leading_bits_in_bin_id = leading_bits_in_bin_id
        self.max_bytes = max_bytes
        # Handed-out blocks count in the collection budget of the allocator's
        # context (pycl.budget): a dropped one keeps its block from reuse
        # until it is collected.
        self._budget_context = getattr(allocator, "context", None)
        out = ffi.new("struct pycl_pool **")
        check(lib.pycl_pool_create(self._kind, leading_bits_in_bin_id, out), "pycl_pool_create")
        self._pool = _gc(out[0], lib.pycl_pool_unref)

    # --- PyOpenCL's interface
    def bin_number(self, size: int) -> int:
        return bin_number(size, self.leading_bits_in_bin_id)

    def alloc_size(self, bin_nr: int) -> int:
        return alloc_size(bin_nr, self.leading_bits_in_bin_id)

    @property
    def held_blocks(self) -> int:
        return self._stats().held_blocks

    @property
    def active_blocks(self) -> int:
        return self._stats().active_blocks

    @property
    def managed_bytes(self) -> int:
        """Bytes of active and held blocks (rounded up to their bins)."""
        s = self._stats()
        return s.held_bytes + s.active_alloc_bytes

    @property
    def active_bytes(self) -> int:
        """Bytes the application asked for in its active blocks."""
        return self._stats().active_bytes

    def allocate(self, size: int) -> Any:
        if type(size) is not int or not 0 <= size <= SIZE_LIMIT:
            size = size_value(size, "size", type(self).__name__ + ".allocate")
        record = _take(self._pool, size, 1)
        if not record:
            record = self._miss(size)
        handed = self._hand_out(record, size)
        if _budget.enabled and self._budget_context is not None:
            _budget.charge(self._budget_context, record.nbytes)
            handed._charged = record.nbytes
        return handed

    __call__ = allocate

    def free_held(self) -> None:
        """Free every held block."""
        lib.pycl_pool_free_held(self._pool, 0)

    def stop_holding(self) -> None:
        """Free held blocks now and every returned block from now on."""
        lib.pycl_pool_stop_holding(self._pool)

    # --- beyond PyOpenCL
    def trim(self, target_held_bytes: int = 0) -> None:
        """Free held blocks, largest first, until at most ``target_held_bytes``
        are held; the pool keeps holding what comes back later."""
        target_held_bytes = size_value(target_held_bytes, "target_held_bytes", type(self).__name__ + ".trim")
        lib.pycl_pool_free_held(self._pool, target_held_bytes)

    def stats(self) -> _PoolStats:
        """Counters: current and peak active/held/managed bytes and blocks,
        allocations, hits (served from held blocks) and out-of-memory retries.

        A dict with the keys ``active_blocks``, ``active_bytes``,
        ``active_alloc_bytes``, ``held_blocks``, ``held_bytes``,
        ``managed_bytes``, ``peak_active_blocks``, ``peak_active_bytes``,
        ``peak_held_blocks``, ``peak_held_bytes``, ``peak_managed_bytes``,
        ``allocations``, ``hits``, ``oom_retries`` (ints) and ``max_bytes``
        (the pool's limit, or None)."""
        s = self._stats()
        result = {name: getattr(s, name) for name in _STATS}
        result["managed_bytes"] = s.held_bytes + s.active_alloc_bytes
        result["max_bytes"] = self.max_bytes
        return result  # type: ignore[return-value]  # the keys of _PoolStats: _STATS and the two above

    def reset_peak(self) -> None:
        """Restart the peak counters from the current values."""
        lib.pycl_pool_reset_peak(self._pool)

    def _stats(self) -> Any:
        s = ffi.new("struct pycl_pool_stats *")
        lib.pycl_pool_get_stats(self._pool, s)
        return s

    def _count_held(self) -> int:
        """The blocks in the bins, counted by walking them (for tests)."""
        return lib.pycl_pool_count_held(self._pool)

    # --- a bin was empty
    def _miss(self, size: int) -> Any:
        """The record of a new block for ``size`` (its bin held none)."""
        status = lib.pycl_pool_status()
        if status != _MISS:
            check(status, "pycl_pool_take")
        return self._allocate_fresh(size)

    def _allocate_fresh(self, size: int) -> Any:
        """The out-of-memory ladder for a new block, handed out as a shim
        record: allocate; else collect garbage (returned blocks land in their
        bins) and retry the bin; else free held blocks and retry; else raise
        MemoryError."""
        nbytes = lib.pycl_pool_alloc_size(
            self.leading_bits_in_bin_id, lib.pycl_pool_bin_number(self.leading_bits_in_bin_id, size)
        )
        if self.max_bytes is not None:
            record = self._make_room(size, nbytes)
            if record:
                return record
        try:
            block = self._allocate_block(nbytes)
        except MemoryError:
            lib.pycl_pool_count_oom_retry(self._pool)
            _budget.collect()
            record = _take(self._pool, size, 0)
            if record:
                return record
            self.free_held()
            try:
                block = self._allocate_block(nbytes)
            except MemoryError as error:
                raise MemoryError(
                    type(self).__name__ + ".allocate",
                    error.code,
                    "cannot allocate %d bytes (%d requested) even after freeing held blocks; %s"
                    % (nbytes, size, self._describe()),
                ) from error
        return self._adopt(size, block)

    def _make_room(self, size: int, nbytes: int) -> Any:
        """Keep managed bytes within ``max_bytes`` for a new block, freeing
        held blocks first; if that is not enough, collect garbage and return
        the record of a block of the bin that a dropped object gave back, if
        any (else None: there is room now)."""
        for attempt in range(2):
            if attempt:
                lib.pycl_pool_count_oom_retry(self._pool)
                _budget.collect()  # on PyPy, dropped objects wait for a collection
                record = _take(self._pool, size, 0)
                if record:
                    return record
            s = self._stats()
            excess = s.held_bytes + s.active_alloc_bytes + nbytes - self.max_bytes
            if excess <= 0:
                return None
            lib.pycl_pool_free_held(self._pool, max(0, s.held_bytes - excess))
            s = self._stats()
            if s.held_bytes + s.active_alloc_bytes + nbytes <= self.max_bytes:
                return None
        raise MemoryError(
            type(self).__name__ + ".allocate",
            lib.CL_MEM_OBJECT_ALLOCATION_FAILURE,
            "%d bytes requested (%d in its bin) would exceed max_bytes = %d; %s"
            % (size, nbytes, self.max_bytes, self._describe()),  # type: ignore[str-format]  # not None here
        )

    def _describe(self) -> str:
        s = self._stats()
        return "the pool has %d bytes active in %d blocks and %d bytes held in %d blocks" % (
            s.active_alloc_bytes,
            s.active_blocks,
            s.held_bytes,
            s.held_blocks,
        )

    def _allocate_block(self, nbytes: int) -> Any:
        return self.allocator(nbytes)

    # --- for subclasses
    def _adopt(self, size: int, block: Any) -> Any:
        """Hand ``block`` (new from the allocator) to the shim's pool; its
        record."""
        raise NotImplementedError

    def _adopted(self, record: Any) -> Any:
        if not record:
            check(lib.pycl_pool_status(), "pycl_pool_adopt")
        return record

    def _hand_out(self, record: Any, size: int) -> Any:
        raise NotImplementedError


class PooledBuffer(Buffer):
    """A MemoryPool block: a Buffer of the requested ``size`` (the block may be
    larger) usable wherever a Buffer is; ``release()`` or collection returns
    the block to its pool (in C: the record's destructor)."""

    __slots__ = ("_record",)
    _record: Any  # the shim's pool record (ffi.gc: returns the block)
    _release = None  # the pool owns the block's handle
    # The same for every pooled buffer: class attributes instead of slots set
    # at each allocation (the slots of MemoryObject/Buffer they shadow are
    # never written for a PooledBuffer).
    _type = _BUFFER_TYPE
    _transfer_kind = "buffer"
    _hostbuf = None
    _parent = None
    _origin = 0

    def release(self) -> None:
        if self._handle is None:
            raise self._released_error("PooledBuffer.release")
        self._handle = None
        _ffi_release(self._record)  # the block goes back to its bin
        if _budget.enabled:
            _budget.credit_object(self._context, self)

    # PyOpenCL 2026.1's PooledBuffer has these for the API of PooledSVM, and
    # they do nothing there: its buffer pools, as pycl's, leave ordering the
    # reuse of a block to the program. pycl checks the queue and the block.
    def bind_to_queue(self, queue: CommandQueue) -> None:
        """Accepted for PooledSVM's API; a buffer block needs no queue."""
        queue_handle(queue, "PooledBuffer.bind_to_queue")
        self._live()

    def unbind_from_queue(self) -> None:
        """Accepted for PooledSVM's API; a buffer block needs no queue."""
        self._live()

    # A foreign handle is no pool block: the result is a plain Buffer.
    @classmethod
    def from_int_ptr(cls, int_ptr_value: int, retain: bool = True) -> Buffer:  # type: ignore[override]
        return Buffer.from_int_ptr(int_ptr_value, retain)


class MemoryPool(_Pool):
    """``MemoryPool(allocator, *, leading_bits_in_bin_id=4, max_bytes=None)``:
    a pool of Buffers from ``allocator`` (an ImmediateAllocator, ideally)."""

    #: What makes new blocks: ``allocator(size)`` returns a Buffer.
    allocator: Callable[[int], Optional[Buffer]]
    # Of the blocks, from the first one (None until then).
    _flags: Any
    _context: Any
    _ctx_ptr: Any

    if TYPE_CHECKING:
        # _Pool's, with the type of the blocks.
        def allocate(self, size: int) -> PooledBuffer: ...

        __call__ = allocate

    def __init__(
        self,
        allocator: Callable[[int], Optional[Buffer]],
        *,
        leading_bits_in_bin_id: int = 4,
        max_bytes: Optional[int] = None,
    ) -> None:
        from pycl.allocator import DeferredAllocator

        if isinstance(allocator, DeferredAllocator):
            warnings.warn(
                "MemoryPool got a DeferredAllocator, which may report a lack of memory only at first use; "
                "the pool can only react to failures at allocation: use an ImmediateAllocator",
                stacklevel=2,
            )
        _Pool.__init__(self, allocator, leading_bits_in_bin_id, max_bytes)
        self._flags = self._context = self._ctx_ptr = None  # of the blocks, from the first one

    def _adopt(self, size: int, block: Buffer) -> Any:
        record = self._adopted(lib.pycl_pool_adopt(self._pool, size, block._live()))
        if self._context is None:
            self._flags, self._context, self._ctx_ptr = block._flags, block._context, block._ctx_ptr
        block.release()  # the shim's pool holds its own reference now
        return record

    def _hand_out(self, record: Any, size: int) -> PooledBuffer:
        pooled = _new_object(PooledBuffer)
        pooled._record = _gc(record, _return)
        pooled._handle = record.mem
        pooled._ptr = pooled._root_ptr = record.address
        pooled._size = size
        pooled._flags = self._flags
        pooled._context = self._context
        pooled._ctx_ptr = self._ctx_ptr
        pooled._arg = None
        return pooled


class PooledSVM(SVMPointer):
    """An SVMPool block: an SVM pointer of the requested ``size`` usable
    wherever an ``SVMAllocation`` is (copies, fills, maps, kernel arguments);
    ``release()`` or collection returns the block to its pool. Equality and
    hash follow the pointer."""

    __slots__ = ("_record", "_ptr", "_size", "_queue", "_pool", "_context", "_charged", "__weakref__")
    _record: Any  # the shim's pool record (ffi.gc: returns the block); None once released
    _ptr: int
    _size: int
    _queue: Optional[CommandQueue]
    _pool: SVMPool
    _context: Context
    _charged: int

    def _pointer(self, routine: str) -> tuple[int, int, PooledSVM]:
        if self._record is None:
            raise logic_error(routine, "%r was released and cannot be used" % self, lib.CL_INVALID_VALUE)
        return self._ptr, self._size, self

    # As the owner of its memory (the third item of _pointer): maps hold a
    # reference to the shim's SVM record, tags check _handle.
    @property
    def _handle(self) -> Any:
        return self._record

    def _live(self) -> Any:
        self._pointer("PooledSVM")
        return self._record.svm

    @property
    def queue(self) -> Optional[CommandQueue]:
        """The queue whose commands are ordered before the block's next use."""
        self._pointer("PooledSVM.queue")
        return self._queue

    def release(self) -> None:
        """Return the memory to the pool (commands already enqueued on the
        bound queue are ordered before its next user). A second call raises
        ``LogicError``."""
        self._pointer("PooledSVM.release")
        record, self._record = self._record, None
        _ffi_release(record)
        if _budget.enabled:
            _budget.credit_object(self._context, self)

    def enqueue_release(self) -> None:
        """Synonym for ``release`` (PyOpenCL takes no queue or events here)."""
        self.release()

    def bind_to_queue(self, queue: CommandQueue) -> None:
        """Order the block's next use after the commands of ``queue``."""
        from pycl._svm_checks import in_order_queue

        self._pointer("PooledSVM.bind_to_queue")
        in_order_queue(queue, self._context, "PooledSVM.bind_to_queue")
        self._queue = queue
        self._record.tag = self._pool._remember(queue)

    def unbind_from_queue(self) -> None:
        """Finish the bound queue and forget it."""
        self._pointer("PooledSVM.unbind_from_queue")
        if self._queue is not None:
            self._queue.finish()
        self._queue = None
        self._record.tag = 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PooledSVM):
            return NotImplemented
        return self is other or (self._record is not None and other._record is not None and self._ptr == other._ptr)

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash(self._ptr)

    def __repr__(self) -> str:
        state = "released" if self._record is None else "0x%x" % self._ptr
        return "<pycl.PooledSVM of %d bytes at %s>" % (self._size, state)


class SVMPool(_Pool):
    """``SVMPool(allocator, *, leading_bits_in_bin_id=4, max_bytes=None)``: a
    pool of SVM from an ``SVMAllocator``. A block last used on one queue and
    handed out for another waits for the first queue's commands (a marker
    there, a barrier on the new queue); with no queue to order on, the old
    queue is finished first."""

    _kind = lib.PYCL_POOL_SVM
    #: What makes new blocks.
    allocator: SVMAllocator
    # queue handle (a block's tag) -> the queue
    _queues: dict[int, CommandQueue]
    _tag: int  # the tag of the allocator's queue (0: none)

    if TYPE_CHECKING:
        # _Pool's, with the type of the blocks.
        def allocate(self, size: int) -> PooledSVM: ...

        __call__ = allocate

    def __init__(
        self, allocator: SVMAllocator, *, leading_bits_in_bin_id: int = 4, max_bytes: Optional[int] = None
    ) -> None:
        from pycl.allocator import SVMAllocator

        if not isinstance(allocator, SVMAllocator):
            raise TypeError("SVMPool: allocator must be a pycl.tools.SVMAllocator, not %s" % type(allocator).__name__)
        _Pool.__init__(self, allocator, leading_bits_in_bin_id, max_bytes)
        # A block's tag in the shim is the handle of the queue it was last
        # ordered on (0: none); the queues stay alive here so that no other
        # queue can take their address.
        self._queues = {}
        self._tag = self._remember(allocator.queue)

    def _remember(self, queue: Optional[CommandQueue]) -> int:
        if queue is None:
            return 0
        tag = queue.int_ptr
        self._queues[tag] = queue
        return tag

    def _adopt(self, size: int, block: SVMAllocation) -> Any:
        record = self._adopted(lib.pycl_pool_adopt(self._pool, size, block._handle))
        block.release()  # the shim's pool holds its own reference now
        return record

    def _hand_out(self, record: Any, size: int) -> PooledSVM:
        tag, last = self._tag, record.tag
        if last and last != tag:
            from pycl.event import enqueue_barrier, enqueue_marker

            if not tag:
                self._queues[last].finish()
            else:
                # A non-zero tag is the allocator's queue's: not None.
                enqueue_barrier(self.allocator.queue, wait_for=[enqueue_marker(self._queues[last])])  # type: ignore[arg-type]
        record.tag = tag
        pooled = _new_object(PooledSVM)
        pooled._record = _gc(record, _return)
        pooled._ptr = record.address
        pooled._size = size
        pooled._queue = self.allocator.queue
        pooled._pool = self
        pooled._context = self.allocator.context
        return pooled
