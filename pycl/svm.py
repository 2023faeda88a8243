"""Shared virtual memory: ``SVMPointer``, ``SVMAllocation``, the ``SVM`` tag,
``SVMMap``, the numpy-style allocators, fills, migration, SVM kernel
arguments, and SVM routes for ``enqueue_copy`` and ``enqueue_fill``.

SVM needs OpenCL 2.0 and, on OpenCL 3.0, a device that reports SVM
capabilities. Elsewhere (Oclgrind, ``PYCL_FORCE_CL_VERSION=1.2``) every call
raises ``pycl.UnavailableError`` saying what is needed and what the device
reports; the classes always exist.

Lifetimes. An SVM pointer has no reference count, so the C shim keeps one
(``cl_shim/include/pycl/svm.h``): an ``SVMAllocation`` owns a shim record of the
pointer, its context and its bound queue. When the allocation is released or
collected, the shim enqueues ``clEnqueueSVMFree`` on the bound in-order queue,
after everything queued before it, keeping the queue retained and the pointer
array alive until the free completes (PoCL 3.0 reads that array late:
QUIRKS.md). The collector runs the shim's C destructor: no Python, no blocking,
any order at interpreter exit. An allocation made without a queue is freed at
once with ``clSVMFree`` whatever is still queued, as in PyOpenCL; pycl warns
once per process when such an allocation is made.

Coarse-grain SVM must be mapped (``map_rw`` ...) before the host touches it;
fine-grain SVM (``fsvm_empty``) may be used from the host directly, after
``queue.finish()`` or an event wait has ordered the device's work.

Differences from PyOpenCL (docs/differences.md has the reasons):

- ``enqueue_svm_memfill(byte_count=...)`` fills ``byte_count`` bytes
  (PyOpenCL checks it, then fills everything) and ``SVMPointer.map(size=...)``
  maps ``size`` bytes and returns an array of that many bytes.
- Host<->SVM copies return a ``NannyEvent`` that keeps the host object alive
  until a non-blocking copy completes (PyOpenCL: a plain ``Event``).
- After ``release()`` every use (``svm_ptr``, ``size``, copies, maps, kernel
  arguments, ``SVM`` tags of its arrays) raises ``LogicError``; PyOpenCL
  answers ``svm_ptr`` with 0. Releasing an allocation while one of its maps is
  live raises ``LogicError`` (unmap first).
- Zero-size allocations make no driver call and have ``svm_ptr`` 0.
- ``alignment`` must be 0 or a power of two of at most 128 bytes (OpenCL's
  rule, checked before the driver, which would return NULL); the allocators'
  default is the itemsize when that is such a power of two, else 0 (the
  driver's default).
- ``svm_empty_like``, ``csvm_*`` and ``fsvm_*`` take ``queue=`` too.
- ``src_offset``/``dst_offset`` other than 0 are ``LogicError`` on SVM
  copies (slice the array instead: ``SVM(ary[a:b])``), and ``enqueue_fill``
  on SVM rejects ``offset`` with ``LogicError`` (PyOpenCL:
  ``NotImplementedError``).
"""

from __future__ import annotations

import warnings
import weakref
from typing import TYPE_CHECKING, Any, NoReturn, Optional, Union

import numpy as np

from pycl._lib import ffi, lib
from pycl import budget as _budget
from pycl import constants as _constants
from pycl import transfer as _transfer
from pycl._args import ALIGNMENTS, MAX_ALIGNMENT, SIZE_LIMIT, alignment_value, bits_value, describe, host_bytes
from pycl._args import map_flags_value, no_offset, size_value, svm_flags_value, uint_value, wait_list
from pycl import _wards
from pycl.context import Context
from pycl.errors import LogicError, MemoryError, UnavailableError, check, logic_error
from pycl.event import Event, NannyEvent, out_cell, take_event
from pycl._handle import Handle
from pycl.memory import array_interface, array_layout
from pycl.queue import CommandQueue, queue_handle

if TYPE_CHECKING:
    from collections.abc import Iterable
    from types import TracebackType
    from typing import Literal, Protocol

    from numpy.typing import ArrayLike, DTypeLike, NDArray
    from typing_extensions import CapsuleType

    from pycl._typing import Extent, HostDestination, HostSource, Size, WaitList
    from pycl.memory import Buffer
    from pycl.platform import Device
    from pycl.program import Kernel

    class _Owner(Protocol):
        """What owns the memory behind an SVM pointer (the third item of
        ``SVMPointer._pointer``): an ``SVMAllocation`` or a pool's
        ``PooledSVM`` (pycl.pool, which imports this module)."""

        @property
        def _context(self) -> Context: ...

        def _live(self) -> Any: ...


__all__ = [
    "SVMPointer",
    "SVMAllocation",
    "SVM",
    "SVMMap",
    "svm_empty",
    "svm_empty_like",
    "csvm_empty",
    "csvm_empty_like",
    "fsvm_empty",
    "fsvm_empty_like",
    "enqueue_svm_memfill",
    "enqueue_svm_migratemem",
    "enqueue_svm_migrate_mem",
    "set_kernel_exec_info",
]

_smf = _constants.svm_mem_flags
_SLICE_THE_SVM = "SVM copies take none; slice the array instead, e.g. SVM(ary[a:b])"
_caps = _constants.device_svm_capabilities
_map = _constants.map_flags
_OUT_OF_ORDER = _constants.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
_PATTERN_SIZES = (1, 2, 4, 8, 16, 32, 64, 128)
_new, _gc = ffi.new, ffi.gc
_svm_alloc, _svm_free = lib.pycl_svm_alloc, lib.pycl_svm_free
_svm_map, _svm_unmap, _svm_mapping_free = lib.pycl_svm_map, lib.pycl_svm_unmap, lib.pycl_svm_mapping_free
_release = ffi.release
_MAPPING_OUT = ffi.typeof("struct pycl_svm_mapping **")
_ALLOCATION_FAILURE = lib.CL_MEM_OBJECT_ALLOCATION_FAILURE
_UINT8 = np.dtype(np.uint8)
_EMPTY = ffi.new("char[1]")  # the data pointer of empty arrays (PyPy's numpy refuses NULL)
_EMPTY_PTR = int(ffi.cast("uintptr_t", _EMPTY))
_DL_CPU = 1  # DLPack's kDLCPU


# {{{ capability checks

# (context handle, svm flags) -> the context's device list when the flags were
# checked against its devices; a new context at a reused address has another list.
_checked_contexts: dict[tuple[int, int], Any] = {}

# device handle -> (SVM capabilities, or an UnavailableError message)
_svm_caps_by_device: dict[int, tuple[int, Optional[str]]] = {}


def _device_svm(device: Device, routine: str, need: tuple[int, int] = (2, 0)) -> int:
    """The device's SVM capability bits; UnavailableError if it has none."""
    entry = _svm_caps_by_device.get(device._ptr)
    if entry is None:
        have = device.cl_version
        if have < (2, 0):
            reported = device.version
            capped = " (capped by PYCL_FORCE_CL_VERSION)" if not reported.startswith("OpenCL %d.%d" % have) else ""
            entry = (
                0,
                "%%s needs OpenCL 2.0 (shared virtual memory); device %r reports OpenCL %d.%d%s"
                % (device.name, have[0], have[1], capped),
            )
        else:
            bits = device.svm_capabilities
            if bits & (_caps.COARSE_GRAIN_BUFFER | _caps.FINE_GRAIN_BUFFER | _caps.FINE_GRAIN_SYSTEM):
                entry = (bits, None)
            else:
                entry = (0, "%%s needs shared virtual memory; device %r reports no SVM support" % device.name)
        _svm_caps_by_device[device._ptr] = entry
    bits, message = entry
    if message is not None:
        raise UnavailableError(routine, lib.PYCL_UNAVAILABLE, message % routine)
    if need > (2, 0):
        device.require(need, routine)
    return bits


def _check_context_svm(context: Context, flags: int, routine: str) -> None:
    """Every device of ``context`` must support the SVM that ``flags`` ask for."""
    for device in context.devices:
        bits = _device_svm(device, routine)
        if flags & _smf.SVM_FINE_GRAIN_BUFFER and not bits & _caps.FINE_GRAIN_BUFFER:
            raise UnavailableError(
                routine,
                lib.PYCL_UNAVAILABLE,
                "device %r reports no fine-grain SVM support (svm_capabilities %s)"
                % (device.name, _caps.to_string(bits, "0x%x")),
            )
        if flags & _smf.SVM_ATOMICS and not bits & _caps.ATOMICS:
            raise UnavailableError(
                routine,
                lib.PYCL_UNAVAILABLE,
                "device %r reports no SVM atomics support (svm_capabilities %s)"
                % (device.name, _caps.to_string(bits, "0x%x")),
            )
        if not flags & _smf.SVM_FINE_GRAIN_BUFFER and not bits & _caps.COARSE_GRAIN_BUFFER:
            raise UnavailableError(
                routine,
                lib.PYCL_UNAVAILABLE,
                "device %r reports no coarse-grain SVM support (svm_capabilities %s)"
                % (device.name, _caps.to_string(bits, "0x%x")),
            )


def _svm_queue(queue: CommandQueue, routine: str, need: tuple[int, int] = (2, 0)) -> Any:
    """The live handle of ``queue``, whose device must support SVM."""
    handle = queue_handle(queue, routine)
    _device_svm(queue._device, routine, need)
    return handle


def _in_order_queue(queue: CommandQueue, context: Optional[Context], routine: str, in_order: bool = True) -> Any:
    if not isinstance(queue, CommandQueue):
        raise TypeError("%s: queue must be a pycl.CommandQueue or None, not %s" % (routine, type(queue).__name__))
    handle = queue._live()
    if in_order and queue._properties & _OUT_OF_ORDER:
        raise logic_error(
            routine,
            "queue %r is out-of-order; the queued free of an SVM allocation needs an in-order queue" % queue,
        )
    if context is not None and queue._context._ptr != context._ptr:
        raise logic_error(routine, "queue %r belongs to another context" % queue, lib.CL_INVALID_CONTEXT)
    return handle


# }}}


# {{{ SVMPointer


class _ArrayBase:
    """The ``.base`` of an array over SVM memory: holds the SVM object (for
    an SVMAllocation: its shim record, and a weak reference to it)."""

    __slots__ = ("__array_interface__", "svm", "allocation")
    __array_interface__: dict[str, Any]
    svm: Any  # an SVMPointer, or an SVMAllocation's shim record
    allocation: Optional[weakref.ReferenceType[SVMAllocation]]

    def __init__(
        self, svm: Any, interface: dict[str, Any], allocation: Optional[weakref.ReferenceType[SVMAllocation]] = None
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
        interface = array_interface(ptr if size else _EMPTY_PTR, (size,), _UINT8, None)
        return np.asarray(_ArrayBase(self, interface))

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
            q = _svm_queue(queue, routine)
        else:
            q = queue._handle  # the allocation's context has SVM; the context check follows
        flags = map_flags_value(flags, None, routine)
        if alloc is None:
            owner = ffi.NULL
        elif alloc._context._ptr != queue._context._ptr:
            raise logic_error(routine, "%r belongs to another context than the queue" % alloc, lib.CL_INVALID_CONTEXT)
        else:
            owner = alloc._live()
        _check_map_survives(queue, routine)
        count, events = wait_list(wait_for, routine)
        out, out_int = out_cell()
        mapping = _new(_MAPPING_OUT)
        status = _svm_map(
            q, 1 if is_blocking else 0, flags, owner, ffi.cast("void *", ptr), size, count, events, out, mapping
        )
        if status:
            check(status, "clEnqueueSVMMap", "%d bytes at 0x%x" % (size, ptr))
        return _gc(mapping[0], _svm_mapping_free), take_event(Event, out, out_int)

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


# }}}


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
        devices = getattr(context, "_devices", None)
        ctx = getattr(context, "_handle", None)
        if (
            devices is None
            or ctx is None
            or type(size) is not int
            or not 0 <= size <= SIZE_LIMIT
            or type(alignment) is not int
            or alignment not in ALIGNMENTS
            or type(flags) is not int
            or _checked_contexts.get((context._ptr, flags)) is not devices
        ):
            if not isinstance(context, Context):
                raise TypeError("%s: context must be a pycl.Context, not %s" % (routine, type(context).__name__))
            ctx = context._live()
            size = size_value(size, "size", routine)
            alignment = alignment_value(alignment, routine)
            flags = svm_flags_value(flags, routine)
            _check_context_svm(context, flags, routine)
            _checked_contexts[(context._ptr, flags)] = context._devices
        if queue is None:
            q = ffi.NULL
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
            q = _in_order_queue(queue, context, routine)
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
            interface = array_interface(ptr if self._size else _EMPTY_PTR, (self._size,), _UINT8, None)
            full = self._full = np.asarray(_ArrayBase(self._handle, interface, weakref.ref(self)))
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
            q = _in_order_queue(queue, self._context, routine, in_order=False)
        self._check_unmapped(record, routine)
        count, events = wait_list(wait_for, routine)
        out, out_int = out_cell()
        status = lib.pycl_svm_enqueue_release(record, q, count, events, out)
        if status:
            check(status, "clEnqueueSVMFree")
        self._handle = None
        ffi.release(record)
        if _budget.enabled:
            _budget.credit_object(self._context, self)
        return take_event(Event, out, out_int)

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
        interface = array_interface(self._ptr if self._size else _EMPTY_PTR, (self._size,), _UINT8, None)
        return np.asarray(_ArrayBase(self, interface))

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
        q = _in_order_queue(queue, self._context, routine)
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

    def __getattr__(self, name: str) -> NoReturn:
        raise AttributeError("%r object has no attribute %r" % (type(self).__name__, name))

    def __repr__(self) -> str:
        if self._handle is None:
            return "<pycl.SVMAllocation released>"
        return "<pycl.SVMAllocation of %d bytes at 0x%x%s>" % (
            self._size,
            self._ptr,
            "" if self._queue is None else ", freed on its queue",
        )


# }}}


# {{{ SVM tag


def _find_allocation(obj: object) -> Optional[SVMAllocation]:
    """The SVMAllocation at the end of ``obj``'s ``.base`` chain, if any."""
    for _ in range(64):
        if obj is None:
            return None
        if isinstance(obj, SVMAllocation):
            return obj
        if isinstance(obj, _ArrayBase):
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


# }}}


# {{{ SVMMap


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
        out, out_int = out_cell()
        self._unmap(queue, wait_for, out)
        return take_event(Event, out, out_int)

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
    alloc.__array_interface__ = array_interface(alloc._ptr if nbytes else _EMPTY_PTR, shape, dtype, strides)
    return np.asarray(alloc)


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


# {{{ operations


def _side(
    obj: Union[SVMPointer, HostSource], writable: bool, queue: CommandQueue, routine: str, name: str
) -> tuple[Any, Optional[int], Optional[HostSource]]:
    """``(pointer cdata, size, host object or None)`` for one side of a copy."""
    if isinstance(obj, SVMPointer):
        ptr, size, alloc = obj._pointer(routine)
        if writable and not getattr(obj, "_writable", True):
            raise logic_error(routine, "%s (%r) is read-only, but the command writes into it" % (name, obj))
        if alloc is not None and alloc._context._ptr != queue._context._ptr:
            raise logic_error(
                routine, "%s (%r) belongs to another context than the queue" % (name, obj), lib.CL_INVALID_CONTEXT
            )
        return ffi.cast("void *", ptr), size, None
    host = host_bytes(obj, writable, routine, name)
    return host, len(host), obj


def _enqueue_svm_memcpy(
    queue: CommandQueue,
    dest: Union[SVMPointer, HostDestination],
    src: Union[SVMPointer, HostSource],
    byte_count: Optional[Size] = None,
    is_blocking: bool = True,
    wait_for: WaitList = None,
    src_offset: Size = 0,
    dst_offset: Size = 0,
) -> Event:
    """``enqueue_copy``'s SVM routes: SVM<->SVM and SVM<->host."""
    routine = "enqueue_copy"
    if _wards._pending:
        _wards.prune_completed_front()
    q = _svm_queue(queue, routine)
    no_offset(src_offset, "src_offset", routine, _SLICE_THE_SVM)
    no_offset(dst_offset, "dst_offset", routine, _SLICE_THE_SVM)
    dst, dst_size, dst_host = _side(dest, True, queue, routine, "dest")
    src_ptr, src_size, src_host = _side(src, False, queue, routine, "src")
    if byte_count is None:
        if dst_size is None or src_size is None:
            n = dst_size if src_size is None else src_size
            if n is None:
                raise logic_error(routine, "neither side's size is known: pass byte_count")
        elif dst_size != src_size:
            raise logic_error(
                routine,
                "src (%d bytes) and dest (%d bytes) differ in size: pass byte_count, or slice the larger side"
                % (src_size, dst_size),
            )
        else:
            n = src_size
    else:
        n = size_value(byte_count, "byte_count", routine)
        for size, name in ((src_size, "src"), (dst_size, "dest")):
            if size is not None and n > size:
                raise logic_error(routine, "byte_count = %d is larger than %s (%d bytes)" % (n, name, size))
    host_obj = dst_host if dst_host is not None else src_host
    if n:
        a = int(ffi.cast("uintptr_t", dst))
        b = int(ffi.cast("uintptr_t", src_ptr))
        if abs(a - b) < n:
            raise logic_error(
                routine,
                "the source bytes [0x%x, 0x%x) and destination bytes [0x%x, 0x%x) overlap" % (b, b + n, a, a + n),
                lib.CL_MEM_COPY_OVERLAP,
            )
    count, events = wait_list(wait_for, routine)
    out, out_int = out_cell()
    if n == 0:
        check(lib.pycl_enqueue_marker(q, count, events, out), "clEnqueueMarkerWithWaitList")
    else:
        status = lib.pycl_enqueue_svm_memcpy(q, 1 if is_blocking else 0, dst, src_ptr, n, count, events, out)
        if status:
            check(status, "clEnqueueSVMMemcpy", "%d bytes" % n)
    if host_obj is None:
        return take_event(Event, out, out_int)
    event = take_event(NannyEvent, out, out_int)
    event._ward = host_obj
    if not is_blocking and n:
        _wards.keep(event._handle, dst if dst_host is not None else src_ptr)
    return event


_COPY_KEYWORDS = ("byte_count", "is_blocking", "wait_for", "src_offset", "dst_offset")
_transfer.register_route("svm", "svm", _enqueue_svm_memcpy, _COPY_KEYWORDS)
_transfer.register_route("svm", "host", _enqueue_svm_memcpy, _COPY_KEYWORDS)
_transfer.register_route("host", "svm", _enqueue_svm_memcpy, _COPY_KEYWORDS)


def enqueue_svm_memfill(
    queue: CommandQueue,
    dest: Union[SVMPointer, HostDestination],
    pattern: HostSource,
    byte_count: Optional[Size] = None,
    wait_for: WaitList = None,
) -> Event:
    """Fill ``byte_count`` bytes (default: all) of ``dest`` (an SVMPointer, or
    a buffer-protocol object of SVM memory) with ``pattern`` (1, 2, 4, ...
    128 bytes; ``dest`` and ``byte_count`` must be multiples of its size)."""
    return _memfill(queue, dest, pattern, byte_count, wait_for, "enqueue_svm_memfill", "byte_count")


def _memfill(
    queue: CommandQueue,
    dest: Union[SVMPointer, HostDestination],
    pattern: HostSource,
    byte_count: Optional[Size],
    wait_for: WaitList,
    routine: str,
    count_name: str,
) -> Event:
    """``enqueue_svm_memfill`` for ``routine``, whose byte count is called
    ``count_name``."""
    q = _svm_queue(queue, routine)
    if not isinstance(dest, SVMPointer):
        dest = SVM(dest)
    ptr, size, _ = dest._pointer(routine)
    _side(dest, True, queue, routine, "dest")
    data = host_bytes(pattern, False, routine, "pattern")
    p = len(data)
    if p not in _PATTERN_SIZES:
        raise logic_error(
            routine, "pattern (%s) has %d bytes; OpenCL takes 1, 2, 4, 8, 16, 32, 64 or 128" % (describe(pattern), p)
        )
    if byte_count is None:
        if size is None:
            raise logic_error(routine, "the size of dest is unknown: pass %s" % count_name)
        n = size
    else:
        n = size_value(byte_count, count_name, routine)
        if size is not None and n > size:
            raise logic_error(routine, "%s = %d is larger than dest (%d bytes)" % (count_name, n, size))
    if n % p:
        raise logic_error(routine, "%s = %d is not a multiple of the pattern size %d" % (count_name, n, p))
    if n and ptr % p:
        raise logic_error(routine, "dest at 0x%x is not aligned to the pattern size %d (OpenCL requires it)" % (ptr, p))
    count, events = wait_list(wait_for, routine)
    out, out_int = out_cell()
    if n == 0:
        check(lib.pycl_enqueue_marker(q, count, events, out), "clEnqueueMarkerWithWaitList")
    else:
        status = lib.pycl_enqueue_svm_memfill(q, ffi.cast("void *", ptr), data, p, n, count, events, out)
        if status:
            check(status, "clEnqueueSVMMemFill", "pattern of %d bytes, %d bytes" % (p, n))
    return take_event(Event, out, out_int)


def _fill_route(
    queue: CommandQueue,
    dest: Union[SVMPointer, HostDestination],
    pattern: HostSource,
    size: Optional[Size],
    offset: Size,
    wait_for: WaitList,
) -> Event:
    no_offset(offset, "offset", "enqueue_fill", "SVM fills take none; fill a slice instead, e.g. SVM(ary[a:b])")
    return _memfill(queue, dest, pattern, size, wait_for, "enqueue_fill", "size")


_transfer.register_fill("svm", _fill_route)


def enqueue_svm_migratemem(
    queue: CommandQueue, svms: Iterable[Union[SVMPointer, HostSource]], flags: Optional[int], wait_for: WaitList = None
) -> Event:
    """Migrate the SVM pointers ``svms`` (SVMPointers or buffer-protocol
    objects of SVM memory) to the queue's device, or to the host with
    ``mem_migration_flags.HOST``. OpenCL 2.1."""
    routine = "enqueue_svm_migratemem"
    q = _svm_queue(queue, routine, (2, 1))
    try:
        items = list(svms)
    except TypeError:
        raise TypeError("%s: svms must be a sequence of SVM pointers" % routine) from None
    if not items:
        raise logic_error(routine, "svms is empty")
    flags = 0 if flags is None else bits_value(flags, "flags", _constants.mem_migration_flags, routine)
    pointers, sizes = [], []
    for i, item in enumerate(items):
        if not isinstance(item, SVMPointer):
            item = SVM(item)
        ptr, size, _ = item._pointer(routine)
        _side(item, False, queue, routine, "svms[%d]" % i)
        pointers.append(ffi.cast("void *", ptr))
        sizes.append(size or 0)
    count, events = wait_list(wait_for, routine)
    out, out_int = out_cell()
    status = lib.pycl_enqueue_svm_migrate(
        q,
        len(pointers),
        ffi.new("const void *[]", pointers),
        ffi.new("size_t[]", sizes),
        flags,
        count,
        events,
        out,
    )
    if status:
        check(status, "clEnqueueSVMMigrateMem")
    return take_event(Event, out, out_int)


enqueue_svm_migrate_mem = enqueue_svm_migratemem


def set_kernel_exec_info(kernel: Kernel, param: int, value: Any) -> None:
    """``clSetKernelExecInfo``: ``kernel_exec_info.SVM_PTRS`` with a sequence
    of SVM pointers the kernel uses indirectly (kept alive by the kernel), or
    ``SVM_FINE_GRAIN_SYSTEM`` with a bool. OpenCL 2.0."""
    routine = "set_kernel_exec_info"
    handle = kernel._live()
    param = uint_value(param, "param", routine)
    if param == _constants.kernel_exec_info.SVM_PTRS:
        items = [item if isinstance(item, SVMPointer) else SVM(item) for item in value]
        data = ffi.new("void *[]", [ffi.cast("void *", item._pointer(routine)[0]) for item in items] or 1)
        size = ffi.sizeof("void *") * len(items)
        keep: Any = items
    elif param == _constants.kernel_exec_info.SVM_FINE_GRAIN_SYSTEM:
        data = ffi.new("cl_bool *", 1 if value else 0)
        size = ffi.sizeof("cl_bool")
        keep = None
    else:
        raise logic_error(routine, "param = 0x%x is no kernel_exec_info" % param)
    status = lib.pycl_kernel_set_exec_info(handle, param, size, data)
    if status:
        check(status, "clSetKernelExecInfo", _constants.kernel_exec_info.to_string(param, "0x%x"))
    # The kernel keeps the pointers alive, and sets them again if it is
    # renewed (Kernel._renew: an argument switched from SVM to a buffer).
    kernel._exec_info[param] = (size, data, keep)


def pending_frees(wait: bool = False) -> int:
    """Enqueue the shim's batched frees and say how many frees and dropped
    references are still pending; ``wait=True`` first finishes the queues of
    running frees (blocking). For tests."""
    return lib.pycl_svm_drain(1 if wait else 0)


# }}}


def _check_map_survives(queue: CommandQueue, routine: str) -> None:
    """NVIDIA's OpenCL (CUDA 13.0, driver 580, two H200s) crashes the process
    in clEnqueueSVMMap on a context of several GPUs, on either device's queue
    and through PyOpenCL alike (docs/quirks.md); copies and fills of SVM work
    there. pycl refuses the map instead."""
    context = queue._context
    crashes = context._memo.get("svm_map_crashes")
    if crashes is None:
        devices = context.devices
        crashes = context._memo["svm_map_crashes"] = len(devices) > 1 and any(
            "NVIDIA" in d.platform.name for d in devices
        )
    if crashes:
        raise UnavailableError(
            routine,
            lib.PYCL_UNAVAILABLE,
            "NVIDIA's OpenCL crashes in clEnqueueSVMMap on a context of several devices (docs/quirks.md): "
            "map from a context of one device, or move the bytes with enqueue_copy",
        )
