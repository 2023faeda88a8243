"""The device memory an operation of ``pycl.mpi`` reads or writes: a Buffer
(or sub-buffer) or SVM, from a byte offset, ``count`` elements of a dtype,
checked as pycl checks a transfer's extent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

import numpy as np

from pycl import constants as _constants
from pycl._args import dtype_of, size_value
from pycl.errors import logic_error
from pycl.mapping import enqueue_map_buffer
from pycl.memory import Buffer
from pycl.mpi import config as _config
from pycl.transfer import enqueue_copy

if TYPE_CHECKING:
    from pycl.event import Event
    from pycl.queue import CommandQueue

__all__ = ["Region", "region"]

_map = _constants.map_flags
_UINT8 = np.dtype(np.uint8)


class Region:
    """``nbytes`` bytes of ``mem`` from ``offset``: ``count`` elements of
    ``dtype``. ``staged``: moved through pinned slots (else mapped)."""

    __slots__ = ("queue", "mem", "svm", "offset", "nbytes", "count", "dtype", "staged")

    def __init__(self, queue: CommandQueue, mem: Any, svm: Any, offset: int, count: int, dtype: np.dtype[Any]) -> None:
        self.queue = queue
        self.mem = mem
        self.svm = svm  # the SVM's bytes (a numpy uint8 array), or None for a Buffer
        self.offset = offset
        self.count = count
        self.dtype = dtype
        self.nbytes = count * dtype.itemsize
        self.staged = _config.staged(queue.device.type)

    def _svm(self, at: int, n: int) -> Any:
        from pycl.svm import SVM

        return SVM(self.svm[self.offset + at : self.offset + at + n])

    def read(self, at: int, host: np.ndarray, queue: Optional[CommandQueue] = None, blocking: bool = False) -> Event:
        """Enqueue the copy of ``len(host)`` bytes from ``at`` into ``host``
        (on ``queue``, default the region's)."""
        queue = queue or self.queue
        if self.svm is None:
            return enqueue_copy(queue, host, self.mem, src_offset=self.offset + at, is_blocking=blocking)
        return enqueue_copy(queue, host, self._svm(at, host.nbytes), is_blocking=blocking)

    def write(self, at: int, host: np.ndarray, queue: Optional[CommandQueue] = None, blocking: bool = False) -> Event:
        """Enqueue the copy of ``host`` to ``at`` (on ``queue``, default the
        region's)."""
        queue = queue or self.queue
        if self.svm is None:
            return enqueue_copy(queue, self.mem, host, dst_offset=self.offset + at, is_blocking=blocking)
        return enqueue_copy(queue, self._svm(at, host.nbytes), host, is_blocking=blocking)

    def map(self, writable: bool, readable: bool = True) -> tuple[np.ndarray, Callable[[], None]]:
        """The region's bytes mapped for the host (blocking), and the
        function that unmaps them (and waits for the unmap)."""
        if not self.nbytes:
            return np.empty(0, np.uint8), lambda: None
        flags = (_map.READ if readable else 0) | (_map.WRITE if writable else 0)
        if writable and not readable:
            flags = _map.WRITE_INVALIDATE_REGION
        if self.svm is None:
            array, _ = enqueue_map_buffer(self.queue, self.mem, flags, self.offset, (self.nbytes,), _UINT8)
            memory_map: Any = array.base  # the MemoryMap

            def unmap() -> None:
                memory_map.release(self.queue).wait()

            return array, unmap
        svm_map = self._svm(0, self.nbytes).map(self.queue, flags=flags)

        def unmap_svm() -> None:
            svm_map.release(self.queue).wait()

        return np.frombuffer(svm_map.array, np.uint8), unmap_svm


def region(queue: CommandQueue, mem: Any, offset: Any, count: Any, dtype: Any, routine: str, name: str) -> Region:
    """The checked region of ``mem`` (argument ``name`` of ``routine``):
    a Buffer of ``queue``'s context, an SVM allocation or ``SVM`` tag, or a
    numpy array in SVM (from ``svm_empty``); ``dtype`` None means the
    array's dtype, else bytes (uint8); ``count`` None means as many whole
    elements as lie past ``offset``."""
    svm: Optional[np.ndarray] = None
    if isinstance(mem, np.ndarray):
        from pycl.svm import SVM

        if dtype is None:
            dtype = mem.dtype
        mem = SVM(mem)
    if isinstance(mem, Buffer):
        if mem.context != queue.context:
            raise logic_error(routine, "%s belongs to another context than the Comm's queue" % name)
        size = mem.size
    elif getattr(mem, "_is_svm_pointer", False):
        svm = mem.buf
        size = svm.nbytes
        owner = getattr(mem, "_alloc", mem)
        context = getattr(owner, "context", None)
        if context is not None and context != queue.context:
            raise logic_error(routine, "%s belongs to another context than the Comm's queue" % name)
    else:
        raise TypeError(
            "%s: %s must be a pycl.Buffer, an SVM allocation or a numpy array in SVM, not %s"
            % (routine, name, type(mem).__name__)
        )
    the_dtype = _UINT8 if dtype is None else dtype_of(dtype)
    if the_dtype.kind not in "biufc" or the_dtype.fields is not None or the_dtype.subdtype is not None:
        raise TypeError("%s: dtype must be a numpy number or bool dtype, not %s" % (routine, the_dtype))
    offset = size_value(offset, "offset", routine)
    if offset > size:
        raise logic_error(routine, "offset = %d is past the end of %s (%d bytes)" % (offset, name, size))
    if count is None:
        count = (size - offset) // the_dtype.itemsize
    else:
        count = size_value(count, "count", routine)
        end = offset + count * the_dtype.itemsize
        if end > size:
            raise logic_error(
                routine,
                "offset %d + count %d x %d bytes = %d is past the end of %s (%d bytes)"
                % (offset, count, the_dtype.itemsize, end, name, size),
            )
    return Region(queue, mem, svm, offset, count, the_dtype)
