"""The machinery of pycl's memory pools (``pycl.pool``): the bins, the
shim's pool that holds their blocks, the out-of-memory ladder and the byte
limit. ``MemoryPool``, ``SVMPool`` and ``_TestMemoryPool`` say what a block
is and how to hand one out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from pycl import budget as _budget
from pycl._args import SIZE_LIMIT, bounded_value, size_value, ulong_value
from pycl._handle import out_cell
from pycl._lib import ffi, lib
from pycl.errors import MemoryError, check, logic_error

if TYPE_CHECKING:
    from typing import TypedDict

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


__all__ = ["BinnedPool", "bin_number", "alloc_size"]

_MISS, _SETTLE = lib.PYCL_POOL_MISS, lib.PYCL_POOL_SETTLE
_take, _retake, _gc = lib.pycl_pool_take, lib.pycl_pool_retake, ffi.gc


def bin_bits_value(leading_bits: int, name: str, routine: str) -> int:
    # A bin is identified by at most 32 bits below the highest one.
    return bounded_value(leading_bits, name, routine, 32)


def bin_number(size: int, leading_bits: int = 4) -> int:
    """The bin of an allocation of ``size`` bytes (any ``size_t``, as in PyOpenCL)."""
    leading_bits = bin_bits_value(leading_bits, "leading_bits", "bin_number")
    return lib.pycl_pool_bin_number(leading_bits, ulong_value(size, "size", "bin_number"))


def alloc_size(bin_nr: int, leading_bits: int = 4) -> int:
    """The bytes every block of bin ``bin_nr`` has: the largest size in the bin."""
    leading_bits = bin_bits_value(leading_bits, "leading_bits", "alloc_size")
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


class BinnedPool:
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
        leading_bits_in_bin_id = bin_bits_value(leading_bits_in_bin_id, "leading_bits_in_bin_id", routine)
        if max_bytes is not None:
            max_bytes = size_value(max_bytes, "max_bytes", routine)
        self.allocator = allocator
        self.leading_bits_in_bin_id = leading_bits_in_bin_id
        self.max_bytes = max_bytes
        # Handed-out blocks count in the collection budget of the allocator's
        # context (pycl.budget): a dropped one keeps its block from reuse
        # until it is collected. The shim counts them and the budget hears
        # of them in steps (_settle), so that a hit runs no Python for it.
        self._budget_context = getattr(allocator, "context", None)
        self._settle_step = 0
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
        record = _take(self._pool, size)
        if not record:
            record = self._miss(size)
        return self._hand_out(record, size)

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

    # --- a bin was empty, or the budget is due
    def _miss(self, size: int) -> Any:
        """The record of a block for ``size`` after ``pycl_pool_take`` found
        none in its bin, or asked for the budget to be settled first."""
        status = lib.pycl_pool_status()
        if status == _SETTLE:
            record = self._held(size)
            if record:
                return record
            status = lib.pycl_pool_status()
        if status != _MISS:
            check(status, "pycl_pool_take")
        self._settle()  # also sets the step (budget settings may have changed)
        return self._allocate_fresh(size)

    def _held(self, size: int) -> Any:
        """A held block of ``size``'s bin for an allocation already counted,
        or NULL."""
        record = _retake(self._pool, size)
        while not record and lib.pycl_pool_status() == _SETTLE:
            self._settle()
            record = _retake(self._pool, size)
        return record

    def _settle(self, apply: Optional[Callable[[Any, int], None]] = _budget.count) -> None:
        """Hand the collection budget (pycl.budget) what the shim counted
        for this pool's blocks since the last time, so that neither an
        allocation nor a release runs Python for it: the bytes handed out
        minus those returned (released or collected), through ``apply``
        (None: forget them). pycl_pool_take asks for this again once an
        eighth of the device's budget has been handed out; the budget asks
        before it would collect (``apply``: ``budget.adjust``) and after it
        collected (None). Counts from while accounting was off are dropped."""
        context = self._budget_context
        step = _budget.budget_of(context) // 8 if _budget.enabled and context is not None else 0
        returned = out_cell("size_t")[0]
        taken = lib.pycl_pool_settle(self._pool, step, returned)
        if self._settle_step and step and context is not None:
            if apply is not None:
                apply(context, taken - returned[0])
        elif step and context is not None:
            _budget.add_counter(context, self)
        self._settle_step = step

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
            record = self._held(size)
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
                record = self._held(size)
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
        """The object a new ``record`` is handed out as (MemoryPool and
        SVMPool do this inline in their own ``allocate``)."""
        raise NotImplementedError
