"""Image regions and the image routes of ``enqueue_copy``: the checks of
origins, regions and host pitches against an image (see ``pycl.image`` for
their axes), and the copies between an image and host memory, a buffer or
another image, registered with ``pycl.transfer.register_route``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from pycl import _wards
from pycl import constants as _constants
from pycl import staging as _staging
from pycl._args import (
    NO_HOST_READ,
    NO_HOST_WRITE,
    describe,
    host_access,
    host_bytes,
    mem_handle,
    pitch_pair,
    size_value,
    triple,
    wait_list,
)
from pycl._buffer_copy import copy_buffer
from pycl._enqueue import enqueued, marker, nanny, nanny_marker, register_route
from pycl._image_object import Image
from pycl._lib import ffi, lib
from pycl.errors import check, logic_error
from pycl.event import Event, NannyEvent, out_cell
from pycl.queue import CommandQueue, queue_handle

if TYPE_CHECKING:
    from pycl._enqueue import Route
    from pycl._typing import Extent, HostSource, Size, WaitList
    from pycl.memory import Buffer
    from pycl.platform import Device

    # An origin or region: a tuple of up to three ints, or one int.
    _Coords = Union[Size, Extent]

__all__ = ["checked_box", "plain_box", "check_image_arg", "buffer_image_crashes"]

_mot = _constants.mem_object_type


# {{{ region checks


_AXIS_NAMES = {
    _mot.IMAGE1D: ("x", "(unused)", "(unused)"),
    _mot.IMAGE1D_BUFFER: ("x", "(unused)", "(unused)"),
    _mot.IMAGE1D_ARRAY: ("x", "layer", "(unused)"),
    _mot.IMAGE2D: ("x", "y", "(unused)"),
    _mot.IMAGE2D_ARRAY: ("x", "y", "layer"),
    _mot.IMAGE3D: ("x", "y", "z"),
}


def checked_box(
    image: Image, origin: Optional[_Coords], region: Optional[_Coords], origin_name: str, side: str, routine: str
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Padded ``(origin, region)`` checked to lie inside ``image`` (None,
    the routes' default, is refused: they have to be given)."""
    origin = triple(origin, origin_name, 0, routine)
    region = triple(region, "region", 1, routine)
    extent = image._extent
    if origin[0] + region[0] <= extent[0] and origin[1] + region[1] <= extent[1] and origin[2] + region[2] <= extent[2]:
        return origin, region
    for axis in range(3):
        end = origin[axis] + region[axis]
        if end > extent[axis]:
            raise logic_error(
                routine,
                "%s = %r with region = %r reaches %d on axis %d (%s) of %s, whose extent there is %d "
                "(a %s image of shape %r)"
                % (
                    origin_name,
                    origin,
                    region,
                    end,
                    axis,
                    _AXIS_NAMES[image._type][axis],
                    side,
                    extent[axis],
                    _mot.to_string(image._type),
                    image._shape,
                ),
            )
    return origin, region


def plain_box(image: Image, origin: object, region: object) -> Optional[tuple[int, int, int, int, int, int]]:
    """``(ox, oy, oz, rx, ry, rz)``, padded as ``checked_box`` pads, when
    ``origin`` and ``region`` are tuples of 1 to 3 plain ints that lie inside
    ``image`` and cover at least one element: the one-pass paths' test.
    None for anything else (an empty region, a list, a mistake), which those
    paths leave to ``checked_box`` and the general path."""
    if type(origin) is not tuple or type(region) is not tuple:
        return None
    try:
        ox, oy, oz = origin + _ORIGIN_PADS[len(origin)]
        rx, ry, rz = region + _REGION_PADS[len(region)]
    except KeyError:  # not 1 to 3 entries
        return None
    ex, ey, ez = image._extent
    if (
        type(ox) is int
        and type(oy) is int
        and type(oz) is int
        and type(rx) is int
        and type(ry) is int
        and type(rz) is int
        and ox >= 0
        and oy >= 0
        and oz >= 0
        and rx > 0
        and ry > 0
        and rz > 0
        and ox + rx <= ex
        and oy + ry <= ey
        and oz + rz <= ez
    ):
        return ox, oy, oz, rx, ry, rz
    return None


_ORIGIN_PADS = {1: (0, 0), 2: (0,), 3: ()}  # by length: what triple pads an origin with
_REGION_PADS = {1: (1, 1), 2: (1,), 3: ()}


def _host_pitches(
    image: Image,
    region: tuple[int, ...],
    pitches: Optional[Extent],
    host_len: int,
    host_obj: object,
    host_name: str,
    routine: str,
) -> tuple[int, int]:
    """``(row_pitch, slice_pitch)`` to pass for a host transfer of ``region``,
    checked against the host object's ``host_len`` bytes."""
    row_given, slice_given = pitch_pair(pitches, "pitches", routine)
    w, h, d = region
    element = image._element
    row_min = w * element
    row = row_given or row_min
    if row < row_min:
        raise logic_error(
            routine, "pitches[0] (row pitch) = %d is smaller than region[0] %d x element size %d" % (row, w, element)
        )
    image_type = image._type
    if image_type in (_mot.IMAGE1D, _mot.IMAGE1D_BUFFER, _mot.IMAGE2D):
        if slice_given:
            raise logic_error(
                routine,
                "pitches[1] (slice pitch) = %d must be 0 for a %s image" % (slice_given, _mot.to_string(image_type)),
            )
        slice_ = 0
        need = (h - 1) * row + row_min
    elif image_type == _mot.IMAGE1D_ARRAY:
        slice_ = slice_given or row
        if slice_ < row:
            raise logic_error(routine, "pitches[1] (layer pitch) = %d is smaller than the row pitch %d" % (slice_, row))
        need = (h - 1) * slice_ + row_min
        # Drivers disagree on which pitch separates the layers of a 1D array
        # (the spec: slice_pitch; PoCL 3.1: row_pitch): pass it as both.
        row = slice_
    else:
        slice_ = slice_given or row * h
        if slice_ < row * h:
            raise logic_error(
                routine,
                "pitches[1] (slice pitch) = %d is smaller than row pitch %d x region[1] %d" % (slice_, row, h),
            )
        need = (d - 1) * slice_ + (h - 1) * row + row_min
    if need > host_len:
        raise logic_error(
            routine,
            "region = %r of %r elements (%d bytes each) with pitches (%d, %d) spans %d bytes; %s (%s) has %d"
            % (region, image._format, element, row, slice_, need, host_name, describe(host_obj), host_len),
        )
    return row, slice_


def check_image_arg(image: object, routine: str, name: str) -> None:
    if not isinstance(image, Image):
        raise TypeError("%s: %s must be a pycl.Image, not %s" % (routine, name, type(image).__name__))


# }}}


# {{{ enqueue_copy routes


def _image_host(
    queue: CommandQueue,
    image: Image,
    host_obj: HostSource,
    origin: Optional[_Coords],
    region: Optional[_Coords],
    pitches: Optional[Extent],
    is_blocking: bool,
    wait_for: WaitList,
    reading: bool,
) -> NannyEvent:
    routine = "enqueue_copy"
    q = queue_handle(queue, routine)
    mem = mem_handle(image, queue, routine, "src" if reading else "dest")
    host_name = "dest" if reading else "src"
    host = host_bytes(host_obj, reading, routine, host_name)
    origin, region = checked_box(image, origin, region, "origin", "src" if reading else "dest", routine)
    if reading and image._flags & NO_HOST_READ:
        host_access(image, NO_HOST_READ, routine, "read it")
    elif not reading and image._flags & NO_HOST_WRITE:
        host_access(image, NO_HOST_WRITE, routine, "write it")
    count, events = wait_list(wait_for, routine)
    if 0 in region:
        return nanny_marker(q, count, events, host_obj)
    row, slice_ = _host_pitches(image, region, pitches, len(host), host_obj, host_name, routine)
    out = out_cell()[0]
    ox, oy, oz = origin
    rx, ry, rz = region
    row_bytes = rx * image._element
    stager = None
    if is_blocking and row_bytes * ry * rz >= _staging.threshold:
        # Through pinned slots, as a buffer's host copies (pycl.staging).
        stager = _staging.stager(queue, host_obj)
    if stager is not None:
        layers = image._type == _mot.IMAGE1D_ARRAY
        status = lib.pycl_staged_image(
            stager, q, mem, reading, ox, oy, oz, rx, ry, rz, row_bytes, layers, row, slice_, host, count, events, out
        )
    else:
        status = lib.pycl_image_region(
            q, mem, reading, 1 if is_blocking else 0, ox, oy, oz, rx, ry, rz, row, slice_, host, count, events, out
        )
    if status:
        check(
            status,
            "clEnqueueReadImage" if reading else "clEnqueueWriteImage",
            "origin %r, region %r, pitches (%d, %d)" % (origin, region, row, slice_),
        )
    return nanny(out, host_obj, host, is_blocking)


def _image_host_route(reading: bool) -> Route:
    """The route between an image and host memory in one direction: a read
    into the host when ``reading``, else a write from it. Its common call
    (a live image of the queue's context, a plain region inside it, tightly
    packed host rows that the host object holds, no wait list, too small to
    stage) takes one pass here; anything else, mistakes included, goes to
    ``_image_host``, which checks again and names it. The direction is bound
    here, once, so that the common call pays for no extra layer."""
    if reading:
        no_access, routine_c = NO_HOST_READ, "clEnqueueReadImage"
    else:
        no_access, routine_c = NO_HOST_WRITE, "clEnqueueWriteImage"

    def image_host(
        queue: CommandQueue,
        dest: Any,
        src: Any,
        origin: Optional[_Coords] = None,
        region: Optional[_Coords] = None,
        pitches: Optional[Extent] = None,
        is_blocking: bool = True,
        wait_for: WaitList = None,
    ) -> NannyEvent:
        if reading:
            image = src
            host_obj = dest
        else:
            image = dest
            host_obj = src
        if _wards._pending:
            _wards.prune_completed_front()
        if type(queue) is CommandQueue and type(image) is Image and pitches is None and not wait_for:
            q = queue._handle
            mem = image._handle
            box = plain_box(image, origin, region)
            if (
                q is not None
                and mem is not None
                and box is not None
                and image._ctx_ptr == queue._context._ptr
                and not image._flags & no_access
            ):
                ox, oy, oz, rx, ry, rz = box
                row = rx * image._element
                nbytes = row * ry * rz
                try:
                    host = (
                        None
                        if isinstance(host_obj, _ndarray) and host_obj.dtype.hasobject
                        else _from_buffer("char[]", host_obj, reading)
                    )
                except (TypeError, ValueError, BufferError):
                    host = None
                if host is not None and nbytes <= len(host) and not (is_blocking and nbytes >= _staging.threshold):
                    # The pitches that _host_pitches passes for tightly packed rows.
                    image_type = image._type
                    if image_type in _SLICELESS:
                        slice_ = 0
                    elif image_type == _IMAGE1D_ARRAY:
                        slice_ = row
                    else:
                        slice_ = row * ry
                    out = out_cell()[0]
                    status = _image_region(
                        q,
                        mem,
                        reading,
                        1 if is_blocking else 0,
                        ox,
                        oy,
                        oz,
                        rx,
                        ry,
                        rz,
                        row,
                        slice_,
                        host,
                        0,
                        _NULL,
                        out,
                    )
                    if status:
                        check(
                            status,
                            routine_c,
                            "origin %r, region %r, pitches (%d, %d)" % ((ox, oy, oz), (rx, ry, rz), row, slice_),
                        )
                    # nanny(), inlined: the epilogue of every such call.
                    event = _new_object(NannyEvent)
                    event._handle = _gc(out[0], _release_event)
                    event._ward = host_obj
                    if not is_blocking:
                        _wards.keep(event._handle, host)
                    return event
        return _image_host(queue, image, host_obj, origin, region, pitches, is_blocking, wait_for, reading)

    return image_host


_SLICELESS = frozenset([_mot.IMAGE1D, _mot.IMAGE1D_BUFFER, _mot.IMAGE2D])  # host pitches without a slice pitch
_IMAGE1D_ARRAY = _mot.IMAGE1D_ARRAY
_from_buffer, _NULL, _image_region = ffi.from_buffer, ffi.NULL, lib.pycl_image_region
_buffer_image_copy, _image_copy_call = lib.pycl_buffer_image_copy, lib.pycl_image_copy
_IMAGE1D_BUFFER = _mot.IMAGE1D_BUFFER
_ndarray = np.ndarray
_new_object, _gc, _release_event = object.__new__, ffi.gc, lib.pycl_event_release

# enqueue_copy(queue, image, host) and enqueue_copy(queue, host, image).
_write_image: Route = _image_host_route(False)
_read_image: Route = _image_host_route(True)


def _buffer_span(
    image: Image, buffer: Buffer, offset: Optional[Size], region: tuple[int, ...], routine: str, buffer_name: str
) -> int:
    offset = size_value(offset, "offset", routine)
    n = region[0] * region[1] * region[2] * image._element
    if offset + n > buffer._size:
        raise logic_error(
            routine,
            "offset %d + region %r x element size %d = %d bytes is past the end of %s (%r, %d bytes)"
            % (offset, region, image._element, offset + n, buffer_name, buffer, buffer._size),
        )
    return offset


_pocl31_by_device: dict[int, bool] = {}  # device handle -> bool


def buffer_image_crashes(device: Device) -> bool:
    """PoCL 3.1 (Debian's pocl-opencl-icd) segfaults inside clEnqueueFillImage
    and clEnqueueCopyImageToBuffer when the image is an IMAGE1D_BUFFER
    (PyOpenCL crashes the same way; the pip PoCL 3.0 works). On that driver
    pycl fills the image's buffer with the converted element, and copies from
    the image's buffer, whose bytes are the image's elements (docs/differences.md,
    "Driver defects the image code works around"). The check can go when no
    supported PoCL 3.1 remains."""
    crashes = _pocl31_by_device.get(device._ptr)
    if crashes is None:
        crashes = _pocl31_by_device[device._ptr] = "PoCL 3.1" in device.platform.version
    return crashes


def _copy_buffer_image(
    queue: CommandQueue,
    dest: Any,
    src: Any,
    offset: Optional[Size] = None,
    origin: Optional[_Coords] = None,
    region: Optional[_Coords] = None,
    wait_for: WaitList = None,
) -> Event:
    """The route between a buffer and an image, in both directions: ``dest``
    and ``src`` are an ``Image`` and a ``Buffer`` in either order (the route
    table sends only those pairs here). ``offset`` is the buffer's, ``origin``
    the image's."""
    if _wards._pending:
        _wards.prune_completed_front()
    into_image = dest._transfer_kind == "image"
    # The common call in one pass: a live image (not a 1D buffer image, see
    # buffer_image_crashes) and buffer of the queue's context, a plain box
    # inside the image, a plain offset whose span fits the buffer, no wait
    # list. Anything else, mistakes included, takes the general path below,
    # which checks again and names it.
    if type(queue) is CommandQueue and type(offset) is int and offset >= 0 and not wait_for:
        image_arg, buffer_arg = (dest, src) if into_image else (src, dest)
        q = queue._handle
        src_mem = src._handle
        dst_mem = dest._handle
        context = queue._context._ptr
        box = plain_box(image_arg, origin, region) if type(image_arg) is Image else None
        if (
            box is not None
            and q is not None
            and src_mem is not None
            and dst_mem is not None
            and src._ctx_ptr == context
            and dest._ctx_ptr == context
            and image_arg._type != _IMAGE1D_BUFFER
        ):
            ox, oy, oz, rx, ry, rz = box
            if offset + rx * ry * rz * image_arg._element <= buffer_arg._size:
                out = out_cell()[0]
                if into_image:
                    status = _buffer_image_copy(q, src_mem, dst_mem, 1, offset, ox, oy, oz, rx, ry, rz, 0, _NULL, out)
                    return enqueued(
                        status,
                        out,
                        "clEnqueueCopyBufferToImage",
                        "offset %d, origin %r, region %r",
                        offset,
                        (ox, oy, oz),
                        (rx, ry, rz),
                    )
                status = _buffer_image_copy(q, dst_mem, src_mem, 0, offset, ox, oy, oz, rx, ry, rz, 0, _NULL, out)
                return enqueued(
                    status,
                    out,
                    "clEnqueueCopyImageToBuffer",
                    "origin %r, region %r, offset %d",
                    (ox, oy, oz),
                    (rx, ry, rz),
                    offset,
                )
    routine = "enqueue_copy"
    q = queue_handle(queue, routine)
    src_mem = mem_handle(src, queue, routine, "src")
    dst_mem = mem_handle(dest, queue, routine, "dest")
    image: Image
    buffer: Buffer
    if into_image:
        image, buffer, image_side, buffer_side = dest, src, "dest", "src"
    else:
        image, buffer, image_side, buffer_side = src, dest, "src", "dest"
    origin, region = checked_box(image, origin, region, "origin", image_side, routine)
    offset = _buffer_span(image, buffer, offset, region, routine, buffer_side)
    if not into_image and image._type == _mot.IMAGE1D_BUFFER and 0 not in region and buffer_image_crashes(queue.device):
        e = image._element
        return copy_buffer(
            queue,
            buffer,
            image._buffer,  # type: ignore[arg-type]  # a 1D buffer image has its buffer
            byte_count=region[0] * e,
            src_offset=origin[0] * e,
            dst_offset=offset,
            wait_for=wait_for,
        )
    count, events = wait_list(wait_for, routine)
    if 0 in region:
        return marker(q, count, events, Event)
    out = out_cell()[0]
    ox, oy, oz = origin
    rx, ry, rz = region
    if into_image:
        status = lib.pycl_buffer_image_copy(q, src_mem, dst_mem, 1, offset, ox, oy, oz, rx, ry, rz, count, events, out)
        return enqueued(
            status,
            out,
            "clEnqueueCopyBufferToImage",
            "offset %d, origin %r, region %r",
            offset,
            origin,
            region,
        )
    status = lib.pycl_buffer_image_copy(q, dst_mem, src_mem, 0, offset, ox, oy, oz, rx, ry, rz, count, events, out)
    return enqueued(
        status, out, "clEnqueueCopyImageToBuffer", "origin %r, region %r, offset %d", origin, region, offset
    )


def _copy_image(
    queue: CommandQueue,
    dest: Image,
    src: Image,
    src_origin: Optional[_Coords] = None,
    dest_origin: Optional[_Coords] = None,
    region: Optional[_Coords] = None,
    wait_for: WaitList = None,
    dst_origin: Optional[_Coords] = None,
) -> Event:
    if _wards._pending:
        _wards.prune_completed_front()
    # The common call in one pass: two live images of the queue's context
    # (not one image: no overlap to check) with the same format, plain
    # boxes inside both, no wait list. Anything else, mistakes included,
    # takes the general path below, which checks again and names it.
    if (
        type(queue) is CommandQueue
        and type(src) is Image
        and type(dest) is Image
        and dst_origin is None
        and not wait_for
        and src is not dest
    ):
        q = queue._handle
        src_mem = src._handle
        dst_mem = dest._handle
        context = queue._context._ptr
        src_box = plain_box(src, src_origin, region)
        dest_box = plain_box(dest, dest_origin, region)
        src_format, dest_format = src._format, dest._format
        if (
            src_box is not None
            and dest_box is not None
            and q is not None
            and src_mem is not None
            and dst_mem is not None
            and src._ctx_ptr == context
            and dest._ctx_ptr == context
            and src._ptr != dest._ptr
            and src_format.channel_order == dest_format.channel_order
            and src_format.channel_data_type == dest_format.channel_data_type
        ):
            sx, sy, sz, rx, ry, rz = src_box
            dx, dy, dz = dest_box[:3]
            out = out_cell()[0]
            status = _image_copy_call(q, src_mem, dst_mem, sx, sy, sz, dx, dy, dz, rx, ry, rz, 0, _NULL, out)
            return enqueued(
                status,
                out,
                "clEnqueueCopyImage",
                "src_origin %r, dest_origin %r, region %r",
                (sx, sy, sz),
                (dx, dy, dz),
                (rx, ry, rz),
            )
    routine = "enqueue_copy"
    dest_name = "dest_origin"
    if dest_origin is None and dst_origin is not None:
        dest_origin, dest_name = dst_origin, "dst_origin"
    elif dst_origin is not None:
        raise TypeError("%s: may not specify both 'dest_origin' and 'dst_origin'" % routine)
    q = queue_handle(queue, routine)
    src_mem = mem_handle(src, queue, routine, "src")
    dst_mem = mem_handle(dest, queue, routine, "dest")
    src_origin, region = checked_box(src, src_origin, region, "src_origin", "src", routine)
    dest_origin, _ = checked_box(dest, dest_origin, region, dest_name, "dest", routine)
    if src._format != dest._format:
        raise logic_error(
            routine,
            "src has format %r and dest %r: image copies need equal formats" % (src._format, dest._format),
            lib.CL_IMAGE_FORMAT_MISMATCH,
        )
    if src._ptr == dest._ptr and 0 not in region:
        if all(abs(a - b) < n for a, b, n in zip(src_origin, dest_origin, region)):
            raise logic_error(
                routine,
                "src_origin %r and dest_origin %r with region %r overlap in the same image"
                % (src_origin, dest_origin, region),
                lib.CL_MEM_COPY_OVERLAP,
            )
    count, events = wait_list(wait_for, routine)
    if 0 in region:
        return marker(q, count, events, Event)
    out = out_cell()[0]
    sx, sy, sz = src_origin
    dx, dy, dz = dest_origin
    rx, ry, rz = region
    status = lib.pycl_image_copy(q, src_mem, dst_mem, sx, sy, sz, dx, dy, dz, rx, ry, rz, count, events, out)
    return enqueued(
        status,
        out,
        "clEnqueueCopyImage",
        "src_origin %r, dest_origin %r, region %r",
        src_origin,
        dest_origin,
        region,
    )


_HOST_KEYWORDS = ("origin", "region", "pitches", "is_blocking", "wait_for")
register_route("image", "host", _write_image, _HOST_KEYWORDS)
register_route("host", "image", _read_image, _HOST_KEYWORDS)
register_route("image", "buffer", _copy_buffer_image, ("offset", "origin", "region", "wait_for"))
register_route("buffer", "image", _copy_buffer_image, ("offset", "origin", "region", "wait_for"))
register_route("image", "image", _copy_image, ("src_origin", "dest_origin", "dst_origin", "region", "wait_for"))


# }}}
