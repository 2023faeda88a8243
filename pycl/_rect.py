"""The rectangular routes of ``enqueue_copy``: a box of bytes between a
buffer and host memory (``buffer_origin`` selects them) and between two
buffers (``src_origin``); ``pycl.transfer`` registers them. Each side's
origin, region and pitches are checked against its size, and two boxes in
one buffer against overlap, before any C call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from pycl import _wards
from pycl import staging as _staging
from pycl._args import (
    NO_HOST_READ,
    NO_HOST_WRITE,
    SIZE_LIMIT,
    describe,
    host_access,
    host_bytes,
    mem_handle,
    pitch_pair,
    triple,
    wait_list,
)
from pycl._enqueue import enqueued, marker, nanny, nanny_marker
from pycl._lib import ffi, lib
from pycl.errors import check, logic_error
from pycl.event import Event, NannyEvent, out_cell
from pycl.queue import CommandQueue, queue_handle

if TYPE_CHECKING:
    from pycl._enqueue import Route
    from pycl._typing import Extent, HostSource, WaitList
    from pycl.memory import Buffer

__all__ = ["rect_side", "rects_overlap", "write_buffer_rect", "read_buffer_rect", "copy_buffer_rect"]


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
        return nanny_marker(q, count, events, host_obj)
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
    out = out_cell()[0]
    bx, by, bz = buffer_origin
    hx, hy, hz = host_origin
    rx, ry, rz = region
    stager = None
    if is_blocking and rx * ry * rz >= _staging.threshold:
        # Through pinned slots, as a buffer's host copies (pycl.staging).
        stager = _staging.stager(queue, host_obj)
    if stager is not None:
        start = host + (hz * h_slice + hy * h_row + hx)  # the box's first host byte
        status = lib.pycl_staged_rect(
            stager, q, mem, reading, bx, by, bz, rx, ry, rz, b_row, b_slice, h_row, h_slice, start, count, events, out
        )
    else:
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
    return nanny(out, host_obj, host, is_blocking)


def _host_rect_route(reading: bool) -> Route:
    """The rect route between a buffer and host memory in one direction: a
    read into the host when ``reading``, else a write from it. Its common
    call (a live buffer of the queue's context, plain origins and region,
    plain pitches that keep both boxes inside their memory, no wait list,
    too small to stage) takes one pass here; anything else, mistakes
    included, goes to ``_host_rect``, which checks again and names it. The
    direction is bound here, once, so that the common call pays for no extra
    layer."""
    if reading:
        no_access, routine_c = NO_HOST_READ, "clEnqueueReadBufferRect"
    else:
        no_access, routine_c = NO_HOST_WRITE, "clEnqueueWriteBufferRect"

    def host_rect(
        queue: CommandQueue,
        dest: Any,
        src: Any,
        buffer_origin: Extent,
        host_origin: Extent,
        region: Extent,
        buffer_pitches: Optional[Extent] = None,
        host_pitches: Optional[Extent] = None,
        is_blocking: bool = True,
        wait_for: WaitList = None,
    ) -> NannyEvent:
        if reading:
            buf = src
            host_obj = dest
        else:
            buf = dest
            host_obj = src
        if _wards._pending:
            _wards.prune_completed_front()
        if (
            type(queue) is CommandQueue
            and type(buffer_origin) is tuple
            and type(host_origin) is tuple
            and type(region) is tuple
            and not wait_for
        ):
            # Origins and region padded as triple pads them.
            try:
                bx, by, bz = buffer_origin + _ORIGIN_PADS[len(buffer_origin)]
                hx, hy, hz = host_origin + _ORIGIN_PADS[len(host_origin)]
                rx, ry, rz = region + _REGION_PADS[len(region)]
            except KeyError:  # not 1 to 3 entries
                bx = by = bz = hx = hy = hz = rx = ry = rz = None
            q = queue._handle
            mem = buf._handle
            b_pitches = _NO_PITCHES if buffer_pitches is None else _plain_pitches(buffer_pitches)
            h_pitches = _NO_PITCHES if host_pitches is None else _plain_pitches(host_pitches)
            if (
                type(bx) is int
                and type(by) is int
                and type(bz) is int
                and type(hx) is int
                and type(hy) is int
                and type(hz) is int
                and type(rx) is int
                and type(ry) is int
                and type(rz) is int
                and q is not None
                and mem is not None
                and b_pitches is not None
                and h_pitches is not None
                and buf._ctx_ptr == queue._context._ptr
                and not buf._flags & no_access
            ):
                try:
                    host = (
                        None
                        if isinstance(host_obj, _ndarray) and host_obj.dtype.hasobject
                        else _from_buffer("char[]", host_obj, reading)
                    )
                except (TypeError, ValueError, BufferError):
                    host = None
                if host is not None:
                    # rect_side's checks on both sides, and the staging
                    # threshold, are the shim's (pycl_host_rect_checked); a
                    # negative value is cffi's OverflowError. Either way the
                    # general path checks again and names the mistake.
                    b_row, b_slice = b_pitches
                    h_row, h_slice = h_pitches
                    out = out_cell()[0]
                    try:
                        status = _host_rect_checked(
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
                            buf._size,
                            host,
                            len(host),
                            _staging.threshold,
                            out,
                        )
                    except OverflowError:
                        status = _REFUSED
                    if status != _REFUSED:
                        if status:
                            check(
                                status,
                                routine_c,
                                "buffer_origin %r, host_origin %r, region %r"
                                % ((bx, by, bz), (hx, hy, hz), (rx, ry, rz)),
                            )
                        # nanny(), inlined: the epilogue of every such call.
                        event = _new_object(NannyEvent)
                        event._handle = _gc(out[0], _release_event)
                        event._ward = host_obj
                        if not is_blocking:
                            _wards.keep(event._handle, host)
                        return event
        return _host_rect(
            queue,
            buf,
            host_obj,
            buffer_origin,
            host_origin,
            region,
            buffer_pitches,
            host_pitches,
            is_blocking,
            wait_for,
            reading,
        )

    return host_rect


def _plain_pitches(value: object) -> Optional[tuple[int, int]]:
    """``pitch_pair``'s answer for a tuple of at most 2 plain ints in range;
    None for anything else (``pitch_pair`` then checks and names it)."""
    if type(value) is tuple:
        n = len(value)
        a = value[0] if n else 0
        b = value[1] if n == 2 else 0
        if n < 3 and type(a) is int and type(b) is int and 0 <= a <= SIZE_LIMIT and 0 <= b <= SIZE_LIMIT:
            return (a, b)
    return None


_ORIGIN_PADS = {1: (0, 0), 2: (0,), 3: ()}  # by length: what triple pads an origin with
_NO_PITCHES = (0, 0)  # pitch_pair(None)
_REGION_PADS = {1: (1, 1), 2: (1,), 3: ()}
_from_buffer, _host_rect_checked, _REFUSED = ffi.from_buffer, lib.pycl_host_rect_checked, lib.PYCL_RECT_REFUSED
_ndarray = np.ndarray
_new_object, _gc, _release_event = object.__new__, ffi.gc, lib.pycl_event_release

# enqueue_copy(queue, buffer, host, buffer_origin=...) and the reverse.
write_buffer_rect: Route = _host_rect_route(False)
read_buffer_rect: Route = _host_rect_route(True)


def copy_buffer_rect(
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
        return marker(q, count, events, Event)
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
    out = out_cell()[0]
    sx, sy, sz = src_origin
    dx, dy, dz = dst_origin
    rx, ry, rz = region
    status = lib.pycl_buffer_rect_copy(
        q, src_mem, dst_mem, sx, sy, sz, dx, dy, dz, rx, ry, rz, s_row, s_slice, d_row, d_slice, count, events, out
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
    return enqueued(
        status,
        out,
        "clEnqueueCopyBufferRect",
        "src_origin %r, dst_origin %r, region %r",
        src_origin,
        dst_origin,
        region,
    )


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
        return marker(q, done, row_events, Event)
    finally:
        for i in range(done):
            lib.pycl_event_release(row_events[i])
