"""``_TestMemoryPool`` (``pycl._cl._TestMemoryPool``): pycl's pool machinery
over blocks that are only tokens, so that tests can check the bins and the
counters without a device.

As PyOpenCL's: ``allocate(size)`` counts a block of ``size`` bytes (rounded
up to its bin) as active and returns None; with nothing to give back, that
block stays active for the pool's life, so ``held_blocks`` stays 0 and
``free_held``/``stop_holding`` change no counter.

Beyond PyOpenCL: ``allocate_block(size)`` returns the block, which goes back
to its bin on ``release()`` or collection, so that the held path (reuse,
``free_held``, ``stop_holding``) can be tested as well.
"""

from __future__ import annotations

from typing import Any

from pycl._binned_pool import BinnedPool
from pycl._lib import ffi, lib

__all__ = ["TestBlock"]


class TestBlock:
    """A block of a ``_TestMemoryPool``: ``size`` bytes asked for, in a
    block of ``nbytes``; ``release()`` (or collection) returns it to its bin."""

    __test__ = False  # not a pytest test class, despite the name
    __slots__ = ("size", "nbytes", "_record")
    #: The bytes asked for.
    size: int
    #: The bytes of the block (its bin's size).
    nbytes: int
    _record: Any  # the shim's pool record (ffi.gc: returns the block); None once released

    def __init__(self, record: Any, size: int) -> None:
        self._record = ffi.gc(record, lib.pycl_pool_return)
        self.size = size
        self.nbytes = record.nbytes

    def release(self) -> None:
        if self._record is None:
            raise ValueError("TestBlock.release: the block was already released")
        record, self._record = self._record, None
        ffi.release(record)

    def __repr__(self) -> str:
        state = "released" if self._record is None else "active"
        return "<pycl TestBlock of %d bytes in %d, %s>" % (self.size, self.nbytes, state)


class _TestMemoryPool(BinnedPool):
    """``_TestMemoryPool(leading_bits_in_bin_id=4)``: a pool whose allocator
    only makes tokens (the shim's opaque pool kind, which neither retains nor
    frees its blocks)."""

    _kind = lib.PYCL_POOL_OPAQUE
    _tokens: int  # the last token made
    _kept: list[TestBlock]

    def __init__(self, leading_bits_in_bin_id: int = 4) -> None:
        BinnedPool.__init__(self, None, leading_bits_in_bin_id)
        self._tokens = 0
        # allocate()'s blocks: PyOpenCL's test pool never gets them back.
        self._kept = []

    def allocate(self, size: int) -> None:
        self._kept.append(BinnedPool.allocate(self, size))

    __call__ = allocate

    def allocate_block(self, size: int) -> TestBlock:
        """A block that can go back to its bin (pycl only)."""
        return BinnedPool.allocate(self, size)

    def _set_trace(self, flag: bool) -> None:
        """Accepted for PyOpenCL compatibility: pycl's pool does not trace."""

    def _allocate_block(self, nbytes: int) -> int:
        # A distinct non-zero token per block: the shim stores it as the block.
        self._tokens += 1
        return self._tokens

    def _adopt(self, size: int, token: int) -> Any:
        return self._adopted(lib.pycl_pool_adopt(self._pool, size, ffi.cast("void *", token)))

    def _hand_out(self, record: Any, size: int) -> TestBlock:
        return TestBlock(record, size)
