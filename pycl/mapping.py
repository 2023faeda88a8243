"""Mapping buffers into host memory: ``enqueue_map_buffer`` and ``MemoryMap``.

``enqueue_map_buffer`` returns ``(array, event)``; ``array.base`` is a
``MemoryMap`` (a context manager). The map is unmapped by
``MemoryMap.release(queue=None, wait_for=None)``, by leaving its ``with``
block, or when the ``MemoryMap`` is collected (after the array and every view
of it are gone). A second explicit ``release()`` raises ``LogicError``.

The unmap at collection runs in C (the shim's ``pycl_mapping_free``, an
``ffi.gc`` destructor): it enqueues ``clEnqueueUnmapMemObject`` after the map
command without waiting, so it never blocks and runs no Python. The shim's
mapping record retains the queue, the buffer and the map event, so the unmap
is valid in whatever order the objects are collected.

Using the array after ``release()``: OpenCL says the mapped pointer is invalid
after the unmap. pycl keeps the buffer retained until the ``MemoryMap`` itself
is collected, so on devices whose maps point into the buffer's own memory (the
CPU devices pycl is tested on: PoCL, Oclgrind) the array stays addressable but
no longer tracks the buffer (reads see stale data, writes may be lost); on a
GPU driver the host pages can be freed by the unmap, and touching them is
undefined behaviour. Do not use the array after release.

DLPack: ``MemoryMap`` has ``__dlpack__``/``__dlpack_device__`` (host
memory), so ``numpy.from_dlpack(array.base)`` and other DLPack consumers share
the mapped memory; what they get keeps the ``MemoryMap`` alive, and the same
rule holds: do not use it after the map's ``release()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from pycl import _wards
from pycl import budget as _budget
from pycl._args import (
    DTYPE_ENTRIES,
    VALID_MAP_FLAGS,
    dtype_entry,
    dtype_of,
    map_flags_value,
    mem_handle,
    size_value,
    wait_list,
)
from pycl._enqueue import enqueued
from pycl._lib import ffi, lib
from pycl.errors import check, logic_error
from pycl.event import Event, out_cell
from pycl.memory import MemoryObject, array_interface, array_layout, array_over
from pycl.queue import CommandQueue, queue_handle

if TYPE_CHECKING:
    from types import TracebackType
    from typing import Literal

    from numpy.typing import DTypeLike, NDArray

    from pycl._typing import Extent, Size, WaitList
    from pycl.memory import Buffer

__all__ = ["MemoryMap", "enqueue_map_buffer"]

_DL_CPU = 1  # DLPack's kDLCPU


class MemoryMap:
    """A mapped region; the ``.base`` of the array ``enqueue_map_buffer``
    returns. ``with array.base:`` unmaps on exit."""

    # _charged: the mapped bytes counted in the collection budget
    # (pycl.budget), unset when accounting was off: a GPU driver may hold
    # host memory for them until the unmap.
    __slots__ = ("_mapping", "_mem", "_charged", "__array_interface__", "__weakref__")
    _mapping: Any  # the shim's mapping record (struct pycl_mapping *, with ffi.gc)
    _mem: MemoryObject  # the mapped buffer or image
    _charged: int
    __array_interface__: dict[str, Any]

    @staticmethod
    def _adopt(result: Any, mem: MemoryObject, nbytes: int) -> tuple[MemoryMap, Event]:
        """The map and the map command's Event that a map left in ``result``
        (``struct pycl_map_result``, from ``out_cell``): ``nbytes`` of
        ``mem``; collection unmaps in C (``pycl_mapping_free``). The caller
        sets the map's ``__array_interface__``, from what it read of
        ``result`` before: charging the budget may collect garbage, whose
        finalizers may map again on this thread and overwrite ``result``."""
        event = _new_object(Event)
        event._handle = _gc(result.event, _release_event)
        memory_map = _new_object(MemoryMap)
        memory_map._mapping = _gc(result.mapping, _mapping_free)
        memory_map._mem = mem
        if _budget.enabled:
            _budget.charge(mem._context, nbytes)
            memory_map._charged = nbytes
        return memory_map, event

    @property
    def is_released(self) -> bool:
        return self._mapping.ptr == ffi.NULL

    def release(self, queue: Optional[CommandQueue] = None, wait_for: WaitList = None) -> Event:
        """Enqueue the unmap (on ``queue``, default the mapping queue) after
        ``wait_for``; returns its Event. A second call raises LogicError."""
        routine = "MemoryMap.release"
        mapping = self._mapping
        if queue is None and not wait_for:
            # The common call, on the mapping queue after nothing else: the
            # shim refuses a second unmap, which is then named as below.
            out = out_cell()[0]
            status = _unmap(mapping, _NULL, 0, _NULL, out)
            if status:
                if mapping.ptr == _NULL:
                    raise logic_error(routine, "this MemoryMap was already released (unmapped)")
                check(status, "clEnqueueUnmapMemObject")
            # take_event(Event, out), inlined.
            event = _new_object(Event)
            event._handle = _gc(out[0], _release_event)
            if _budget.enabled:
                _budget.credit_object(self._mem._context, self)
            return event
        if mapping.ptr == ffi.NULL:
            raise logic_error(routine, "this MemoryMap was already released (unmapped)")
        if queue is None:
            q = ffi.NULL
        else:
            q = queue_handle(queue, routine)
            mem_handle(self._mem, queue, routine, "the mapped buffer")
        count, events = wait_list(wait_for, routine)
        out = out_cell()[0]
        status = lib.pycl_mapping_unmap(mapping, q, count, events, out)
        event = enqueued(status, out, "clEnqueueUnmapMemObject")
        if _budget.enabled:
            _budget.credit_object(self._mem._context, self)
        return event

    def __enter__(self) -> MemoryMap:
        return self

    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc_value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        if self._mapping.ptr != ffi.NULL:
            self.release()

    # DLPack: the mapped memory is host memory. The capsule is the numpy
    # view's, whose base is this MemoryMap: the map stays alive (and mapped
    # unless released) as long as the consumer holds the capsule or its array.
    def __dlpack__(self, **kwargs: Any) -> Any:
        """DLPack export of the mapped region (``numpy.from_dlpack(ary.base)``
        shares the memory); keywords go to ``numpy.ndarray.__dlpack__``."""
        if self._mapping.ptr == ffi.NULL:
            raise logic_error("MemoryMap.__dlpack__", "this MemoryMap was released (unmapped)")
        return np.asarray(self).__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        """``(kDLCPU, 0)``: a map is host memory."""
        return (_DL_CPU, 0)

    def __repr__(self) -> str:
        state = "released" if self._mapping.ptr == ffi.NULL else "mapped"
        return "<pycl.MemoryMap of %r, %s>" % (self._mem, state)


def enqueue_map_buffer(
    queue: CommandQueue,
    buf: Buffer,
    flags: Size,
    offset: Size,
    shape: Union[Size, Extent],
    dtype: DTypeLike,
    order: Literal["C", "F"] = "C",
    strides: Optional[Extent] = None,
    wait_for: WaitList = None,
    is_blocking: bool = True,
) -> tuple[NDArray[Any], Event]:
    """Map ``buf`` from ``offset`` as an array of ``shape``/``dtype``
    (``order``, or ``strides`` which override it). Returns ``(array, event)``;
    ``array.base`` is the ``MemoryMap``. The mapped size is the bytes the
    array spans; it must lie inside the buffer and be at least one byte."""
    if _wards._pending:
        _wards.prune_completed_front()
    # The common call in one pass (docs/design.md, "Errors and argument
    # checks"): a live buffer of the queue's context, flags already seen for
    # this buffer's host access, a plain offset, a plain shape in C order, no
    # wait list, and the bytes inside the buffer. Anything else, mistakes
    # included, takes the general path (_checked_map), which checks again and
    # names it.
    nbytes = 0
    if (
        type(queue) is CommandQueue
        and isinstance(buf, MemoryObject)
        and buf._transfer_kind == "buffer"
        and type(flags) is int
        and (flags, buf._flags) in VALID_MAP_FLAGS
        and type(offset) is int
        and offset >= 0
        and strides is None
        and order == "C"
        and not wait_for
    ):
        q = queue._handle
        mem = buf._handle
        if q is not None and mem is not None and buf._ctx_ptr == queue._context._ptr:
            try:
                array_dtype, typestr = DTYPE_ENTRIES[dtype]
            except (KeyError, TypeError):
                array_dtype, typestr = dtype_entry(dtype)
            dims: tuple[int, ...] = (shape,) if type(shape) is int else shape  # type: ignore[assignment]  # tested below
            if type(dims) is tuple and typestr is not None:
                nbytes = array_dtype.itemsize
                for n in dims:
                    if type(n) is not int or n < 0:
                        nbytes = 0
                        break
                    nbytes *= n
                if offset + nbytes > buf._size:
                    nbytes = 0
    if nbytes:
        count, events, array_strides = 0, _NULL, None
    else:
        q, mem, flags, offset, dims, array_dtype, array_strides, nbytes, count, events = _checked_map(
            queue, buf, flags, offset, shape, dtype, order, strides, wait_for
        )
        typestr = None
    cell = out_cell("struct pycl_map_result")[0]
    status = _map_buffer(q, mem, 1 if is_blocking else 0, flags, offset, nbytes, count, events, cell)
    if status:
        check(status, "clEnqueueMapBuffer", "offset %d, %d bytes" % (offset, nbytes))
    result = cell[0]
    address = result.address  # before _adopt, whose collection may map again on this thread
    memory_map, event = MemoryMap._adopt(result, buf, nbytes)
    if typestr is not None:
        memory_map.__array_interface__ = {
            "shape": dims,
            "typestr": typestr,
            "data": (address, False),
            "version": 3,
        }
        return _asarray(memory_map), event
    memory_map.__array_interface__ = array_interface(address, dims, array_dtype, array_strides)
    return array_over(memory_map, array_dtype), event


def _checked_map(
    queue: CommandQueue,
    buf: Buffer,
    flags: Size,
    offset: Size,
    shape: Union[Size, Extent],
    dtype: DTypeLike,
    order: str,
    strides: Optional[Extent],
    wait_for: WaitList,
) -> tuple[Any, Any, int, int, tuple[int, ...], np.dtype[Any], Optional[tuple[Size, ...]], int, int, Any]:
    """``enqueue_map_buffer``'s general path: every check, each mistake
    named; returns what the map takes (queue and buffer handles, flags,
    offset, shape, dtype, strides or None, bytes, wait list)."""
    routine = "enqueue_map_buffer"
    q = queue_handle(queue, routine)
    if not isinstance(buf, MemoryObject) or buf._transfer_kind != "buffer":
        raise TypeError("%s: buf must be a pycl.Buffer, not %s" % (routine, type(buf).__name__))
    mem = mem_handle(buf, queue, routine, "buf")
    flags = map_flags_value(flags, buf, routine)
    offset = size_value(offset, "offset", routine)
    if not isinstance(dtype, np.dtype):
        dtype = dtype_of(dtype)
    shape, dtype, strides, nbytes = array_layout(shape, dtype, order, strides, routine)
    if nbytes == 0:
        raise logic_error(routine, "an array of shape %r maps no bytes; OpenCL maps at least one" % (shape,))
    if offset + nbytes > buf._size:
        raise logic_error(
            routine,
            "offset %d + %d bytes (shape %r, dtype %s) = %d is past the end of buf (%d bytes)"
            % (offset, nbytes, shape, dtype, offset + nbytes, buf._size),
        )
    count, events = wait_list(wait_for, routine)
    return q, mem, flags, offset, shape, dtype, strides, nbytes, count, events


_NULL, _gc, _new_object = ffi.NULL, ffi.gc, object.__new__
_map_buffer, _unmap, _mapping_free, _release_event = (
    lib.pycl_buffer_map,
    lib.pycl_mapping_unmap,
    lib.pycl_mapping_free,
    lib.pycl_event_release,
)
_asarray = np.asarray
