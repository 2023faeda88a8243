"""Memory pools: ``MemoryPool`` (buffers) and ``SVMPool`` (SVM), with the
same bins as PyOpenCL's pools.

A size's bin is its exponent (the position of its highest set bit) followed
by the ``leading_bits_in_bin_id`` bits below the highest one; every size in a
bin is served by the bin's largest size, so blocks in a bin are
interchangeable (with 4 bits, 1024 rounds to 1087).

Beyond PyOpenCL: ``max_bytes`` (a limit on managed bytes), ``stats()``,
``reset_peak()`` and ``trim()``. A pool is safe to use from several threads.
Returned blocks come back through weak-reference callbacks, which only do
bookkeeping (they never block or raise).
"""

import collections
import threading
import warnings
import weakref

from pycl._lib import lib
from pycl import budget as _budget
from pycl import constants as _constants
from pycl.errors import MemoryError, logic_error
from pycl.memory import Buffer
from pycl.svm import SVMPointer

_BUFFER_TYPE = _constants.mem_object_type.BUFFER

__all__ = ["bin_number", "alloc_size", "MemoryPool", "SVMPool", "PooledBuffer", "PooledSVM"]


def _shift(value, places):
    """``value`` shifted left by ``places`` (right when negative)."""
    return value << places if places >= 0 else value >> -places


def bin_number(size, leading_bits=4):
    """The bin of an allocation of ``size`` bytes."""
    exponent = size.bit_length() - 1 if size else 0
    mantissa = _shift(size, leading_bits - exponent) & ((1 << leading_bits) - 1)
    return exponent << leading_bits | mantissa


def alloc_size(bin_nr, leading_bits=4):
    """The bytes every block of bin ``bin_nr`` has: the largest size in the bin."""
    exponent = bin_nr >> leading_bits
    mantissa = bin_nr & ((1 << leading_bits) - 1)
    head = _shift(1 << leading_bits | mantissa, exponent - leading_bits)
    ones = (1 << (exponent - leading_bits)) - 1 if exponent > leading_bits else 0
    return head | ones


class _Stats:
    """The pool's counters (``stats()``)."""

    __slots__ = (
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

    def __init__(self):
        for name in self.__slots__:
            setattr(self, name, 0)

    def as_dict(self):
        return {name: getattr(self, name) for name in self.__slots__}


class _Pool:
    """Bins of held blocks, counters, the out-of-memory ladder and the byte
    limit; subclasses say what a block is and how to hand one out."""

    _kind = "pool"

    def __init__(self, allocator, leading_bits_in_bin_id=4, max_bytes=None):
        routine = type(self).__name__
        if not isinstance(leading_bits_in_bin_id, int) or not 0 <= leading_bits_in_bin_id <= 32:
            raise logic_error(
                routine, "leading_bits_in_bin_id must be an int in 0..32, got %r" % leading_bits_in_bin_id
            )
        if max_bytes is not None and (not isinstance(max_bytes, int) or max_bytes < 0):
            raise logic_error(routine, "max_bytes must be None or a non-negative int, got %r" % (max_bytes,))
        self.allocator = allocator
        # Handed-out blocks count in the collection budget of the allocator's
        # context (pycl.budget): a dropped one keeps its block from reuse
        # until it is collected.
        self._budget_context = getattr(allocator, "context", None)
        self.leading_bits_in_bin_id = leading_bits_in_bin_id
        self.max_bytes = max_bytes
        self._bins = {}  # bin number -> held blocks
        # weakref to a handed-out object -> (block, bin, alloc size, requested, bytes counted in the budget)
        self._outstanding = {}
        self._holding = True
        self._lock = threading.Lock()
        self._stats = _Stats()
        self._mantissa_mask = (1 << leading_bits_in_bin_id) - 1
        self._bin_bytes = {}  # bin number -> alloc_size, filled as bins are used
        self._collected_callback = self._collected  # one bound method for every weakref
        # Blocks of collected objects, waiting to be taken back under the lock
        # (a weakref callback may run while this thread holds the lock).
        self._collected_entries = collections.deque()

    # --- PyOpenCL's interface
    def bin_number(self, size):
        return bin_number(size, self.leading_bits_in_bin_id)

    def alloc_size(self, bin_nr):
        return alloc_size(bin_nr, self.leading_bits_in_bin_id)

    @property
    def held_blocks(self):
        self._settle()
        return self._stats.held_blocks

    @property
    def active_blocks(self):
        self._settle()
        return self._stats.active_blocks

    @property
    def managed_bytes(self):
        """Bytes of active and held blocks (rounded up to their bins)."""
        self._settle()
        return self._stats.held_bytes + self._stats.active_alloc_bytes

    @property
    def active_bytes(self):
        """Bytes the application asked for in its active blocks."""
        self._settle()
        return self._stats.active_bytes

    def allocate(self, size):
        if type(size) is not int or size < 0:
            self._bad_size(size)
        bits = self.leading_bits_in_bin_id
        # bin_number(), inline: this is the pool's hot path.
        exponent = size.bit_length() - 1 if size else 0
        shift = bits - exponent
        bin_nr = exponent << bits | ((size << shift if shift >= 0 else size >> -shift) & self._mantissa_mask)
        nbytes = self._bin_bytes.get(bin_nr)
        if nbytes is None:
            nbytes = self._bin_bytes[bin_nr] = alloc_size(bin_nr, bits)
        charged = 0
        if _budget.enabled and self._budget_context is not None:
            _budget.charge(self._budget_context, nbytes)  # may collect: dropped blocks come back below
            charged = nbytes
        block = freed = None
        with self._lock:
            if self._collected_entries:
                freed = self._take_back_collected()
            s = self._stats
            s.allocations += 1
            blocks = self._bins.get(bin_nr)
            if blocks:
                block = blocks.pop()
                s.hits += 1
                s.held_blocks -= 1
                s.held_bytes -= nbytes
                self._activate(nbytes, size)
        if freed:
            self._free_blocks(freed)
        if block is None:
            block = self._allocate_fresh(bin_nr, nbytes, size)
        handed = self._hand_out(block, size)
        ref = handed._pool_ref = weakref.ref(handed, self._collected_callback)
        self._outstanding[ref] = (block, bin_nr, nbytes, size, charged)  # one dict operation: atomic
        return handed

    def _bad_size(self, size):
        routine = type(self).__name__ + ".allocate"
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError("%s: size must be an int, not %s" % (routine, type(size).__name__))
        if size < 0:
            raise logic_error(routine, "size = %d is negative" % size)

    __call__ = allocate

    def free_held(self):
        """Free every held block."""
        self._free_blocks(self._pop_held(None))

    def stop_holding(self):
        """Free held blocks now and every returned block from now on."""
        self._holding = False
        self.free_held()

    # --- beyond PyOpenCL
    def trim(self, target_held_bytes=0):
        """Free held blocks, largest first, until at most ``target_held_bytes``
        are held; the pool keeps holding what comes back later."""
        self._free_blocks(self._pop_held(target_held_bytes))

    def stats(self):
        """Counters: current and peak active/held/managed bytes and blocks,
        allocations, hits (served from held blocks) and out-of-memory retries."""
        self._settle()
        with self._lock:
            result = self._stats.as_dict()
        result["managed_bytes"] = result["held_bytes"] + result["active_alloc_bytes"]
        result["max_bytes"] = self.max_bytes
        return result

    def reset_peak(self):
        """Restart the peak counters from the current values."""
        self._settle()
        with self._lock:
            s = self._stats
            s.peak_active_blocks, s.peak_active_bytes = s.active_blocks, s.active_bytes
            s.peak_held_blocks, s.peak_held_bytes = s.held_blocks, s.held_bytes
            s.peak_managed_bytes = s.held_bytes + s.active_alloc_bytes

    # --- bookkeeping (every counter change happens under the lock)
    def _take_held(self, bin_nr, nbytes, size):
        self._settle()
        with self._lock:
            s = self._stats
            blocks = self._bins.get(bin_nr)
            if not blocks:
                return None
            block = blocks.pop()
            s.hits += 1
            s.held_blocks -= 1
            s.held_bytes -= nbytes
            self._activate(nbytes, size)
            return block

    def _activate(self, nbytes, size):
        s = self._stats
        s.active_blocks += 1
        s.active_bytes += size
        s.active_alloc_bytes += nbytes
        if s.active_blocks > s.peak_active_blocks:
            s.peak_active_blocks = s.active_blocks
        if s.active_bytes > s.peak_active_bytes:
            s.peak_active_bytes = s.active_bytes
        managed = s.held_bytes + s.active_alloc_bytes
        if managed > s.peak_managed_bytes:
            s.peak_managed_bytes = managed

    def _allocate_fresh(self, bin_nr, nbytes, size):
        """The out-of-memory ladder: allocate; else collect garbage (returned
        blocks land in their bins) and retry the bin; else free held blocks,
        largest first, and retry; else raise MemoryError."""
        if self.max_bytes is not None:
            block = self._make_room(bin_nr, nbytes, size)
            if block is not None:
                return block
        try:
            block = self._allocate_block(nbytes)
        except MemoryError:
            with self._lock:
                self._stats.oom_retries += 1
            _budget.collect()
            block = self._take_held(bin_nr, nbytes, size)
            if block is not None:
                return block
            self._free_blocks(self._pop_held(0))
            try:
                block = self._allocate_block(nbytes)
            except MemoryError as error:
                raise MemoryError(
                    type(self).__name__ + ".allocate",
                    error.code,
                    "cannot allocate %d bytes (%d requested) even after freeing held blocks; %s"
                    % (nbytes, size, self._describe()),
                ) from error
        with self._lock:
            self._activate(nbytes, size)
        return block

    def _make_room(self, bin_nr, nbytes, size):
        """Keep managed bytes within ``max_bytes`` for a new block, freeing
        held blocks first; if that is not enough, collect garbage: a block of
        the bin that a dropped object returns is handed out (the result),
        others are freed as needed. None: there is room for a new block."""
        for attempt in range(2):
            if attempt:
                with self._lock:
                    self._stats.oom_retries += 1
                _budget.collect()  # on PyPy, dropped objects wait for a collection
                block = self._take_held(bin_nr, nbytes, size)
                if block is not None:
                    return block
            with self._lock:
                s = self._stats
                excess = s.held_bytes + s.active_alloc_bytes + nbytes - self.max_bytes
            if excess <= 0:
                return None
            with self._lock:
                target = max(0, self._stats.held_bytes - excess)
            self._free_blocks(self._pop_held(target))
            with self._lock:
                s = self._stats
                if s.held_bytes + s.active_alloc_bytes + nbytes <= self.max_bytes:
                    return None
        raise MemoryError(
            type(self).__name__ + ".allocate",
            lib.CL_MEM_OBJECT_ALLOCATION_FAILURE,
            "%d bytes requested (%d in its bin) would exceed max_bytes = %d; %s"
            % (size, nbytes, self.max_bytes, self._describe()),
        )

    def _describe(self):
        s = self._stats
        return "the pool has %d bytes active in %d blocks and %d bytes held in %d blocks" % (
            s.active_alloc_bytes,
            s.active_blocks,
            s.held_bytes,
            s.held_blocks,
        )

    def _pop_held(self, target):
        """Remove held blocks, largest bins first, until at most ``target``
        bytes are held (None: all); returns them for freeing."""
        freed = []
        with self._lock:
            freed += self._take_back_collected()
            s = self._stats
            for bin_nr in sorted(self._bins, reverse=True):
                blocks = self._bins[bin_nr]
                nbytes = alloc_size(bin_nr, self.leading_bits_in_bin_id)
                while blocks and (target is None or s.held_bytes > target):
                    freed.append(blocks.pop())
                    s.held_blocks -= 1
                    s.held_bytes -= nbytes
                if not blocks:
                    del self._bins[bin_nr]
        return freed

    def _free_blocks(self, blocks):
        for block in blocks:
            self._free_block(block)

    def _give_back_locked(self, entry):
        """Count a returned block back in (the lock is held); returns it if it
        must be freed instead of held."""
        block, bin_nr, nbytes, size, _ = entry
        s = self._stats
        s.active_blocks -= 1
        s.active_bytes -= size
        s.active_alloc_bytes -= nbytes
        if not self._holding:
            return block
        blocks = self._bins.get(bin_nr)
        if blocks is None:
            blocks = self._bins[bin_nr] = []
        blocks.append(block)
        s.held_blocks += 1
        s.held_bytes += nbytes
        if s.held_blocks > s.peak_held_blocks:
            s.peak_held_blocks = s.held_blocks
        if s.held_bytes > s.peak_held_bytes:
            s.peak_held_bytes = s.held_bytes
        return None

    def _take_back_collected(self):
        """Count in the blocks of collected objects (the lock is held);
        returns those to free."""
        freed = []
        entries = self._collected_entries
        while entries:
            block = self._give_back_locked(entries.popleft())
            if block is not None:
                freed.append(block)
        return freed

    def _settle(self):
        """Take back the blocks of collected objects now."""
        if self._collected_entries:
            with self._lock:
                freed = self._take_back_collected()
            self._free_blocks(freed)

    def _collected(self, ref):
        # A weakref callback, which may run while this very thread holds the
        # pool's lock (PyPy's collector runs them at any allocation): it only
        # queues the block; the next pool operation counts it back in. The
        # block is free for reuse from now on, so its bytes leave the budget.
        entry = self._outstanding.pop(ref, None)
        if entry is not None:
            self._collected_entries.append(entry)
            if entry[4]:
                _budget.credit(self._budget_context, entry[4])

    def _returned(self, handed):
        """``handed.release()``: the block goes back now."""
        entry = self._outstanding.pop(handed._pool_ref, None)
        if entry is None:
            return
        if entry[4]:
            _budget.credit(self._budget_context, entry[4])
        with self._lock:
            freed = self._take_back_collected() if self._collected_entries else []
            block = self._give_back_locked(entry)
        if block is not None:
            freed.append(block)
        self._free_blocks(freed)

    # --- for subclasses
    def _allocate_block(self, nbytes):
        raise NotImplementedError

    def _free_block(self, block):
        raise NotImplementedError

    def _hand_out(self, block, size):
        raise NotImplementedError


class PooledBuffer(Buffer):
    """A MemoryPool block: a Buffer of the requested ``size`` (the block may be
    larger) usable wherever a Buffer is; ``release()`` or collection returns
    the block to its pool."""

    __slots__ = ("_pool", "_pool_ref")
    _release = None  # the pool's block owns the handle
    # The same for every pooled buffer: class attributes instead of slots set
    # at each allocation (the slots of MemoryObject/Buffer they shadow are
    # never written for a PooledBuffer).
    _type = _BUFFER_TYPE
    _transfer_kind = "buffer"
    _hostbuf = None
    _parent = None
    _origin = 0

    def release(self):
        if self._handle is None:
            raise self._released_error("PooledBuffer.release")
        self._handle = None
        self._pool._returned(self)

    @classmethod
    def from_int_ptr(cls, int_ptr_value, retain=True):
        return Buffer.from_int_ptr(int_ptr_value, retain)


_new_pooled_buffer = object.__new__


class MemoryPool(_Pool):
    """``MemoryPool(allocator, *, leading_bits_in_bin_id=4, max_bytes=None)``:
    a pool of Buffers from ``allocator`` (an ImmediateAllocator, ideally)."""

    def __init__(self, allocator, *, leading_bits_in_bin_id=4, max_bytes=None):
        from pycl.allocator import DeferredAllocator

        if isinstance(allocator, DeferredAllocator):
            warnings.warn(
                "MemoryPool got a DeferredAllocator, which may report a lack of memory only at first use; "
                "the pool can only react to failures at allocation: use an ImmediateAllocator",
                stacklevel=2,
            )
        _Pool.__init__(self, allocator, leading_bits_in_bin_id, max_bytes)

    def _allocate_block(self, nbytes):
        return self.allocator(nbytes)

    def _free_block(self, block):
        if block._handle is not None:
            block.release()

    def _hand_out(self, block, size):
        pooled = _new_pooled_buffer(PooledBuffer)
        pooled._handle = block._handle
        pooled._ptr = block._ptr
        pooled._size = size
        pooled._flags = block._flags
        pooled._context = block._context
        pooled._ctx_ptr = block._ctx_ptr
        pooled._arg = block._arg
        pooled._root_ptr = block._ptr
        pooled._pool = self
        return pooled


class PooledSVM(SVMPointer):
    """An SVMPool block: an SVM pointer of the requested ``size`` usable
    wherever an ``SVMAllocation`` is (copies, fills, maps, kernel arguments);
    ``release()`` or collection returns the block to its pool. Equality and
    hash follow the pointer."""

    __slots__ = ("_block", "_ptr", "_size", "_queue", "_pool", "_pool_ref", "__weakref__")

    def _pointer(self, routine):
        block = self._block
        if block is None:
            raise logic_error(routine, "%r was released and cannot be used" % self, lib.CL_INVALID_VALUE)
        return self._ptr, self._size, block

    @property
    def queue(self):
        """The queue whose commands are ordered before the block's next use."""
        self._pointer("PooledSVM.queue")
        return self._queue

    def release(self):
        """Return the memory to the pool (commands already enqueued on the
        bound queue are ordered before its next user). A second call raises
        ``LogicError``."""
        self._pointer("PooledSVM.release")
        self._block = None
        self._pool._returned(self)

    def enqueue_release(self):
        """Synonym for ``release`` (PyOpenCL takes no queue or events here)."""
        self.release()

    def bind_to_queue(self, queue):
        """Order the block's next use after the commands of ``queue``."""
        from pycl.svm import _in_order_queue

        block = self._pointer("PooledSVM.bind_to_queue")[2]
        _in_order_queue(queue, block._context, "PooledSVM.bind_to_queue")
        self._queue = queue
        self._pool._set_queue(self, queue)

    def unbind_from_queue(self):
        """Finish the bound queue and forget it."""
        self._pointer("PooledSVM.unbind_from_queue")
        if self._queue is not None:
            self._queue.finish()
        self._queue = None
        self._pool._set_queue(self, None)

    def __eq__(self, other):
        if not isinstance(other, PooledSVM):
            return NotImplemented
        return self is other or (self._block is not None and other._block is not None and self._ptr == other._ptr)

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash(self._ptr)

    def __repr__(self):
        state = "released" if self._block is None else "0x%x" % self._ptr
        return "<pycl.PooledSVM of %d bytes at %s>" % (self._size, state)


class SVMPool(_Pool):
    """``SVMPool(allocator, *, leading_bits_in_bin_id=4, max_bytes=None)``: a
    pool of SVM from an ``SVMAllocator``. A block last used on one queue and
    handed out for another waits for the first queue's commands (a marker
    there, a barrier on the new queue); with no queue to order on, the old
    queue is finished first."""

    def __init__(self, allocator, *, leading_bits_in_bin_id=4, max_bytes=None):
        from pycl.allocator import SVMAllocator

        if not isinstance(allocator, SVMAllocator):
            raise TypeError("SVMPool: allocator must be a pycl.tools.SVMAllocator, not %s" % type(allocator).__name__)
        _Pool.__init__(self, allocator, leading_bits_in_bin_id, max_bytes)
        self._last_queue = {}  # id(block) -> the queue it was last ordered on

    def _allocate_block(self, nbytes):
        return self.allocator(nbytes)

    def _free_block(self, block):
        self._last_queue.pop(id(block), None)
        if block._handle is not None:
            block.release()

    def _set_queue(self, pooled, queue):
        self._last_queue[id(pooled._block)] = queue

    def _hand_out(self, block, size):
        queue = self.allocator.queue
        last = self._last_queue.get(id(block))
        if last is not None and last != queue:
            from pycl.event import enqueue_barrier, enqueue_marker

            if queue is None:
                last.finish()
            else:
                enqueue_barrier(queue, wait_for=[enqueue_marker(last)])
        self._last_queue[id(block)] = queue
        pooled = PooledSVM.__new__(PooledSVM)
        pooled._block = block
        pooled._ptr = block._ptr
        pooled._size = size
        pooled._queue = queue
        pooled._pool = self
        return pooled
