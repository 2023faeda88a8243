"""Transfers: ``enqueue_copy`` and its routes, fills, migration, AMD P2P copies.

``enqueue_copy(queue, dest, src, **kwargs)`` looks up the pair of transfer
kinds ``(kind(dest), kind(src))`` in a table of routes. A kind is an object's
``_transfer_kind`` attribute ("buffer" for buffers; images and SVM pointers
name theirs) and "host" for anything else. Each pair holds a list of routes:
those with a *selector* keyword (``buffer_origin`` selects the rectangular
host copy, ``src_origin`` the rectangular buffer copy, as in PyOpenCL) are
tried first, then the default. Images and SVM add their routes with
``register_route`` from their own modules; this one never changes for them.

Every route checks every offset, origin, region, pitch and byte count against
both sides before any C call and raises ``LogicError`` naming the argument, its
value and the limit (``TypeError`` for wrong types): nothing out of range
reaches the driver, which matters on Oclgrind, which checks nothing.

A transfer of zero bytes (an empty host array, ``byte_count=0``, a region
with a zero) enqueues a marker instead: it orders like the copy would and
returns the same class of event (PyOpenCL passes it to the driver, which
refuses empty rect regions).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional

from pycl._lib import ffi, lib
from pycl import constants as _constants
from pycl import staging as _staging
from pycl import _wards
from pycl.errors import UnavailableError, check, logic_error
from pycl.event import Event, NannyEvent, out_cell, take_event
from pycl.memory import MemoryObject
from pycl.platform import Platform
from pycl.queue import CommandQueue, queue_handle
from pycl._args import NO_HOST_READ, NO_HOST_WRITE, bits_value, describe, host_access, host_bytes, mem_handle
from pycl._args import no_offset, pitch_pair, size_value, triple, wait_list

if TYPE_CHECKING:
    from typing import TypeVar

    from pycl._typing import Extent, HostDestination, HostSource, Size, WaitList
    from pycl.memory import Buffer

    _E = TypeVar("_E", bound=Event)
    # A route of enqueue_copy: function(queue, dest, src, **kwargs) -> event.
    _Route = Callable[..., Event]
    # A fill of enqueue_fill: function(queue, dest, pattern, size, offset, wait_for) -> event.
    _Fill = Callable[..., Event]

__all__ = [
    "enqueue_copy",
    "enqueue_fill_buffer",
    "enqueue_fill",
    "enqueue_migrate_mem_objects",
    "enqueue_copy_buffer_p2p_amd",
    "register_route",
    "route",
    "register_fill",
    "transfer_kind",
]

_mf = _constants.mem_flags
_SLICE_THE_HOST = "the host side of a transfer takes none; pass a slice of the host array instead"


# {{{ checks shared by the routes


def _marker(q: Any, count: int, events: Any, cls: type[_E]) -> _E:
    out, out_int = out_cell()
    check(lib.pycl_enqueue_marker(q, count, events, out), "clEnqueueMarkerWithWaitList")
    return take_event(cls, out, out_int)


def _nanny_marker(q: Any, count: int, events: Any, host_obj: object) -> NannyEvent:
    event = _marker(q, count, events, NannyEvent)
    event._ward = host_obj
    return event


def _nanny(out: Any, out_int: Any, host_obj: object, host: Any, is_blocking: bool) -> NannyEvent:
    """The NannyEvent of a host transfer (its event in ``out_cell()``); a
    non-blocking one keeps the host object (and its buffer export ``host``)
    until it completes."""
    event = take_event(NannyEvent, out, out_int)
    event._ward = host_obj
    if not is_blocking:
        _wards.keep(event._handle, host)
    return event


def _check_alias_presence(function: _Route, kwargs: dict[str, Any]) -> None:
    """PyOpenCL refuses a deprecated keyword given together with its new
    name, whatever the new one's value (it tests presence): so does pycl."""
    old, new = _ALIASES.get(function, (None, None))
    if old is not None and kwargs.get(old) is not None and new in kwargs:
        raise TypeError("enqueue_copy: may not specify both '%s' and '%s'" % (new, old))


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
        stacklevel=4,
    )
    return kwargs_value


# }}}


# {{{ route table


# (dest kind, src kind) -> [(selector or None, allowed keywords, function)]
_routes: dict[tuple[str, str], list[tuple[Optional[str], frozenset[str], _Route]]] = {}


def transfer_kind(obj: object) -> str:
    """``"buffer"``, ``"image"``, ``"svm"`` ... or ``"host"`` for a host object."""
    if type(obj) in _host_types:
        return "host"
    kind = getattr(obj, "_transfer_kind", None)
    if kind is None:
        # Remembered by type: getattr's failed look-up costs an exception
        # inside, on every numpy array.
        if len(_host_types) < 256:
            _host_types.add(type(obj))
        return "host"
    return kind


_host_types: set[type[Any]] = set()  # types without _transfer_kind (numpy.ndarray, bytearray ...)


def route(dest_kind: str, src_kind: str) -> _Route:
    """The default route (the one without a selector) for a pair of kinds:
    for callers that know their kinds and keywords (PyOpenCL's
    ``_enqueue_read_buffer`` and ``_enqueue_write_buffer``), which it spares
    ``enqueue_copy``'s look-up and keyword check."""
    return next(function for selector, _, function in _routes[(dest_kind, src_kind)] if selector is None)


def register_route(
    dest_kind: str, src_kind: str, function: _Route, keywords: Iterable[str], selector: Optional[str] = None
) -> None:
    """Serve ``enqueue_copy(queue, dest, src, **kwargs)`` for the pair of
    kinds with ``function(queue, dest, src, **kwargs)``; ``keywords`` lists
    the keyword arguments it takes; a ``selector`` keyword, when present in
    the call, chooses this route over the pair's default (selector None)."""
    routes = _routes.setdefault((dest_kind, src_kind), [])
    entry = (selector, frozenset(keywords), function)
    routes[:] = [r for r in routes if r[0] != selector]
    if selector is None:
        routes.append(entry)
    else:
        routes.insert(0, entry)


def enqueue_copy(queue: CommandQueue, dest: object, src: object, **kwargs: Any) -> Event:
    """Copy between buffers (and images, SVM) and host memory; see PyOpenCL's
    ``enqueue_copy`` for the keyword arguments of each combination. Returns a
    ``NannyEvent`` if host memory is involved, else an ``Event``.

    Differences from PyOpenCL: buffer->buffer without ``byte_count`` copies
    ``min(src.size - src_offset, dest.size - dst_offset)`` bytes (as the
    documentation says; PyOpenCL copies the source size and fails on a smaller
    destination); a dropped ``NannyEvent`` never blocks (pycl keeps the host
    object alive instead); zero-byte transfers enqueue a marker.
    """
    if not kwargs and type(queue) is CommandQueue:
        # The most frequent call, a blocking copy between a whole host array
        # and the start of a buffer, in one pass (see _fast_host_copy).
        if isinstance(dest, MemoryObject):
            if dest._transfer_kind == "buffer":
                event = _fast_host_copy(queue, dest, src, False)
                if event is not None:
                    return event
        elif isinstance(src, MemoryObject) and src._transfer_kind == "buffer":
            event = _fast_host_copy(queue, src, dest, True)
            if event is not None:
                return event
    routes = _routes.get((transfer_kind(dest), transfer_kind(src)))
    if routes is None:
        raise TypeError(
            "enqueue_copy: cannot copy from %s to %s (host-to-host copies are unsupported)"
            % (_kind_text(src), _kind_text(dest))
        )
    for selector, keywords, function in routes:
        if selector is None or selector in kwargs:
            if kwargs and not keywords.issuperset(kwargs):
                unknown = sorted(set(kwargs) - keywords)
                raise TypeError(
                    "enqueue_copy: unexpected keyword argument(s) %s for a copy from %s to %s; it takes %s"
                    % (", ".join(unknown), _kind_text(src), _kind_text(dest), ", ".join(sorted(keywords)))
                )
            if "device_offset" in kwargs or "dest_offset" in kwargs:
                _check_alias_presence(function, kwargs)
            return function(queue, dest, src, **kwargs)
    # Only routes with a selector are left here (a default route returns
    # above), which mypy cannot follow: r[0] is a str.
    raise TypeError(
        "enqueue_copy: a copy from %s to %s needs one of the keyword arguments %s"
        % (_kind_text(src), _kind_text(dest), ", ".join(r[0] for r in routes))  # type: ignore[misc]
    )


def _fast_host_copy(queue: CommandQueue, buf: MemoryObject, host_obj: object, reading: bool) -> Optional[NannyEvent]:
    """``enqueue_copy(queue, buf, host_obj)`` (or the reverse when
    ``reading``) with no keywords: the checks of _write_buffer/_read_buffer
    for offset 0, blocking and no wait list, then the call. None where the
    general route must decide (a released object, another context, a host
    object that is not a C-contiguous writable-as-needed buffer, an empty or
    too large transfer, host-access flags, a copy big enough to stage): the
    route then checks everything again and explains."""
    q = queue._handle
    mem = buf._handle
    if (
        q is None
        or mem is None
        or buf._ctx_ptr != queue._context._ptr
        or buf._flags & (NO_HOST_READ if reading else NO_HOST_WRITE)
    ):
        return None
    try:
        host = _from_buffer(host_obj, require_writable=reading)
    except (TypeError, ValueError, BufferError):
        return None
    n = len(host)
    if not 0 < n <= buf._size or n >= _staging.threshold:
        return None
    if _wards._pending:
        _wards.prune_completed_front()
    cell, cell_int = out_cell()
    if reading:
        status = _enqueue_read(q, mem, 1, 0, n, host, 0, _NULL, cell)
        if status:
            check(status, "clEnqueueReadBuffer", "src_offset 0, %d bytes" % n)
    else:
        status = _enqueue_write(q, mem, 1, 0, n, host, 0, _NULL, cell)
        if status:
            check(status, "clEnqueueWriteBuffer", "dst_offset 0, %d bytes" % n)
    event = take_event(NannyEvent, cell, cell_int)
    event._ward = host_obj
    return event


_from_buffer, _NULL = ffi.from_buffer, ffi.NULL
_enqueue_read, _enqueue_write = lib.pycl_enqueue_read_buffer, lib.pycl_enqueue_write_buffer


def _kind_text(obj: object) -> str:
    kind = transfer_kind(obj)
    return "host (%s)" % describe(obj) if kind == "host" else "%s (%s)" % (kind, type(obj).__name__)


# }}}


# {{{ linear buffer routes


def _write_buffer(
    queue: CommandQueue,
    dest: Buffer,
    src: HostSource,
    dst_offset: Size = 0,
    src_offset: Size = 0,
    is_blocking: bool = True,
    wait_for: WaitList = None,
    device_offset: Optional[Size] = None,
) -> NannyEvent:
    routine = "enqueue_copy"
    if _wards._pending:
        _wards.prune_completed_front()
    q = queue_handle(queue, routine)
    mem = mem_handle(dest, queue, routine, "dest")
    host = host_bytes(src, False, routine, "src")
    n = len(host)
    if device_offset is not None:
        dst_offset = _deprecated_alias(device_offset, dst_offset, "device_offset", "dst_offset", routine)
    dst_offset = size_value(dst_offset, "dst_offset", routine)
    no_offset(src_offset, "src_offset", routine, _SLICE_THE_HOST)
    if dst_offset + n > dest._size:
        raise logic_error(
            routine,
            "src (%s, %d bytes) at dst_offset = %d ends at byte %d, past the end of dest (%d bytes)"
            % (describe(src), n, dst_offset, dst_offset + n, dest._size),
        )
    if dest._flags & NO_HOST_WRITE:
        host_access(dest, NO_HOST_WRITE, routine, "write it")
    count, events = wait_list(wait_for, routine)
    if n == 0:
        return _nanny_marker(q, count, events, src)
    out, out_int = out_cell()
    if n >= _staging.threshold and is_blocking:
        stager = _staging.stager(queue, src)
        if stager is not None:
            status = lib.pycl_staged_write(stager, q, mem, dst_offset, host, n, 1, count, events, out)
            if status:
                check(status, "clEnqueueWriteBuffer", "staged: dst_offset %d, %d bytes" % (dst_offset, n))
            return _nanny(out, out_int, src, host, True)
    status = lib.pycl_enqueue_write_buffer(q, mem, 1 if is_blocking else 0, dst_offset, n, host, count, events, out)
    if status:
        check(status, "clEnqueueWriteBuffer", "dst_offset %d, %d bytes" % (dst_offset, n))
    return _nanny(out, out_int, src, host, is_blocking)


def _read_buffer(
    queue: CommandQueue,
    dest: HostDestination,
    src: Buffer,
    src_offset: Size = 0,
    dst_offset: Size = 0,
    is_blocking: bool = True,
    wait_for: WaitList = None,
    device_offset: Optional[Size] = None,
) -> NannyEvent:
    routine = "enqueue_copy"
    if _wards._pending:
        _wards.prune_completed_front()
    q = queue_handle(queue, routine)
    mem = mem_handle(src, queue, routine, "src")
    host = host_bytes(dest, True, routine, "dest")
    n = len(host)
    if device_offset is not None:
        src_offset = _deprecated_alias(device_offset, src_offset, "device_offset", "src_offset", routine)
    src_offset = size_value(src_offset, "src_offset", routine)
    no_offset(dst_offset, "dst_offset", routine, _SLICE_THE_HOST)
    if src_offset + n > src._size:
        raise logic_error(
            routine,
            "dest (%s, %d bytes) read from src_offset = %d needs bytes up to %d, past the end of src (%d bytes)"
            % (describe(dest), n, src_offset, src_offset + n, src._size),
        )
    if src._flags & NO_HOST_READ:
        host_access(src, NO_HOST_READ, routine, "read it")
    count, events = wait_list(wait_for, routine)
    if n == 0:
        return _nanny_marker(q, count, events, dest)
    out, out_int = out_cell()
    if n >= _staging.threshold and is_blocking:
        stager = _staging.stager(queue, dest)
        if stager is not None:
            status = lib.pycl_staged_read(stager, q, mem, src_offset, host, n, count, events, out)
            if status:
                check(status, "clEnqueueReadBuffer", "staged: src_offset %d, %d bytes" % (src_offset, n))
            return _nanny(out, out_int, dest, host, True)
    status = lib.pycl_enqueue_read_buffer(q, mem, 1 if is_blocking else 0, src_offset, n, host, count, events, out)
    if status:
        check(status, "clEnqueueReadBuffer", "src_offset %d, %d bytes" % (src_offset, n))
    return _nanny(out, out_int, dest, host, is_blocking)


def _copy_buffer(
    queue: CommandQueue,
    dest: Buffer,
    src: Buffer,
    byte_count: Optional[Size] = None,
    src_offset: Size = 0,
    dst_offset: Size = 0,
    wait_for: WaitList = None,
    dest_offset: Optional[Size] = None,
) -> Event:
    routine = "enqueue_copy"
    if _wards._pending:
        _wards.prune_completed_front()
    q = queue_handle(queue, routine)
    src_mem = mem_handle(src, queue, routine, "src")
    dst_mem = mem_handle(dest, queue, routine, "dest")
    if dest_offset is not None:
        dst_offset = _deprecated_alias(dest_offset, dst_offset, "dest_offset", "dst_offset", routine)
    src_offset, dst_offset, n = copy_extent(src, dest, byte_count, src_offset, dst_offset, routine, "dest")
    count, events = wait_list(wait_for, routine)
    if n == 0:
        return _marker(q, count, events, Event)
    out, out_int = out_cell()
    status = lib.pycl_enqueue_copy_buffer(q, src_mem, dst_mem, src_offset, dst_offset, n, count, events, out)
    if status:
        check(status, "clEnqueueCopyBuffer", "src_offset %d, dst_offset %d, %d bytes" % (src_offset, dst_offset, n))
    return take_event(Event, out, out_int)


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


# {{{ rectangular routes


def _side_text(label: str, obj: object) -> str:
    """``label`` and ``obj`` for a message: a memory object's repr, else a
    host object's description."""
    if hasattr(obj, "_transfer_kind"):
        return "%s (%r)" % (label, obj)
    return "%s (%s)" % (label, describe(obj))


def rect_side(
    origin: tuple[int, ...],
    region: tuple[int, ...],
    pitches: tuple[int, ...],
    size: int,
    names: tuple[str, str, str, object],
    routine: str,
) -> tuple[int, int, int]:
    """Resolve one side of a rect copy: ``(row_pitch, slice_pitch, start)``
    with ``start`` its first byte, after checking that the region lies in
    ``size`` bytes. ``names`` = (origin name, pitches name, the side's label
    and object for messages, e.g. ``"src"`` and the buffer), formatted only
    when a check fails."""
    origin_name, pitches_name, label, obj = names
    r0, r1, r2 = region
    row, slice_ = pitches
    if row == 0:
        row = r0
    elif row < r0:
        raise logic_error(routine, "%s[0] (row pitch) = %d is smaller than region[0] = %d" % (pitches_name, row, r0))
    if slice_ == 0:
        slice_ = r1 * row
    elif slice_ < r1 * row:
        raise logic_error(
            routine,
            "%s[1] (slice pitch) = %d is smaller than region[1] * row pitch = %d * %d = %d"
            % (pitches_name, slice_, r1, row, r1 * row),
        )
    elif slice_ % row:
        raise logic_error(
            routine, "%s[1] (slice pitch) = %d is not a multiple of the row pitch %d" % (pitches_name, slice_, row)
        )
    start = origin[0] + origin[1] * row + origin[2] * slice_
    end = start + (r2 - 1) * slice_ + (r1 - 1) * row + r0
    if end > size:
        raise logic_error(
            routine,
            "%s = %r with region = %r and %s = (%d, %d) reaches byte %d, past the end of %s (%d bytes)"
            % (origin_name, origin, region, pitches_name, row, slice_, end, _side_text(label, obj), size),
        )
    return row, slice_, start


def rects_overlap(a: int, b: int, region: tuple[int, ...], row: int, slice_: int) -> bool:
    """Whether two boxes of ``region`` bytes at byte offsets ``a`` and ``b``
    of one buffer, with the same pitches, share a byte. Exact and O(1): rows
    [a + z*slice + y*row, +w) and [b + z'*slice + y'*row, +w) meet iff
    ``|a - b + m*row| < w`` for ``m = dz*k + dy`` (``k = slice/row``,
    ``|dz| < depth``, ``|dy| < height``); at most two ``m`` qualify (w <= row),
    and each has at most two decompositions (height <= k)."""
    w, h, d = region
    delta = a - b
    k = slice_ // row
    for m in range(-((w - 1 + delta) // row), (w - 1 - delta) // row + 1):
        q = m // k
        for dz in (q, q + 1):
            if abs(dz) < d and abs(m - dz * k) < h:
                return True
    return False


def _rect_common(region: Extent, routine: str) -> tuple[tuple[int, ...], bool]:
    region = triple(region, "region", 1, routine)
    return region, 0 in region


def _host_rect(
    queue: CommandQueue,
    buf: Buffer,
    host_obj: HostSource,
    buffer_origin: Extent,
    host_origin: Extent,
    region: Extent,
    buffer_pitches: Optional[Extent],
    host_pitches: Optional[Extent],
    is_blocking: bool,
    wait_for: WaitList,
    reading: bool,
) -> NannyEvent:
    routine = "enqueue_copy"
    if _wards._pending:
        _wards.prune_completed_front()
    q = queue_handle(queue, routine)
    mem = mem_handle(buf, queue, routine, "src" if reading else "dest")
    host = host_bytes(host_obj, reading, routine, "dest" if reading else "src")
    buffer_origin = triple(buffer_origin, "buffer_origin", 0, routine)
    host_origin = triple(host_origin, "host_origin", 0, routine)
    region, empty = _rect_common(region, routine)
    buffer_pitches = pitch_pair(buffer_pitches, "buffer_pitches", routine)
    host_pitches = pitch_pair(host_pitches, "host_pitches", routine)
    if reading and buf._flags & NO_HOST_READ:
        host_access(buf, NO_HOST_READ, routine, "read it")
    elif not reading and buf._flags & NO_HOST_WRITE:
        host_access(buf, NO_HOST_WRITE, routine, "write it")
    count, events = wait_list(wait_for, routine)
    if empty:
        return _nanny_marker(q, count, events, host_obj)
    b_row, b_slice, _ = rect_side(
        buffer_origin,
        region,
        buffer_pitches,
        buf._size,
        ("buffer_origin", "buffer_pitches", "the buffer", buf),
        routine,
    )
    h_row, h_slice, _ = rect_side(
        host_origin,
        region,
        host_pitches,
        len(host),
        ("host_origin", "host_pitches", "the host array", host_obj),
        routine,
    )
    out, out_int = out_cell()
    bx, by, bz = buffer_origin
    hx, hy, hz = host_origin
    rx, ry, rz = region
    status = lib.pycl_host_rect(
        q,
        mem,
        reading,
        1 if is_blocking else 0,
        bx,
        by,
        bz,
        hx,
        hy,
        hz,
        rx,
        ry,
        rz,
        b_row,
        b_slice,
        h_row,
        h_slice,
        host,
        count,
        events,
        out,
    )
    if status:
        check(
            status,
            "clEnqueueReadBufferRect" if reading else "clEnqueueWriteBufferRect",
            "buffer_origin %r, host_origin %r, region %r" % (buffer_origin, host_origin, region),
        )
    return _nanny(out, out_int, host_obj, host, is_blocking)


def _write_buffer_rect(
    queue: CommandQueue,
    dest: Buffer,
    src: HostSource,
    buffer_origin: Extent,
    host_origin: Extent,
    region: Extent,
    buffer_pitches: Optional[Extent] = None,
    host_pitches: Optional[Extent] = None,
    is_blocking: bool = True,
    wait_for: WaitList = None,
) -> NannyEvent:
    return _host_rect(
        queue, dest, src, buffer_origin, host_origin, region, buffer_pitches, host_pitches, is_blocking, wait_for, False
    )


def _read_buffer_rect(
    queue: CommandQueue,
    dest: HostDestination,
    src: Buffer,
    buffer_origin: Extent,
    host_origin: Extent,
    region: Extent,
    buffer_pitches: Optional[Extent] = None,
    host_pitches: Optional[Extent] = None,
    is_blocking: bool = True,
    wait_for: WaitList = None,
) -> NannyEvent:
    return _host_rect(
        queue, src, dest, buffer_origin, host_origin, region, buffer_pitches, host_pitches, is_blocking, wait_for, True
    )


def _copy_buffer_rect(
    queue: CommandQueue,
    dest: Buffer,
    src: Buffer,
    src_origin: Extent,
    dst_origin: Extent,
    region: Extent,
    src_pitches: Optional[Extent] = None,
    dst_pitches: Optional[Extent] = None,
    wait_for: WaitList = None,
) -> Event:
    routine = "enqueue_copy"
    if _wards._pending:
        _wards.prune_completed_front()
    q = queue_handle(queue, routine)
    src_mem = mem_handle(src, queue, routine, "src")
    dst_mem = mem_handle(dest, queue, routine, "dest")
    src_origin = triple(src_origin, "src_origin", 0, routine)
    dst_origin = triple(dst_origin, "dst_origin", 0, routine)
    region, empty = _rect_common(region, routine)
    src_pitches = pitch_pair(src_pitches, "src_pitches", routine)
    dst_pitches = pitch_pair(dst_pitches, "dst_pitches", routine)
    count, events = wait_list(wait_for, routine)
    if empty:
        return _marker(q, count, events, Event)
    s_row, s_slice, s_start = rect_side(
        src_origin, region, src_pitches, src._size, ("src_origin", "src_pitches", "src", src), routine
    )
    d_row, d_slice, d_start = rect_side(
        dst_origin, region, dst_pitches, dest._size, ("dst_origin", "dst_pitches", "dest", dest), routine
    )
    if src._root_ptr == dest._root_ptr:
        # One buffer (or sub-buffers of one): OpenCL wants equal pitches there,
        # and the shim passes sub-buffers to the driver as their parent.
        if (s_row, s_slice) != (d_row, d_slice):
            raise logic_error(
                routine,
                "src and dest share one buffer, so their pitches must be equal: src_pitches (%d, %d) vs "
                "dst_pitches (%d, %d)" % (s_row, s_slice, d_row, d_slice),
            )
        if rects_overlap(src._origin + s_start, dest._origin + d_start, region, s_row, s_slice):
            raise logic_error(
                routine,
                "the source region (src_origin %r) and destination region (dst_origin %r) of the same buffer overlap"
                % (src_origin, dst_origin),
                lib.CL_MEM_COPY_OVERLAP,
            )
    out, out_int = out_cell()
    status = lib.pycl_enqueue_copy_buffer_rect(
        q,
        src_mem,
        dst_mem,
        ffi.new("size_t[3]", src_origin),
        ffi.new("size_t[3]", dst_origin),
        ffi.new("size_t[3]", region),
        s_row,
        s_slice,
        d_row,
        d_slice,
        count,
        events,
        out,
    )
    if status == lib.CL_MEM_COPY_OVERLAP and src._root_ptr == dest._root_ptr:
        # PoCL 3.0/3.1 misjudge overlap in clEnqueueCopyBufferRect on one
        # buffer: they refuse many disjoint regions (and accept some that
        # overlap, which pycl refuses above). pycl has proved these regions
        # disjoint, so it copies them row by row with clEnqueueCopyBuffer.
        # Can go when no supported PoCL has the defect.
        rows = [
            (s_start + z * s_slice + y * s_row, d_start + z * d_slice + y * d_row)
            for z in range(region[2])
            for y in range(region[1])
        ]
        return _copy_rows(q, src_mem, dst_mem, rows, region[0], count, events)
    if status:
        check(
            status,
            "clEnqueueCopyBufferRect",
            "src_origin %r, dst_origin %r, region %r" % (src_origin, dst_origin, region),
        )
    return take_event(Event, out, out_int)


def _copy_rows(
    q: Any, src_mem: Any, dst_mem: Any, rows: list[tuple[int, int]], width: int, count: int, events: Any
) -> Event:
    """Linear copies of ``width`` bytes for each ``(src, dst)`` offset pair,
    after ``events``; returns a marker event that completes after all."""
    row_events = ffi.new("cl_event[]", len(rows))
    done = 0
    try:
        for i, (a, b) in enumerate(rows):
            status = lib.pycl_enqueue_copy_buffer(q, src_mem, dst_mem, a, b, width, count, events, row_events + i)
            if status:
                check(
                    status, "clEnqueueCopyBuffer", "row %d of a rect copy (src %d, dst %d, %d bytes)" % (i, a, b, width)
                )
            done += 1
        return _marker(q, done, row_events, Event)
    finally:
        for i in range(done):
            lib.pycl_event_release(row_events[i])


# The deprecated keyword of a route and the name that replaced it.
_ALIASES: dict[_Route, tuple[str, str]] = {
    _write_buffer: ("device_offset", "dst_offset"),
    _read_buffer: ("device_offset", "src_offset"),
    _copy_buffer: ("dest_offset", "dst_offset"),
}
_HOST_RECT = ("buffer_origin", "host_origin", "region", "buffer_pitches", "host_pitches", "is_blocking", "wait_for")
register_route(
    "buffer", "host", _write_buffer, ("dst_offset", "src_offset", "is_blocking", "wait_for", "device_offset")
)
register_route("buffer", "host", _write_buffer_rect, _HOST_RECT, selector="buffer_origin")
register_route("host", "buffer", _read_buffer, ("src_offset", "dst_offset", "is_blocking", "wait_for", "device_offset"))
register_route("host", "buffer", _read_buffer_rect, _HOST_RECT, selector="buffer_origin")
register_route("buffer", "buffer", _copy_buffer, ("byte_count", "src_offset", "dst_offset", "wait_for", "dest_offset"))
register_route(
    "buffer",
    "buffer",
    _copy_buffer_rect,
    ("src_origin", "dst_origin", "region", "src_pitches", "dst_pitches", "wait_for"),
    selector="src_origin",
)


# }}}


# {{{ fills


_PATTERN_SIZES = (1, 2, 4, 8, 16, 32, 64, 128)


def enqueue_fill_buffer(
    queue: CommandQueue, mem: Buffer, pattern: HostSource, offset: Size, size: Size, wait_for: WaitList = None
) -> Event:
    """Fill ``size`` bytes of ``mem`` from ``offset`` with ``pattern`` (a
    buffer-protocol object of 1, 2, 4, ... 128 bytes, e.g. ``numpy.uint32(0)``);
    ``offset`` and ``size`` must be multiples of the pattern size. OpenCL 1.2."""
    routine = "enqueue_fill_buffer"
    if _wards._pending:
        _wards.prune_completed_front()
    q = queue_handle(queue, routine)
    if not isinstance(mem, MemoryObject) or mem._transfer_kind != "buffer":
        raise TypeError("%s: mem must be a pycl.Buffer, not %s" % (routine, type(mem).__name__))
    handle = mem_handle(mem, queue, routine, "mem")
    data = host_bytes(pattern, False, routine, "pattern")
    p = len(data)
    if p not in _PATTERN_SIZES:
        raise logic_error(
            routine, "pattern (%s) has %d bytes; OpenCL takes 1, 2, 4, 8, 16, 32, 64 or 128" % (describe(pattern), p)
        )
    offset = size_value(offset, "offset", routine)
    size = size_value(size, "size", routine)
    if offset % p:
        raise logic_error(routine, "offset = %d is not a multiple of the pattern size %d" % (offset, p))
    if size % p:
        raise logic_error(routine, "size = %d is not a multiple of the pattern size %d" % (size, p))
    if offset + size > mem._size:
        raise logic_error(
            routine,
            "offset %d + size %d = %d is past the end of mem (%d bytes)" % (offset, size, offset + size, mem._size),
        )
    count, events = wait_list(wait_for, routine)
    if size == 0:
        return _marker(q, count, events, Event)
    out, out_int = out_cell()
    status = lib.pycl_enqueue_fill_buffer(q, handle, data, p, offset, size, count, events, out)
    if status:
        check(status, "clEnqueueFillBuffer", "pattern of %d bytes, offset %d, size %d" % (p, offset, size))
    return take_event(Event, out, out_int)


_fills: dict[str, _Fill] = {}  # transfer kind -> function(queue, dest, pattern, size, offset, wait_for)


def register_fill(kind: str, function: _Fill) -> None:
    """Serve ``enqueue_fill`` for destinations of ``kind`` (SVM adds its own)."""
    _fills[kind] = function


def enqueue_fill(
    queue: CommandQueue, dest: object, pattern: HostSource, size: Size, *, offset: Size = 0, wait_for: WaitList = None
) -> Event:
    """Fill ``size`` bytes of ``dest`` (a Buffer, or an SVM pointer where
    supported) from ``offset`` with ``pattern``."""
    function = _fills.get(transfer_kind(dest))
    if function is None:
        raise TypeError("enqueue_fill does not know how to fill %s" % _kind_text(dest))
    return function(queue, dest, pattern, size, offset, wait_for)


register_fill(
    "buffer",
    lambda queue, dest, pattern, size, offset, wait_for: enqueue_fill_buffer(
        queue, dest, pattern, offset, size, wait_for
    ),
)


# }}}


# {{{ migration and P2P


def enqueue_migrate_mem_objects(
    queue: CommandQueue, mem_objects: Iterable[MemoryObject], flags: Size = 0, wait_for: WaitList = None
) -> Event:
    """Migrate ``mem_objects`` to the queue's device (or to the host with
    ``mem_migration_flags.HOST``). OpenCL 1.2."""
    routine = "enqueue_migrate_mem_objects"
    q = queue_handle(queue, routine)
    try:
        objects = list(mem_objects)
    except TypeError:
        raise TypeError("%s: mem_objects must be a sequence of memory objects" % routine) from None
    if not objects:
        raise logic_error(routine, "mem_objects is empty")
    handles: list[Any] = []
    for i, mem in enumerate(objects):
        if not isinstance(mem, MemoryObject):
            raise TypeError("%s: mem_objects[%d] is a %s, not a memory object" % (routine, i, type(mem).__name__))
        handles.append(mem_handle(mem, queue, routine, "mem_objects[%d]" % i))
    flags = bits_value(flags, "flags", _constants.mem_migration_flags, routine)
    count, events = wait_list(wait_for, routine)
    out, out_int = out_cell()
    status = lib.pycl_enqueue_migrate(q, len(handles), ffi.new("cl_mem[]", handles), flags, count, events, out)
    if status:
        check(status, "clEnqueueMigrateMemObjects")
    return take_event(Event, out, out_int)


_P2P_EXTENSION = "cl_amd_copy_buffer_p2p"
_p2p_functions: dict[int, Any] = {}  # platform handle -> function pointer


def _p2p_function(platform: Platform) -> Any:
    function = _p2p_functions.get(platform._ptr)
    if function is None:
        if _P2P_EXTENSION not in platform.extensions.split():
            raise UnavailableError(
                "enqueue_copy_buffer_p2p_amd",
                lib.PYCL_UNAVAILABLE,
                "platform %r does not provide the %s extension" % (platform.name, _P2P_EXTENSION),
            )
        out = ffi.new("void **")
        check(
            lib.pycl_get_extension_function(platform._live(), b"clEnqueueCopyBufferP2PAMD", out),
            "enqueue_copy_buffer_p2p_amd",
            _P2P_EXTENSION,
        )
        function = _p2p_functions[platform._ptr] = out[0]
    return function


def enqueue_copy_buffer_p2p_amd(
    platform: Platform,
    queue: CommandQueue,
    src: Buffer,
    dst: Buffer,
    byte_count: Optional[Size] = None,
    wait_for: WaitList = None,
) -> Event:
    """Copy between buffers of two devices in different contexts with AMD's
    ``cl_amd_copy_buffer_p2p`` extension; ``UnavailableError`` elsewhere.
    ``byte_count`` defaults to the smaller buffer's size. ``queue`` is the
    source's. (Keyword names as PyOpenCL's code has them.)"""
    routine = "enqueue_copy_buffer_p2p_amd"
    if not isinstance(platform, Platform):
        raise TypeError("%s: platform must be a pycl.Platform, not %s" % (routine, type(platform).__name__))
    for name, mem in (("src", src), ("dst", dst)):
        if not isinstance(mem, MemoryObject) or mem._transfer_kind != "buffer":
            raise TypeError("%s: %s must be a pycl.Buffer, not %s" % (routine, name, type(mem).__name__))
    q = queue_handle(queue, routine)
    src_mem = mem_handle(src, queue, routine, "src")
    dst_mem = dst._live()
    n = min(src._size, dst._size) if byte_count is None else size_value(byte_count, "byte_count", routine)
    if n > src._size or n > dst._size:
        raise logic_error(
            routine, "byte_count = %d exceeds src (%d bytes) or dst (%d bytes)" % (n, src._size, dst._size)
        )
    function = _p2p_function(platform)
    count, events = wait_list(wait_for, routine)
    out, out_int = out_cell()
    status = lib.pycl_enqueue_copy_buffer_p2p_amd(function, q, src_mem, dst_mem, 0, 0, n, count, events, out)
    if status:
        check(status, "clEnqueueCopyBufferP2PAMD")
    return take_event(Event, out, out_int)


# }}}
