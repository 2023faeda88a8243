"""The ``SVM`` tag: a buffer-protocol object (an array from ``csvm_empty``,
a view of one, or host memory on a device with fine-grain system SVM) taken
as shared virtual memory. A tag over an ``SVMAllocation``'s array finds that
allocation, so a released allocation is refused instead of read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from pycl import constants as _constants
from pycl._args import describe, host_bytes
from pycl._lib import ffi, lib
from pycl._svm_allocation import SVMAllocation
from pycl._svm_pointer import ArrayBase, SVMMap, SVMPointer
from pycl.errors import LogicError, logic_error

if TYPE_CHECKING:
    from pycl._typing import HostSource, WaitList
    from pycl.queue import CommandQueue

__all__ = ["SVM"]

_map = _constants.map_flags


def _find_allocation(obj: object) -> Optional[SVMAllocation]:
    """The SVMAllocation at the end of ``obj``'s ``.base`` chain, if any."""
    for _ in range(64):
        if obj is None:
            return None
        if isinstance(obj, SVMAllocation):
            return obj
        if isinstance(obj, ArrayBase):
            if obj.allocation is not None:
                return obj.allocation()  # None once collected: the array alone keeps the memory
            obj = obj.svm
            if isinstance(obj, SVM):
                return obj._alloc
            continue
        obj = getattr(obj, "base", None)
    return None


class SVM(SVMPointer):
    """``SVM(mem)``: tags a buffer-protocol object (e.g. an array from
    ``csvm_empty``/``fsvm_empty``, or any host array on a device with
    fine-grain system SVM) as shared virtual memory for kernel arguments,
    copies, fills and maps. ``mem`` must be C-contiguous (or Fortran-)."""

    __slots__ = ("mem", "_data", "_ptr", "_size", "_alloc", "_writable")
    #: The tagged object, as given.
    mem: Any
    _data: Any
    _ptr: int
    _size: int
    _alloc: Optional[SVMAllocation]
    _writable: bool

    def __init__(self, mem: HostSource) -> None:
        try:
            data = host_bytes(mem, True, "SVM", "mem")
            self._writable = True
        except LogicError:  # read-only memory: fine for reads
            data = host_bytes(mem, False, "SVM", "mem")
            self._writable = False
        self.mem = mem
        self._data = data
        self._size = len(data)
        self._ptr = int(ffi.cast("uintptr_t", data))
        self._alloc = _find_allocation(mem)

    def _pointer(self, routine: str) -> tuple[int, int, Optional[SVMAllocation]]:
        alloc = self._alloc
        if alloc is not None and alloc._handle is None:
            # describe(), not repr(): the array's memory is gone (NVIDIA unmaps
            # freed SVM, and printing its values crashed the process)
            raise logic_error(
                routine,
                "the SVMAllocation under this SVM tag (%s) was released" % describe(self.mem),
                lib.CL_INVALID_VALUE,
            )
        return self._ptr, self._size, alloc

    @property
    def _handle(self) -> Any:
        """None once the underlying allocation is released (kernels check it)."""
        alloc = self._alloc
        return True if alloc is None else alloc._handle

    # PyOpenCL's SVM.map takes flags positionally and has no ``size``.
    def map(  # type: ignore[override]
        self, queue: CommandQueue, flags: int, is_blocking: bool = True, wait_for: WaitList = None
    ) -> SVMMap:
        """Map all of ``mem``; the ``SVMMap``'s array is ``mem`` itself."""
        routine = "SVM.map"
        ptr, size, alloc = self._pointer(routine)
        mapping, event = self._enqueue_map(queue, flags, is_blocking, wait_for, ptr, size, alloc, routine)
        return SVMMap._make(self, self.mem, queue, event, mapping)

    def map_ro(  # type: ignore[override]  # no size=, as in PyOpenCL
        self, queue: CommandQueue, is_blocking: bool = True, wait_for: WaitList = None
    ) -> SVMMap:
        return self.map(queue, _map.READ, is_blocking=is_blocking, wait_for=wait_for)

    def map_rw(  # type: ignore[override]  # no size=, as in PyOpenCL
        self, queue: CommandQueue, is_blocking: bool = True, wait_for: WaitList = None
    ) -> SVMMap:
        return self.map(queue, _map.READ | _map.WRITE, is_blocking=is_blocking, wait_for=wait_for)

    def __repr__(self) -> str:
        return "<pycl.SVM of %s (%d bytes at 0x%x)>" % (describe(self.mem), self._size, self._ptr)
