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

from pycl._args import SIZE_LIMIT, size_value
from pycl._binned_pool import BinnedPool, alloc_size, bin_number
from pycl._lib import ffi, lib
from pycl.errors import logic_error
from pycl.memory import Buffer
from pycl.queue import queue_handle
from pycl.svm import SVMPointer

if TYPE_CHECKING:
    from collections.abc import Callable

    from pycl.allocator import SVMAllocator
    from pycl.context import Context
    from pycl.queue import CommandQueue
    from pycl.svm import SVMAllocation

_take, _return, _gc, _ffi_release = lib.pycl_pool_take, lib.pycl_pool_return, ffi.gc, ffi.release
_new_object = object.__new__

__all__ = ["bin_number", "alloc_size", "MemoryPool", "SVMPool", "PooledBuffer", "PooledSVM"]


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
    _hostbuf = None
    _parent = None
    _origin = 0

    def release(self) -> None:
        if self._handle is None:
            raise self._released_error("PooledBuffer.release")
        self._handle = None
        _ffi_release(self._record)  # the block goes back to its bin (the shim counts it for the budget)

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


class MemoryPool(BinnedPool):
    """``MemoryPool(allocator, *, leading_bits_in_bin_id=4, max_bytes=None)``:
    a pool of Buffers from ``allocator`` (an ImmediateAllocator, ideally)."""

    #: What makes new blocks: ``allocator(size)`` returns a Buffer.
    allocator: Callable[[int], Optional[Buffer]]
    # Of the blocks, from the first one (None until then).
    _flags: Any
    _context: Any
    _ctx_ptr: Any

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
        BinnedPool.__init__(self, allocator, leading_bits_in_bin_id, max_bytes)
        self._flags = self._context = self._ctx_ptr = None  # of the blocks, from the first one

    def allocate(self, size: int) -> PooledBuffer:
        # BinnedPool.allocate with the block handed out inline (the hot path).
        if type(size) is not int or not 0 <= size <= SIZE_LIMIT:
            size = size_value(size, "size", type(self).__name__ + ".allocate")
        record = _take(self._pool, size)
        if not record:
            record = self._miss(size)
        pooled = _new_object(PooledBuffer)
        pooled._record = _gc(record, _return)
        pooled._handle = record.mem
        pooled._ptr = pooled._root_ptr = record.address
        pooled._size = size
        pooled._flags = self._flags
        pooled._context = self._context
        pooled._ctx_ptr = self._ctx_ptr
        return pooled

    __call__ = allocate

    def _adopt(self, size: int, block: Buffer) -> Any:
        record = self._adopted(lib.pycl_pool_adopt(self._pool, size, block._live()))
        if self._context is None:
            self._flags, self._context, self._ctx_ptr = block._flags, block._context, block._ctx_ptr
        block.release()  # the shim's pool holds its own reference now
        return record


class PooledSVM(SVMPointer):
    """An SVMPool block: an SVM pointer of the requested ``size`` usable
    wherever an ``SVMAllocation`` is (copies, fills, maps, kernel arguments);
    ``release()`` or collection returns the block to its pool. Equality and
    hash follow the pointer."""

    __slots__ = ("_record", "_ptr", "_size", "_queue", "_pool", "_context", "__weakref__")
    _record: Any  # the shim's pool record (ffi.gc: returns the block); None once released
    _ptr: int
    _size: int
    _queue: Optional[CommandQueue]
    _pool: SVMPool
    _context: Context

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
        _ffi_release(record)  # the shim counts it for the budget

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


class SVMPool(BinnedPool):
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
    _queue: Optional[CommandQueue]  # the allocator's queue and context
    _context: Context

    def __init__(
        self, allocator: SVMAllocator, *, leading_bits_in_bin_id: int = 4, max_bytes: Optional[int] = None
    ) -> None:
        from pycl.allocator import SVMAllocator

        if not isinstance(allocator, SVMAllocator):
            raise TypeError("SVMPool: allocator must be a pycl.tools.SVMAllocator, not %s" % type(allocator).__name__)
        BinnedPool.__init__(self, allocator, leading_bits_in_bin_id, max_bytes)
        # A block's tag in the shim is the handle of the queue it was last
        # ordered on (0: none); the queues stay alive here so that no other
        # queue can take their address.
        self._queues = {}
        self._tag = self._remember(allocator.queue)
        self._queue, self._context = allocator.queue, allocator.context

    def allocate(self, size: int) -> PooledSVM:
        # BinnedPool.allocate with the block handed out inline (the hot path).
        if type(size) is not int or not 0 <= size <= SIZE_LIMIT:
            size = size_value(size, "size", type(self).__name__ + ".allocate")
        record = _take(self._pool, size)
        if not record:
            record = self._miss(size)
        tag = self._tag
        if record.tag != tag:
            self._order_after(record.tag)
            record.tag = tag
        pooled = _new_object(PooledSVM)
        pooled._record = _gc(record, _return)
        pooled._ptr = record.address
        pooled._size = size
        pooled._queue = self._queue
        pooled._pool = self
        pooled._context = self._context
        return pooled

    __call__ = allocate

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

    def _order_after(self, last: int) -> None:
        """Order a block's next use on the allocator's queue after the
        commands of the queue it was last used on (tag ``last``, 0: none)."""
        if not last:
            return
        from pycl.event import enqueue_barrier, enqueue_marker

        if self._queue is None:
            self._queues[last].finish()
        else:
            enqueue_barrier(self._queue, wait_for=[enqueue_marker(self._queues[last])])
