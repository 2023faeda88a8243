"""``SVMPointer``, the common base of ``SVMAllocation`` and the ``SVM`` tag:
the pointer, its host views (``buf`` and maps), ``SVMMap``, ``as_buffer`` and
the kernel argument cell. Coarse-grain SVM must be mapped before the host
touches it; a map that is collected unmapped is unmapped by the shim.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from pycl import constants as _constants
from pycl._args import map_flags_value, size_value, wait_list
from pycl._enqueue import enqueued
from pycl._lib import ffi, lib
from pycl._svm_checks import check_map_survives, svm_queue
from pycl.errors import check, logic_error
from pycl.event import Event, out_cell, take_event
from pycl.memory import array_interface
from pycl.queue import CommandQueue, queue_handle

if TYPE_CHECKING:
    from types import TracebackType
    from typing import Protocol

    from numpy.typing import NDArray

    from pycl._typing import Size, WaitList
    from pycl.context import Context
    from pycl.memory import Buffer

    class _Owner(Protocol):
        """What owns the memory behind an SVM pointer (the third item of
        ``SVMPointer._pointer``): an ``SVMAllocation`` or a pool's
        ``PooledSVM`` (pycl.pool, which imports this module)."""

        @property
        def _context(self) -> Context: ...

        def _live(self) -> Any: ...


__all__ = ["SVMPointer", "SVMMap", "ArrayBase", "EMPTY_PTR", "UINT8"]

_map = _constants.map_flags
_new, _gc, _release = ffi.new, ffi.gc, ffi.release
_svm_map, _svm_unmap, _svm_mapping_free = lib.pycl_svm_map, lib.pycl_svm_unmap, lib.pycl_svm_mapping_free
_MAPPING_OUT = ffi.typeof("struct pycl_svm_mapping **")
UINT8 = np.dtype(np.uint8)
_EMPTY = ffi.new("char[1]")  # the data pointer of empty arrays (PyPy's numpy refuses NULL)
EMPTY_PTR = int(ffi.cast("uintptr_t", _EMPTY))


class ArrayBase:
    """The ``.base`` of an array over SVM memory: holds the SVM object (for
    an SVMAllocation: its shim record, and a weak reference to it)."""

    __slots__ = ("__array_interface__", "svm", "allocation")
    __array_interface__: dict[str, Any]
    svm: Any  # an SVMPointer, or an SVMAllocation's shim record
    allocation: Optional[weakref.ReferenceType[Any]]  # to the SVMAllocation (whose module imports this one)

    def __init__(
        self, svm: Any, interface: dict[str, Any], allocation: Optional[weakref.ReferenceType[Any]] = None
    ) -> None:
        self.svm = svm
        self.__array_interface__ = interface
        self.allocation = allocation


class SVMPointer:
    """Something whose SVM pointer pycl can pass on (kernel arguments,
    copies, fills, maps): ``SVMAllocation`` and the ``SVM`` tag."""

    __slots__ = ()
    _transfer_kind = "svm"
    _is_svm_pointer = True

    def _pointer(self, routine: str) -> tuple[int, Optional[int], Optional[_Owner]]:
        """``(pointer int, size or None, owning SVMAllocation or None)``,
        raising LogicError if the memory was released."""
        raise NotImplementedError

    @property
    def svm_ptr(self) -> int:
        """The SVM pointer as an int."""
        return self._pointer("SVMPointer.svm_ptr")[0]

    @property
    def size(self) -> Optional[int]:
        """The size in bytes (None if unknown)."""
        return self._pointer("SVMPointer.size")[1]

    @property
    def buf(self) -> NDArray[np.uint8]:
        """A numpy uint8 array over the memory (its ``.base`` keeps this
        object alive). Coarse-grain SVM must be mapped before the host reads
        or writes it."""
        ptr, size, _ = self._pointer("SVMPointer.buf")
        if size is None:
            raise logic_error("SVMPointer.buf", "the size of %r is unknown" % self)
        return self._bytes_array(ptr, size)

    def _bytes_array(self, ptr: int, size: int) -> NDArray[np.uint8]:
        interface = array_interface(ptr if size else EMPTY_PTR, (size,), UINT8, None)
        return np.asarray(ArrayBase(self, interface))

    def map(
        self,
        queue: CommandQueue,
        *,
        flags: int,
        is_blocking: bool = True,
        wait_for: WaitList = None,
        size: Optional[Size] = None,
    ) -> SVMMap:
        """Map ``size`` bytes (default: all) for the host; returns an
        ``SVMMap`` whose array has ``size`` bytes. With ``is_blocking=False``
        wait for ``SVMMap.event`` before touching the array."""
        routine = "SVMPointer.map"
        ptr, total, alloc = self._pointer(routine)
        if size is None:
            if total is None:
                raise logic_error(routine, "the size of %r is unknown: pass size" % self)
            size = total
        else:
            size = size_value(size, "size", routine)
            if total is not None and size > total:
                raise logic_error(routine, "size = %d exceeds the %d bytes of %r" % (size, total, self))
        mapping, event = self._enqueue_map(queue, flags, is_blocking, wait_for, ptr, size, alloc, routine)
        return SVMMap._make(self, self._bytes_array(ptr, size), queue, event, mapping)

    def map_ro(
        self, queue: CommandQueue, *, is_blocking: bool = True, wait_for: WaitList = None, size: Optional[Size] = None
    ) -> SVMMap:
        """Like ``map`` with ``map_flags.READ``."""
        return self.map(queue, flags=_map.READ, is_blocking=is_blocking, wait_for=wait_for, size=size)

    def map_rw(
        self, queue: CommandQueue, *, is_blocking: bool = True, wait_for: WaitList = None, size: Optional[Size] = None
    ) -> SVMMap:
        """Like ``map`` with ``map_flags.READ | map_flags.WRITE``."""
        return self.map(queue, flags=_map.READ | _map.WRITE, is_blocking=is_blocking, wait_for=wait_for, size=size)

    def _enqueue_map(
        self,
        queue: CommandQueue,
        flags: int,
        is_blocking: bool,
        wait_for: WaitList,
        ptr: int,
        size: int,
        alloc: Optional[_Owner],
        routine: str,
    ) -> tuple[Any, Event]:
        if alloc is None or type(queue) is not CommandQueue or queue._handle is None:
            q = svm_queue(queue, routine)
        else:
            q = queue._handle  # the allocation's context has SVM; the context check follows
        flags = map_flags_value(flags, None, routine)
        if alloc is None:
            owner = ffi.NULL
        elif alloc._context._ptr != queue._context._ptr:
            raise logic_error(routine, "%r belongs to another context than the queue" % alloc, lib.CL_INVALID_CONTEXT)
        else:
            owner = alloc._live()
        check_map_survives(queue, routine)
        count, events = wait_list(wait_for, routine)
        out = out_cell()[0]
        mapping = _new(_MAPPING_OUT)
        status = _svm_map(
            q, 1 if is_blocking else 0, flags, owner, ffi.cast("void *", ptr), size, count, events, out, mapping
        )
        event = enqueued(status, out, "clEnqueueSVMMap", "%d bytes at 0x%x", size, ptr)
        return _gc(mapping[0], _svm_mapping_free), event

    def as_buffer(self, ctx: Context, *, flags: Optional[int] = None, size: Optional[Size] = None) -> Buffer:
        """A ``Buffer`` over this memory (``mem_flags``, default READ_WRITE |
        USE_HOST_PTR; ``size`` default: all). Release the Buffer before the
        memory is freed."""
        from pycl.memory import Buffer

        if flags is None:
            flags = _constants.mem_flags.READ_WRITE | _constants.mem_flags.USE_HOST_PTR
        if size is None:
            size = self.size
        buf = self.buf
        return Buffer(ctx, flags, size=size, hostbuf=buf)  # type: ignore[arg-type]  # self.buf raised if size is None

    def _kernel_arg(self, routine: str) -> tuple[int, int, Any, Optional[int]]:
        """(mark, size, value, context address or None) for a kernel's
        argument cell (pycl._kernel_args): the pointer itself."""
        ptr, _, owner = self._pointer(routine)
        return lib.PYCL_ARG_SVM, 0, ffi.cast("void *", ptr), None if owner is None else owner._context._ptr


class SVMMap:
    """A mapped SVM region (from ``SVMPointer.map``/``SVM.map``): ``svm``,
    ``array``, ``queue``, ``event``; ``release(queue=None, wait_for=None)``
    unmaps (a second call raises ``LogicError``); ``with m as ary:`` yields
    the array and unmaps on exit. A map that is collected unmapped is
    unmapped by the shim (no Python, non-blocking), before the memory's free."""

    __slots__ = ("svm", "array", "queue", "event", "_mapping")
    #: The mapped memory.
    svm: SVMPointer
    #: The mapped bytes: a numpy uint8 array (``SVMPointer.map``), or the
    #: tagged object itself (``SVM.map``).
    array: Any
    #: The queue of the map.
    queue: CommandQueue
    #: The map's event.
    event: Event
    _mapping: Any

    def __init__(self, svm: SVMPointer, array: Any, queue: CommandQueue, event: Event) -> None:
        raise TypeError("SVMMap objects are made by SVMPointer.map and SVM.map")

    @classmethod
    def _make(cls, svm: SVMPointer, array: Any, queue: CommandQueue, event: Event, mapping: Any) -> SVMMap:
        self = cls.__new__(cls)
        self.svm = svm
        self.array = array
        self.queue = queue
        self.event = event
        self._mapping = mapping
        return self

    @property
    def is_released(self) -> bool:
        return self._mapping is None

    def release(self, queue: Optional[CommandQueue] = None, wait_for: WaitList = None) -> Event:
        """Enqueue the unmap on ``queue`` (default: the map's) after
        ``wait_for``; returns its Event."""
        out = out_cell()[0]
        self._unmap(queue, wait_for, out)
        return take_event(Event, out)

    def _unmap(self, queue: Optional[CommandQueue], wait_for: WaitList, out: Any) -> None:
        routine = "SVMMap.release"
        mapping = self._mapping
        if mapping is None:
            raise logic_error(routine, "this SVMMap was already released (unmapped)")
        q = ffi.NULL if queue is None else queue_handle(queue, routine)
        count, events = wait_list(wait_for, routine)
        status = _svm_unmap(mapping, q, count, events, out)
        if status:
            check(status, "clEnqueueSVMUnmap")
        self._mapping = None
        _release(mapping)

    def __enter__(self) -> Any:
        return self.array

    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc_value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        if self._mapping is not None:
            self._unmap(None, None, ffi.NULL)  # nobody sees the event: none is made

    def __repr__(self) -> str:
        return "<pycl.SVMMap of %r, %s>" % (self.svm, "released" if self._mapping is None else "mapped")
