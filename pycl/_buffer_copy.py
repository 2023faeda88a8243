"""The linear routes of ``enqueue_copy`` between a buffer and host memory
(both ways) and between two buffers, with the one-pass shortcut of the most
frequent call; ``pycl.transfer`` registers them.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from pycl import _wards
from pycl import staging as _staging
from pycl._args import (
    NO_HOST_READ,
    NO_HOST_WRITE,
    describe,
    host_access,
    host_bytes,
    mem_handle,
    no_offset,
    size_value,
    wait_list,
)
from pycl._enqueue import enqueued, marker, nanny, nanny_marker
from pycl._lib import ffi, lib
from pycl.errors import caller_stacklevel, check, logic_error
from pycl.event import Event, NannyEvent, out_cell, take_event
from pycl.memory import MemoryObject, StagedCreation
from pycl.queue import CommandQueue, queue_handle

if TYPE_CHECKING:
    from pycl._enqueue import Route
    from pycl._typing import Size, WaitList
    from pycl.memory import Buffer

__all__ = [
    "fast_host_copy",
    "write_buffer",
    "read_buffer",
    "copy_buffer",
    "copy_extent",
    "ALIASES",
]

_SLICE_THE_HOST = "the host side of a transfer takes none; pass a slice of the host array instead"


def _deprecated_alias(kwargs_value: Optional[Size], new_value: Size, old: str, new: str, routine: str) -> Size:
    """The value of ``new`` or of its deprecated alias ``old`` (checked under
    that name, as the caller wrote it)."""
    if kwargs_value is None:
        return new_value
    if new_value:
        raise TypeError("%s: may not specify both '%s' and '%s'" % (routine, old, new))
    kwargs_value = size_value(kwargs_value, old, routine)
    warnings.warn(
        "The '%s' argument of %s is deprecated. Use '%s' instead." % (old, routine, new),
        DeprecationWarning,
        stacklevel=caller_stacklevel(),
    )
    return kwargs_value


# {{{ buffer <-> host


def fast_host_copy(
    queue: CommandQueue,
    buf: MemoryObject,
    host_obj: object,
    reading: bool,
    offset: Any = 0,
    wait_for: WaitList = None,
    is_blocking: Any = True,
) -> Optional[NannyEvent]:
    """``enqueue_copy(queue, buf, host_obj)`` (or the reverse when
    ``reading``) between a whole host object and ``buf`` from byte
    ``offset``: the checks of the buffer-host route in one pass, then the
    call. None where the general route must decide (a released object,
    another context, an offset that is not a plain int, a host object that
    is not a C-contiguous writable-as-needed buffer, an empty or too large
    transfer, host-access flags, a copy big enough to stage): the route then
    checks everything again and explains. A wait list is read last, as the
    route reads it after every other check."""
    q = queue._handle
    mem = buf._handle
    if (
        q is None
        or mem is None
        or buf._ctx_ptr != queue._context._ptr
        or buf._flags & (NO_HOST_READ if reading else NO_HOST_WRITE)
        or type(offset) is not int
        or offset < 0
    ):
        return None
    if isinstance(host_obj, _ndarray) and host_obj.dtype.hasobject:
        return None
    try:
        host = _from_buffer("char[]", host_obj, reading)  # positional: see host_bytes
    except (TypeError, ValueError, BufferError):
        return None
    n = len(host)
    if not 0 < n <= buf._size - offset or n >= _staging.threshold:
        return None
    if _wards._pending:
        _wards.prune_completed_front()
    count, events = (0, _NULL) if not wait_for else wait_list(wait_for, "enqueue_copy")
    cell = out_cell()[0]
    if reading:
        status = _enqueue_read(q, mem, 1 if is_blocking else 0, offset, n, host, count, events, cell)
        if status:
            check(status, "clEnqueueReadBuffer", "src_offset %d, %d bytes" % (offset, n))
    else:
        status = _enqueue_write(q, mem, 1 if is_blocking else 0, offset, n, host, count, events, cell)
        if status:
            check(status, "clEnqueueWriteBuffer", "dst_offset %d, %d bytes" % (offset, n))
    # nanny(), inlined: its call cost 0.13 us here (CPython 3.11, 2026-11-27)
    event = take_event(NannyEvent, cell)
    event._ward = host_obj
    if not is_blocking:
        _wards.keep(event._handle, host)
    return event


_from_buffer, _NULL = ffi.from_buffer, ffi.NULL
_ndarray = np.ndarray
_enqueue_read, _enqueue_write = lib.pycl_enqueue_read_buffer, lib.pycl_enqueue_write_buffer
_copy_buffer = lib.pycl_enqueue_copy_buffer


def _host_route(reading: bool) -> Route:
    """The route between a buffer and host memory in one direction: a read
    into the host (``enqueue_copy(queue, host, buffer)``) when ``reading``,
    else a write from it (``enqueue_copy(queue, buffer, host)``). Both take
    the same keywords; the buffer's offset is ``src_offset`` for a read and
    ``dst_offset`` for a write, and the host's must be 0. The direction is
    bound here, once, so that a call pays for no extra layer."""
    if reading:
        buf_label, host_label, offset_name, host_offset_name = "src", "dest", "src_offset", "dst_offset"
        no_access, what, routine_c = NO_HOST_READ, "read it", "clEnqueueReadBuffer"
        too_far = "dest (%s, %d bytes) read from src_offset = %d needs bytes up to %d, past the end of src (%d bytes)"
        enqueue = _enqueue_read
    else:
        buf_label, host_label, offset_name, host_offset_name = "dest", "src", "dst_offset", "src_offset"
        no_access, what, routine_c = NO_HOST_WRITE, "write it", "clEnqueueWriteBuffer"
        too_far = "src (%s, %d bytes) at dst_offset = %d ends at byte %d, past the end of dest (%d bytes)"
        enqueue = _enqueue_write

    def host_copy(
        queue: CommandQueue,
        dest: Any,
        src: Any,
        dst_offset: Size = 0,
        src_offset: Size = 0,
        is_blocking: bool = True,
        wait_for: WaitList = None,
        device_offset: Optional[Size] = None,
    ) -> NannyEvent:
        # The sides by role; one assignment each (a tuple swap costs more).
        if reading:
            buf = src
            host_obj = dest
            offset = src_offset
            host_offset = dst_offset
        else:
            buf = dest
            host_obj = src
            offset = dst_offset
            host_offset = src_offset
        routine = "enqueue_copy"
        if _wards._pending:
            _wards.prune_completed_front()
        q = queue_handle(queue, routine)
        mem = mem_handle(buf, queue, routine, buf_label)
        host = host_bytes(host_obj, reading, routine, host_label)
        n = len(host)
        if device_offset is not None:
            offset = _deprecated_alias(device_offset, offset, "device_offset", offset_name, routine)
        offset = size_value(offset, offset_name, routine)
        no_offset(host_offset, host_offset_name, routine, _SLICE_THE_HOST)
        if offset + n > buf._size:
            raise logic_error(routine, too_far % (describe(host_obj), n, offset, offset + n, buf._size))
        if buf._flags & no_access:
            host_access(buf, no_access, routine, what)
        count, events = wait_list(wait_for, routine)
        if n == 0:
            return nanny_marker(q, count, events, host_obj)
        out = out_cell()[0]
        if n >= _staging.threshold and is_blocking:
            stager = _staging.stager(queue, host_obj)
            if stager is not None:
                if reading:
                    status = lib.pycl_staged_read(stager, q, mem, offset, host, n, count, events, out)
                else:
                    status = lib.pycl_staged_write(stager, q, mem, offset, host, n, 1, count, events, out)
                if status:
                    check(status, routine_c, "staged: %s %d, %d bytes" % (offset_name, offset, n))
                return nanny(out, host_obj, host, True)
        status = enqueue(q, mem, 1 if is_blocking else 0, offset, n, host, count, events, out)
        if status:
            check(status, routine_c, "%s %d, %d bytes" % (offset_name, offset, n))
        return nanny(out, host_obj, host, is_blocking)

    return host_copy


# enqueue_copy(queue, buffer, host) and enqueue_copy(queue, host, buffer).
write_buffer: Route = _host_route(False)
read_buffer: Route = _host_route(True)


# }}}


# {{{ COPY_HOST_PTR through staging


def _write_after_creation(buffer: Buffer, host: Any, size: int) -> None:
    """The staged write of a buffer's COPY_HOST_PTR contents, blocking, on
    the context's own queue on its first device."""
    stager, queue = _staging.creation_stager(buffer._context)
    status = lib.pycl_staged_write(stager, queue, buffer._live(), 0, host, size, 1, 0, _NULL, _NULL)
    if status:
        check(status, "clCreateBuffer", "COPY_HOST_PTR, staged: %d bytes" % size)


StagedCreation.stages = _staging.stages_creation
StagedCreation.write = _write_after_creation


# }}}


# {{{ buffer -> buffer


def copy_buffer(
    queue: CommandQueue,
    dest: Buffer,
    src: Buffer,
    byte_count: Optional[Size] = None,
    src_offset: Size = 0,
    dst_offset: Size = 0,
    wait_for: WaitList = None,
    dest_offset: Optional[Size] = None,
) -> Event:
    """``enqueue_copy(queue, dest, src)`` for two buffers of one context."""
    if _wards._pending:
        _wards.prune_completed_front()
    # The common call in one pass: two live buffers of the queue's context
    # with different roots (so no overlap to check), plain offsets and
    # byte count inside both, no wait list. Anything else, mistakes
    # included, takes the general path below, which checks again and
    # names it.
    if (
        type(queue) is CommandQueue
        and type(src_offset) is int
        and type(dst_offset) is int
        and (byte_count is None or type(byte_count) is int)
        and dest_offset is None
        and not wait_for
        and src_offset >= 0
        and dst_offset >= 0
    ):
        q = queue._handle
        src_mem = src._handle
        dst_mem = dest._handle
        context = queue._context._ptr
        if (
            q is not None
            and src_mem is not None
            and dst_mem is not None
            and src._ctx_ptr == context
            and dest._ctx_ptr == context
            and src._root_ptr != dest._root_ptr
        ):
            n = min(src._size - src_offset, dest._size - dst_offset) if byte_count is None else byte_count
            if n > 0 and src_offset + n <= src._size and dst_offset + n <= dest._size:
                out = out_cell()[0]
                status = _copy_buffer(q, src_mem, dst_mem, src_offset, dst_offset, n, 0, _NULL, out)
                return enqueued(
                    status,
                    out,
                    "clEnqueueCopyBuffer",
                    "src_offset %d, dst_offset %d, %d bytes",
                    src_offset,
                    dst_offset,
                    n,
                )
    routine = "enqueue_copy"
    q = queue_handle(queue, routine)
    src_mem = mem_handle(src, queue, routine, "src")
    dst_mem = mem_handle(dest, queue, routine, "dest")
    if dest_offset is not None:
        dst_offset = _deprecated_alias(dest_offset, dst_offset, "dest_offset", "dst_offset", routine)
    src_offset, dst_offset, n = copy_extent(src, dest, byte_count, src_offset, dst_offset, routine, "dest")
    count, events = wait_list(wait_for, routine)
    if n == 0:
        return marker(q, count, events, Event)
    out = out_cell()[0]
    status = _copy_buffer(q, src_mem, dst_mem, src_offset, dst_offset, n, count, events, out)
    return enqueued(
        status, out, "clEnqueueCopyBuffer", "src_offset %d, dst_offset %d, %d bytes", src_offset, dst_offset, n
    )


def copy_extent(
    src: Buffer,
    dest: Buffer,
    byte_count: Optional[Size],
    src_offset: Size,
    dst_offset: Size,
    routine: str,
    dest_name: str,
) -> tuple[int, int, int]:
    """``(src_offset, dst_offset, byte_count)`` of a buffer-to-buffer copy,
    checked: within both buffers, and not overlapping within one buffer.
    ``byte_count=None``: as much as both buffers hold from the offsets."""
    src_offset = size_value(src_offset, "src_offset", routine)
    dst_offset = size_value(dst_offset, "dst_offset", routine)
    if src_offset > src._size:
        raise logic_error(routine, "src_offset = %d is past the end of src (%d bytes)" % (src_offset, src._size))
    if dst_offset > dest._size:
        raise logic_error(
            routine, "dst_offset = %d is past the end of %s (%d bytes)" % (dst_offset, dest_name, dest._size)
        )
    if byte_count is None:
        n = min(src._size - src_offset, dest._size - dst_offset)
    else:
        n = size_value(byte_count, "byte_count", routine)
        if src_offset + n > src._size:
            raise logic_error(
                routine,
                "src_offset %d + byte_count %d = %d is past the end of src (%d bytes)"
                % (src_offset, n, src_offset + n, src._size),
            )
        if dst_offset + n > dest._size:
            raise logic_error(
                routine,
                "dst_offset %d + byte_count %d = %d is past the end of %s (%d bytes)"
                % (dst_offset, n, dst_offset + n, dest_name, dest._size),
            )
    if src._root_ptr == dest._root_ptr:
        a, b = src._origin + src_offset, dest._origin + dst_offset
        if n and abs(a - b) < n:
            raise logic_error(
                routine,
                "the source bytes [%d, %d) and destination bytes [%d, %d) of the same buffer overlap"
                % (a, a + n, b, b + n),
                lib.CL_MEM_COPY_OVERLAP,
            )
    return src_offset, dst_offset, n


# }}}


# The deprecated keyword of a route and the name that replaced it.
ALIASES: dict[Route, tuple[str, str]] = {
    write_buffer: ("device_offset", "dst_offset"),
    read_buffer: ("device_offset", "src_offset"),
    copy_buffer: ("dest_offset", "dst_offset"),
}
