"""Host arrays in pinned (page-locked) memory, which GPUs reach by DMA: an
``ALLOC_HOST_PTR`` buffer kept mapped, seen as a numpy array whose ``.base``
(a ``MemoryMap``) holds the buffer. Transfers from and to these arrays go
straight to the device; ``enqueue_copy`` does not stage them.

``pinned_empty(queue, shape, dtype)`` makes one array; ``PinnedPool(queue)``
reuses pinned buffers (a ``MemoryPool``) for arrays made often.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from pycl import constants as _constants
from pycl.allocator import ImmediateAllocator
from pycl.mapping import enqueue_map_buffer
from pycl.memory import Buffer, array_layout
from pycl.pool import MemoryPool

if TYPE_CHECKING:
    from typing import Literal

    from numpy.typing import DTypeLike, NDArray

    from pycl._typing import Extent
    from pycl.queue import CommandQueue

__all__ = ["pinned_empty", "PinnedPool"]

_mf = _constants.mem_flags
_PINNED = _mf.READ_WRITE | _mf.ALLOC_HOST_PTR
_MAP = _constants.map_flags.READ | _constants.map_flags.WRITE


def _nbytes(shape: Union[int, Extent], dtype: DTypeLike, order: Literal["C", "F"], routine: str) -> int:
    """The bytes of an array of ``shape``/``dtype`` (``shape`` checked)."""
    return array_layout(shape, dtype, order, None, routine)[3]


def _map(
    queue: CommandQueue, buf: Buffer, shape: Union[int, Extent], dtype: DTypeLike, order: Literal["C", "F"]
) -> NDArray[Any]:
    array, _ = enqueue_map_buffer(queue, buf, _MAP, 0, shape, dtype, order=order)
    return array


def pinned_empty(
    queue: CommandQueue, shape: Union[int, Extent], dtype: DTypeLike = np.float64, order: Literal["C", "F"] = "C"
) -> NDArray[Any]:
    """An uninitialized array of ``shape``/``dtype`` in pinned memory, mapped
    with ``queue``; the memory is unmapped and freed when the array goes."""
    buf = Buffer(queue.context, _PINNED, max(1, _nbytes(shape, dtype, order, "pinned_empty")))
    return _map(queue, buf, shape, dtype, order)


class PinnedPool:
    """``PinnedPool(queue, *, max_bytes=None)``: pinned arrays from a pool of
    ``ALLOC_HOST_PTR`` buffers; an array's buffer returns to the pool when
    the array (and every view of it) is gone."""

    queue: CommandQueue  # the queue the arrays are mapped with
    pool: MemoryPool  # the pool of ALLOC_HOST_PTR buffers

    def __init__(self, queue: CommandQueue, *, max_bytes: Optional[int] = None) -> None:
        self.queue = queue
        self.pool = MemoryPool(ImmediateAllocator(queue, _PINNED), max_bytes=max_bytes)

    def empty(
        self, shape: Union[int, Extent], dtype: DTypeLike = np.float64, order: Literal["C", "F"] = "C"
    ) -> NDArray[Any]:
        buf = self.pool.allocate(max(1, _nbytes(shape, dtype, order, "PinnedPool.empty")))
        return _map(self.queue, buf, shape, dtype, order)
