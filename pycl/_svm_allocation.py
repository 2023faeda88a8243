"""``SVMAllocation``, SVM from ``clSVMAlloc``, and its lifetime; the
numpy-style allocators that make one under an array (``svm_empty`` and the
like).

An SVM pointer has no reference count, so the C shim keeps one
(``cl_shim/include/pycl/svm.h``): an ``SVMAllocation`` owns a shim record of
the pointer, its context and its bound queue. When the allocation is released
or collected, the shim enqueues ``clEnqueueSVMFree`` on the bound in-order
queue, after everything queued before it, keeping the queue retained and the
pointer array alive until the free completes (PoCL 3.0 reads that array late:
docs/quirks.md). The collector runs the shim's C destructor: no Python, no
blocking, any order at interpreter exit. An allocation made without a queue
is freed at once with ``clSVMFree`` whatever is still queued, as in PyOpenCL;
pycl warns once per process when such an allocation is made.
(docs/design.md, "Lifetimes and deferred releases")
"""

from __future__ import annotations

import warnings
import weakref
from typing import TYPE_CHECKING, Any, NoReturn, Optional, Union

import numpy as np

from pycl import budget as _budget
from pycl import constants as _constants
from pycl._args import ALIGNMENTS, MAX_ALIGNMENT, SIZE_LIMIT, alignment_value, size_value, svm_flags_value, wait_list
from pycl._enqueue import enqueued
from pycl._handle import Handle
from pycl._lib import ffi, lib
from pycl._svm_checks import check_context_svm, in_order_queue
from pycl._svm_pointer import EMPTY_PTR, UINT8, ArrayBase, SVMPointer
from pycl.context import Context
from pycl.errors import MemoryError, check, logic_error
from pycl.event import out_cell
from pycl.memory import array_interface, array_layout, array_over
from pycl.queue import CommandQueue

if TYPE_CHECKING:
    from typing import Literal

    from numpy.typing import ArrayLike, DTypeLike, NDArray
    from typing_extensions import CapsuleType

    from pycl._typing import Extent, Size, WaitList
    from pycl.event import Event

__all__ = [
    "SVMAllocation",
    "svm_empty",
    "svm_empty_like",
    "csvm_empty",
    "csvm_empty_like",
    "fsvm_empty",
    "fsvm_empty_like",
    "pending_frees",
]

_smf = _constants.svm_mem_flags
_OUT_OF_ORDER = _constants.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
_gc = ffi.gc
_svm_alloc, _svm_free = lib.pycl_svm_alloc, lib.pycl_svm_free
_release, _NULL = ffi.release, ffi.NULL
_ALLOCATION_FAILURE = lib.CL_MEM_OBJECT_ALLOCATION_FAILURE
_DL_CPU = 1  # DLPack's kDLCPU


# {{{ SVMAllocation

_warned_unbound = False


def _warn_unbound(stacklevel: int) -> None:
    global _warned_unbound
    if not _warned_unbound:
        _warned_unbound = True
        warnings.warn(
            "an SVM allocation without a queue is freed at once when released or collected, even while "
            "enqueued commands still use it (PyOpenCL's SVM warning); pass queue= to free it in queue order. "
            "pycl warns once per process.",
            RuntimeWarning,
            stacklevel=stacklevel + 1,
        )


class SVMAllocation(SVMPointer, Handle):
    """``SVMAllocation(context, size, alignment, flags, queue=None)``: SVM
    from ``clSVMAlloc``. With an (in-order) ``queue``, the free is enqueued
    there after earlier commands; without, it is immediate (see the module
    docstring). ``svm_ptr``, ``size``, ``int_ptr`` (= ``svm_ptr``),
    ``==``/hash by pointer, ``release``, ``enqueue_release``,
    ``bind_to_queue``, ``unbind_from_queue``, ``with``."""

    # _charged: the bytes counted in the collection budget (pycl.budget),
    # unset when accounting was off.
    __slots__ = ("_size", "_flags", "_context", "_queue", "_full", "_charged", "__array_interface__")
    _size: int
    _flags: int
    _context: Context
    _queue: Optional[CommandQueue]
    _full: Optional[NDArray[np.uint8]]
    _charged: int
    # Set by svm_empty and the like (the array's shape and dtype); else unset.
    __array_interface__: dict[str, Any]
    _invalid_code = lib.CL_INVALID_VALUE

    def __init__(
        self, context: Context, size: Size, alignment: Size, flags: int, queue: Optional[CommandQueue] = None
    ) -> None:
        self._alloc(context, size, alignment, flags, queue, "SVMAllocation", 3)

    def _alloc(
        self,
        context: Context,
        size: Size,
        alignment: Size,
        flags: int,
        queue: Optional[CommandQueue],
        routine: str,
        stacklevel: int,
    ) -> None:
        self._handle = None
        # The common case in a few attribute reads; everything else (and the
        # first allocation per context and flags) takes the full checks.
        try:
            ctx = context._handle
            svm_flags = context._svm_flags
        except AttributeError:
            ctx, svm_flags = None, set()
        if (
            ctx is None
            or type(flags) is not int
            or flags not in svm_flags
            or type(size) is not int
            or not 0 <= size <= SIZE_LIMIT
            or type(alignment) is not int
            or alignment not in ALIGNMENTS
        ):
            if not isinstance(context, Context):
                raise TypeError("%s: context must be a pycl.Context, not %s" % (routine, type(context).__name__))
            ctx = context._live()
            size = size_value(size, "size", routine)
            alignment = alignment_value(alignment, routine)
            flags = svm_flags_value(flags, routine)
            check_context_svm(context, flags, routine)
            context._svm_flags.add(flags)
        if queue is None:
            q = _NULL
            if not _warned_unbound:
                _warn_unbound(stacklevel)
        elif (
            type(queue) is CommandQueue
            and queue._context is context
            and not queue._properties & _OUT_OF_ORDER
            and queue._handle is not None
        ):
            q = queue._handle
        else:
            q = in_order_queue(queue, context, routine)
        if _budget.enabled:
            _budget.charge(context, size)
            self._charged = size
        out = out_cell("struct pycl_svm *")[0]
        status = _svm_alloc(ctx, flags, size, alignment, q, out)
        if status == _ALLOCATION_FAILURE:
            _budget.collect()  # collected allocations give their memory back (queued frees complete soon)
            status = lib.pycl_svm_alloc(ctx, flags, size, alignment, q, out)
        if status:
            what = "size %d, alignment %d, flags %s" % (size, alignment, _smf.to_string(flags, "0x%x"))
            if status == _ALLOCATION_FAILURE:
                raise MemoryError("clSVMAlloc", status, what + " (returned NULL, also after a garbage collection)")
            check(status, "clSVMAlloc", what)
        record = out[0]
        self._handle = _gc(record, _svm_free)  # no size: see MemoryObject._adopt
        self._ptr = record.address
        self._size = size
        self._flags = flags
        self._context = context
        self._queue = queue
        self._full = None

    def _pointer(self, routine: str) -> tuple[int, int, SVMAllocation]:
        if self._handle is None:
            raise self._released_error(routine)
        return self._ptr, self._size, self

    @property
    def svm_ptr(self) -> int:
        if self._handle is None:
            raise self._released_error("SVMAllocation.svm_ptr")
        return self._ptr

    def _bytes_array(self, ptr: int, size: int) -> NDArray[np.uint8]:
        # One uint8 array over the whole allocation, made once (numpy's
        # __array_interface__ path costs microseconds, on PyPy the most);
        # buf and maps hand out views. Its base holds the shim record, not
        # this object, so there is no reference cycle and collection stays
        # prompt; a live view keeps the memory allocated.
        full = self._full
        if full is None:
            interface = array_interface(ptr if self._size else EMPTY_PTR, (self._size,), UINT8, None)
            full = self._full = np.asarray(ArrayBase(self._handle, interface, weakref.ref(self)))
        return full.view() if size == self._size else full[:size]

    @property
    def size(self) -> int:
        if self._handle is None:
            raise self._released_error("SVMAllocation.size")
        return self._size

    @property
    def nbytes(self) -> int:
        return self.size

    @property
    def context(self) -> Context:
        self._live()
        return self._context

    @property
    def queue(self) -> Optional[CommandQueue]:
        """The queue the free is bound to, or None."""
        self._live()
        return self._queue

    def _check_unmapped(self, record: Any, routine: str) -> None:
        if record.maps:
            raise logic_error(
                routine,
                "%r is still mapped (%d live SVMMap%s): release the map first"
                % (self, record.maps, "s"[: record.maps > 1]),
                lib.CL_INVALID_OPERATION,
            )

    def release(self) -> None:
        """Free the memory now: enqueued on the bound queue, else at once. A
        second call raises ``LogicError``."""
        record = self._handle
        if record is None:
            raise self._released_error("SVMAllocation.release")
        if record.maps:
            self._check_unmapped(record, "SVMAllocation.release")
        self._handle = None
        _release(record)
        if _budget.enabled:
            _budget.credit_object(self._context, self)

    def enqueue_release(self, queue: Optional[CommandQueue] = None, wait_for: WaitList = None) -> Event:
        """Enqueue the free on ``queue`` (default: the bound queue) after
        ``wait_for``; returns its Event. The allocation is released."""
        routine = "SVMAllocation.enqueue_release"
        record = self._handle
        if record is None:
            raise self._released_error(routine)
        if queue is None:
            if self._queue is None:
                raise logic_error(routine, "%r is bound to no queue: pass queue" % self, lib.CL_INVALID_COMMAND_QUEUE)
            q = ffi.NULL
        else:
            q = in_order_queue(queue, self._context, routine, in_order=False)
        self._check_unmapped(record, routine)
        count, events = wait_list(wait_for, routine)
        out = out_cell()[0]
        status = lib.pycl_svm_enqueue_release(record, q, count, events, out)
        event = enqueued(status, out, "clEnqueueSVMFree")
        self._handle = None
        ffi.release(record)
        if _budget.enabled:
            _budget.credit_object(self._context, self)
        return event

    # DLPack: fine-grain SVM is host memory the host may use directly (after
    # the device's work is ordered before it), so it exports like a numpy
    # array; the capsule is that of a numpy view whose base holds this
    # allocation, which stays allocated as long as the consumer holds it.
    # Coarse-grain SVM is host-visible only while mapped: export the map.
    def _dlpack_check(self, routine: str) -> None:
        if self._handle is None:
            raise self._released_error(routine)
        if not self._flags & _smf.SVM_FINE_GRAIN_BUFFER:
            raise BufferError(
                "%s: %r is coarse-grain SVM, which the host may touch only while it is mapped; map it "
                "(map_rw(queue)) and export the SVMMap's array, or allocate with SVM_FINE_GRAIN_BUFFER"
                % (routine, self)
            )

    def _dlpack_view(self) -> NDArray[Any]:
        self._dlpack_check("SVMAllocation.__dlpack__")
        if getattr(self, "__array_interface__", None) is not None:
            return np.asarray(self)  # made by svm_empty and the like: their shape and dtype
        interface = array_interface(self._ptr if self._size else EMPTY_PTR, (self._size,), UINT8, None)
        return np.asarray(ArrayBase(self, interface))

    def __dlpack__(self, **kwargs: Any) -> CapsuleType:
        """DLPack export of fine-grain SVM (``numpy.from_dlpack`` shares the
        memory); keywords go to ``numpy.ndarray.__dlpack__``. The shape and
        dtype are the array's for ``svm_empty``-made allocations, else
        ``size`` bytes (uint8). Coarse-grain SVM raises ``BufferError``: map
        it and export the map's array."""
        return self._dlpack_view().__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        """``(kDLCPU, 0)``: fine-grain SVM is host memory."""
        self._dlpack_check("SVMAllocation.__dlpack_device__")
        return (_DL_CPU, 0)

    def bind_to_queue(self, queue: CommandQueue) -> None:
        """Free on ``queue`` from now on; work queued on the old queue is
        ordered before the new queue's later commands (marker + barrier)."""
        routine = "SVMAllocation.bind_to_queue"
        record = self._live()
        q = in_order_queue(queue, self._context, routine)
        check(lib.pycl_svm_bind(record, q), routine)
        self._queue = queue

    def unbind_from_queue(self) -> None:
        """Free at once from now on; finishes the old queue first."""
        record = self._live()
        check(lib.pycl_svm_unbind(record), "SVMAllocation.unbind_from_queue")
        self._queue = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SVMAllocation):
            return NotImplemented
        if self._handle is None or other._handle is None or not self._ptr:
            return self is other
        return self._ptr == other._ptr

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash(self._ptr)

    @classmethod
    def from_int_ptr(cls, int_ptr_value: int, retain: bool = True) -> NoReturn:
        raise logic_error(
            "SVMAllocation.from_int_ptr",
            "an SVM pointer has no reference count, so it cannot have a second owner; wrap foreign SVM memory "
            "in a buffer-protocol object and tag it with pycl.SVM",
        )

    def get_info(self, param: int) -> NoReturn:
        raise logic_error("SVMAllocation.get_info", "SVM allocations have no info queries")

    def __repr__(self) -> str:
        if self._handle is None:
            return "<pycl.SVMAllocation released>"
        return "<pycl.SVMAllocation of %d bytes at 0x%x%s>" % (
            self._size,
            self._ptr,
            "" if self._queue is None else ", freed on its queue",
        )


def pending_frees(wait: bool = False) -> int:
    """Enqueue the shim's batched frees and say how many frees and dropped
    references are still pending; ``wait=True`` first finishes the queues of
    running frees (blocking). For tests."""
    return lib.pycl_svm_drain(1 if wait else 0)


# }}}


# {{{ numpy-style allocation


def _default_alignment(dtype: np.dtype[Any]) -> int:
    itemsize = dtype.itemsize
    return itemsize if itemsize <= MAX_ALIGNMENT and not itemsize & (itemsize - 1) else 0


def svm_empty(
    ctx: Context,
    flags: int,
    shape: Union[Size, Extent],
    dtype: DTypeLike,
    order: Literal["C", "F", "c", "f"] = "C",
    alignment: Optional[Size] = None,
    queue: Optional[CommandQueue] = None,
) -> NDArray[Any]:
    """An uninitialized numpy array of ``shape``/``dtype``/``order`` in SVM of
    ``ctx``; its ``.base`` is the ``SVMAllocation``. ``alignment`` defaults
    to the itemsize (0, the driver's default, if that is no power of two)."""
    return _svm_empty(ctx, flags, shape, dtype, order, alignment, queue, "svm_empty")


def _svm_empty(
    ctx: Context,
    flags: int,
    shape: Union[Size, Extent],
    dtype: DTypeLike,
    order: str,
    alignment: Optional[Size],
    queue: Optional[CommandQueue],
    routine: str,
) -> NDArray[Any]:
    if order in ("c", "f"):
        order = order.upper()
    shape, dtype, strides, nbytes = array_layout(shape, dtype, order, None, routine)
    if alignment is None:
        alignment = _default_alignment(dtype)
    alloc = SVMAllocation.__new__(SVMAllocation)
    alloc._handle = None
    alloc._alloc(ctx, nbytes, alignment, flags, queue, routine, 4)
    alloc.__array_interface__ = array_interface(alloc._ptr if nbytes else EMPTY_PTR, shape, dtype, strides)
    return array_over(alloc, dtype)


def _like(ary: ArrayLike) -> tuple[tuple[int, ...], np.dtype[Any], str]:
    ary = np.asarray(ary)
    order = "F" if ary.flags.f_contiguous and not ary.flags.c_contiguous else "C"
    return ary.shape, ary.dtype, order


def svm_empty_like(
    ctx: Context, flags: int, ary: ArrayLike, alignment: Optional[Size] = None, queue: Optional[CommandQueue] = None
) -> NDArray[Any]:
    """Like ``svm_empty`` with the shape, dtype and order of ``ary``."""
    shape, dtype, order = _like(ary)
    return _svm_empty(ctx, flags, shape, dtype, order, alignment, queue, "svm_empty_like")


def csvm_empty(
    ctx: Context,
    shape: Union[Size, Extent],
    dtype: DTypeLike,
    order: Literal["C", "F", "c", "f"] = "C",
    alignment: Optional[Size] = None,
    queue: Optional[CommandQueue] = None,
) -> NDArray[Any]:
    """``svm_empty`` of coarse-grain read-write SVM (map before host use)."""
    return _svm_empty(ctx, _smf.READ_WRITE, shape, dtype, order, alignment, queue, "csvm_empty")


def csvm_empty_like(
    ctx: Context, ary: ArrayLike, alignment: Optional[Size] = None, queue: Optional[CommandQueue] = None
) -> NDArray[Any]:
    """``csvm_empty`` with the shape, dtype and order of ``ary``."""
    shape, dtype, order = _like(ary)
    return _svm_empty(ctx, _smf.READ_WRITE, shape, dtype, order, alignment, queue, "csvm_empty_like")


def fsvm_empty(
    ctx: Context,
    shape: Union[Size, Extent],
    dtype: DTypeLike,
    order: Literal["C", "F", "c", "f"] = "C",
    alignment: Optional[Size] = None,
    queue: Optional[CommandQueue] = None,
) -> NDArray[Any]:
    """``svm_empty`` of fine-grain read-write SVM (host use without maps)."""
    flags = _smf.READ_WRITE | _smf.SVM_FINE_GRAIN_BUFFER
    return _svm_empty(ctx, flags, shape, dtype, order, alignment, queue, "fsvm_empty")


def fsvm_empty_like(
    ctx: Context, ary: ArrayLike, alignment: Optional[Size] = None, queue: Optional[CommandQueue] = None
) -> NDArray[Any]:
    """``fsvm_empty`` with the shape, dtype and order of ``ary``."""
    shape, dtype, order = _like(ary)
    flags = _smf.READ_WRITE | _smf.SVM_FINE_GRAIN_BUFFER
    return _svm_empty(ctx, flags, shape, dtype, order, alignment, queue, "fsvm_empty_like")


# }}}
