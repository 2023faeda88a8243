"""Filling and mapping images: ``enqueue_fill_image`` (with the color
conversion that stands in for a driver that crashes on 1D buffer images) and
``enqueue_map_image`` (the numpy array laid onto the driver's row and slice
pitches).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from pycl import _wards
from pycl import constants as _constants
from pycl._args import (
    DTYPE_ENTRIES,
    SIZE_LIMIT,
    VALID_MAP_FLAGS,
    describe,
    dtype_entry,
    host_bytes,
    map_flags_value,
    mem_handle,
    sizes,
    wait_list,
)
from pycl._enqueue import enqueued, marker
from pycl._image_copy import buffer_image_crashes, check_image_arg, checked_box, plain_box
from pycl._image_format import INTEGER_CHANNEL_TYPES, ImageFormat
from pycl._image_object import Image
from pycl._lib import ffi, lib
from pycl.errors import UnavailableError, check, logic_error
from pycl.event import Event, out_cell, take_event
from pycl.mapping import MemoryMap
from pycl.memory import array_interface, array_over, plain_dtype
from pycl.queue import CommandQueue, queue_handle
from pycl.transfer import enqueue_fill_buffer

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from numpy.typing import DTypeLike, NDArray

    from pycl._typing import Extent, HostSource, Size, WaitList

__all__ = ["enqueue_fill_image", "enqueue_map_image"]

_mot = _constants.mem_object_type


# {{{ fill


# channel order -> indices into the RGBA color, in element order
_ORDER_CHANNELS = {
    lib.CL_R: (0,),
    lib.CL_A: (3,),
    lib.CL_INTENSITY: (0,),
    lib.CL_LUMINANCE: (0,),
    lib.CL_RG: (0, 1),
    lib.CL_RA: (0, 3),
    lib.CL_RGBA: (0, 1, 2, 3),
    lib.CL_BGRA: (2, 1, 0, 3),
    lib.CL_ARGB: (3, 0, 1, 2),
    lib.CL_ABGR: (3, 2, 1, 0),
}
_NORM = {
    lib.CL_UNORM_INT8: (np.uint8, 0.0, 255.0),
    lib.CL_UNORM_INT16: (np.uint16, 0.0, 65535.0),
    lib.CL_SNORM_INT8: (np.int8, -1.0, 127.0),
    lib.CL_SNORM_INT16: (np.int16, -1.0, 32767.0),
}
_UNNORM: dict[int, tuple[type[np.integer[Any]], type[np.integer[Any]]]] = {
    lib.CL_SIGNED_INT8: (np.int32, np.int8),
    lib.CL_SIGNED_INT16: (np.int32, np.int16),
    lib.CL_SIGNED_INT32: (np.int32, np.int32),
    lib.CL_UNSIGNED_INT8: (np.uint32, np.uint8),
    lib.CL_UNSIGNED_INT16: (np.uint32, np.uint16),
    lib.CL_UNSIGNED_INT32: (np.uint32, np.uint32),
}


def _element_bytes(fmt: ImageFormat, color16: bytes) -> Optional[bytes]:
    """One element of ``fmt`` holding the fill color (16 bytes, as OpenCL
    passes it), converted as the spec converts written values (round to
    nearest even, saturation); None for formats pycl does not convert."""
    channels = _ORDER_CHANNELS.get(fmt.channel_order)
    if channels is None:
        return None
    t = fmt.channel_data_type
    if t in (lib.CL_FLOAT, lib.CL_HALF_FLOAT):
        values = np.frombuffer(color16, np.float32)[list(channels)]
        return values.astype(np.float32 if t == lib.CL_FLOAT else np.float16).tobytes()
    if t in _NORM:
        dtype, low, scale = _NORM[t]
        values = np.frombuffer(color16, np.float32)[list(channels)].astype(np.float64)
        return np.rint(np.clip(values, low, 1.0) * scale).astype(dtype).tobytes()
    if t in _UNNORM:
        source, dtype = _UNNORM[t]
        info = np.iinfo(dtype)
        values = np.frombuffer(color16, source)[list(channels)].astype(np.int64)
        return np.clip(values, info.min, info.max).astype(dtype).tobytes()
    return None


def enqueue_fill_image(
    queue: CommandQueue,
    mem: Image,
    color: HostSource,
    origin: Union[Size, Extent],
    region: Union[Size, Extent],
    wait_for: WaitList = None,
) -> Event:
    """Fill ``region`` of image ``mem`` at ``origin`` with ``color``: four
    values of 4 bytes (16 bytes), float32 for float, half and normalized
    channel types, int32 or uint32 for signed and unsigned integer ones, e.g.
    ``numpy.array([1, 0, 0, 1], numpy.float32)``. OpenCL 1.2."""
    if _wards._pending:
        _wards.prune_completed_front()
    # The common call in one pass (docs/design.md, "Errors and argument
    # checks"): a live image of the queue's context (not a 1D buffer image,
    # see buffer_image_crashes), a plain region inside it, a 16-byte color
    # array whose dtype already passed for this channel type, no wait list.
    # Anything else, mistakes included, takes the general path, which checks
    # again and names it.
    if type(queue) is CommandQueue and type(mem) is Image and type(color) is np.ndarray and not wait_for:
        q = queue._handle
        handle = mem._handle
        box = plain_box(mem, origin, region)
        if (
            q is not None
            and handle is not None
            and box is not None
            and mem._ctx_ptr == queue._context._ptr
            and mem._type != _IMAGE1D_BUFFER
            and (color.dtype, mem._format.channel_data_type) in _FITTING_COLORS
        ):
            try:
                data = _from_buffer("char[]", color)
            except (TypeError, ValueError, BufferError):
                data = None
            if data is not None and len(data) == 16:
                ox, oy, oz, rx, ry, rz = box
                out = out_cell()[0]
                status = _fill(q, handle, data, ox, oy, oz, rx, ry, rz, 0, _NULL, out)
                if status:
                    check(status, "clEnqueueFillImage", "origin %r, region %r" % ((ox, oy, oz), (rx, ry, rz)))
                return take_event(Event, out)
    return _fill_checked(queue, mem, color, origin, region, wait_for)


def _fill_checked(
    queue: CommandQueue,
    mem: Image,
    color: HostSource,
    origin: Union[Size, Extent],
    region: Union[Size, Extent],
    wait_for: WaitList,
) -> Event:
    """``enqueue_fill_image``'s general path: every check, each mistake named."""
    routine = "enqueue_fill_image"
    q = queue_handle(queue, routine)
    check_image_arg(mem, routine, "mem")
    handle = mem_handle(mem, queue, routine, "mem")
    data = host_bytes(color, False, routine, "color")
    if len(data) != 16:
        raise logic_error(
            routine,
            "color (%s) has %d bytes; OpenCL takes a float4, int4 or uint4 (16 bytes)" % (describe(color), len(data)),
        )
    dtype = getattr(color, "dtype", None)
    if isinstance(dtype, np.dtype) and dtype.fields is None:
        channel_type = mem._format.channel_data_type
        kind = INTEGER_CHANNEL_TYPES.get(channel_type, "f")
        if dtype.itemsize != 4 or dtype.kind not in ("f" if kind == "f" else "iu"):
            raise logic_error(
                routine,
                "color has dtype %s but %r images are filled with %s"
                % (dtype, mem._format, {"f": "float32", "i": "int32", "u": "uint32"}[kind]),
            )
        if len(_FITTING_COLORS) < 256:
            _FITTING_COLORS.add((dtype, channel_type))
    origin, region = checked_box(mem, origin, region, "origin", "mem", routine)
    if mem._type == _mot.IMAGE1D_BUFFER and 0 not in region and buffer_image_crashes(queue.device):
        pattern = _element_bytes(mem._format, ffi.buffer(data)[:])
        if pattern is None:
            raise UnavailableError(
                routine,
                lib.PYCL_UNAVAILABLE,
                "%s crashes in clEnqueueFillImage on 1D buffer images, and pycl cannot convert the color to %r "
                "to fill the buffer instead" % (queue.device.platform.version, mem._format),
            )
        element = mem._element
        return enqueue_fill_buffer(
            queue,
            mem._buffer,  # type: ignore[arg-type]  # a 1D buffer image has its buffer
            pattern,
            origin[0] * element,
            region[0] * element,
            wait_for,
        )
    count, events = wait_list(wait_for, routine)
    if 0 in region:
        return marker(q, count, events, Event)
    out = out_cell()[0]
    ox, oy, oz = origin
    rx, ry, rz = region
    status = _fill(q, handle, data, ox, oy, oz, rx, ry, rz, count, events, out)
    return enqueued(status, out, "clEnqueueFillImage", "origin %r, region %r", origin, region)


_IMAGE1D_BUFFER = _mot.IMAGE1D_BUFFER
# (color dtype, channel type) pairs that passed the general path's dtype check.
_FITTING_COLORS: set[tuple[np.dtype[Any], int]] = set()
_from_buffer, _NULL, _fill = ffi.from_buffer, ffi.NULL, lib.pycl_image_fill


# }}}


# {{{ map


@functools.lru_cache(maxsize=256)
def _map_strides(
    dims_fast: tuple[int, ...],
    itemsize: int,
    row_bytes: int,
    rows: int,
    slices: int,
    row_stride: int,
    slice_stride: int,
) -> Optional[tuple[int, ...]]:
    """Strides (fastest axis first) that lay ``dims_fast`` (a tuple of ints)
    onto rows of ``row_bytes``, ``rows`` rows ``row_stride`` apart and
    ``slices`` slices ``slice_stride`` apart, or None when the axes do not
    split into whole rows and slices. Memoized: a program maps the same
    shapes again and again."""
    strides = _group_strides(dims_fast, itemsize, [(row_bytes, 1), (rows, row_stride), (slices, slice_stride)])
    return None if strides is None else tuple(strides)


def _group_strides(dims_fast: Sequence[int], itemsize: int, groups: list[tuple[int, int]]) -> Optional[list[int]]:
    """Strides (fastest axis first) that lay ``dims_fast`` onto ``groups``:
    ``[(row bytes, 1), (rows, row stride), (slices, slice stride)]``, or None
    when the axes do not split into whole rows and slices."""
    strides: list[int] = []
    dims = list(dims_fast)
    i = 0
    for g, (target, unit) in enumerate(groups):
        if g == 0:
            stride, have = itemsize, itemsize
        else:
            stride, have = unit, 1
        while have < target and i < len(dims):
            n = dims[i]
            strides.append(stride)
            stride *= n
            have *= n
            i += 1
        if have != target:
            return None
        while i < len(dims) and dims[i] == 1:  # unit axes fit anywhere
            strides.append(stride)
            i += 1
    if i != len(dims):
        return None
    return strides


def enqueue_map_image(
    queue: CommandQueue,
    img: Image,
    flags: Size,
    origin: Union[Size, Extent],
    region: Union[Size, Extent],
    shape: Union[Size, Extent],
    dtype: DTypeLike,
    order: Literal["C", "F"] = "C",
    strides: Optional[Extent] = None,
    wait_for: WaitList = None,
    is_blocking: bool = True,
) -> tuple[NDArray[Any], Event, int, int]:
    """Map ``region`` of the image ``img`` at ``origin``; returns ``(array,
    event, row_pitch, slice_pitch)`` as PyOpenCL 2026.1.4 does (its
    documentation says ``(array, event)``): ``array.base`` is a
    ``MemoryMap``, the pitches are the driver's. (The image is ``img``, as
    PyOpenCL's code names it; its documentation says ``buf``.)

    The driver chooses the row and slice pitch of the mapped memory (often
    not tightly packed); without ``strides`` pycl lays ``shape`` (in
    ``order``) onto the mapped rows and slices with those pitches: in C order
    the last axes must make up one row (``region[0]`` elements), the axes
    before them the rows and then the slices, e.g. ``(height, width, 4)``
    uint8 for a 2D RGBA/UNSIGNED_INT8 region. ``strides`` override this and
    must stay inside the mapped memory. The array's total size must be the
    region's (``region`` elements of ``img.format.itemsize`` bytes)."""
    if _wards._pending:
        _wards.prune_completed_front()
    # The common call in one pass (docs/design.md, "Errors and argument
    # checks"): a live image of the queue's context, flags already seen for
    # its host access, a plain region inside it, a plain shape in C order
    # that splits into the region's rows and slices, no strides, no wait
    # list. Anything else, mistakes included, takes the general path
    # (_checked_map), which checks again and names it.
    box: Optional[tuple[int, ...]] = None
    if (
        type(queue) is CommandQueue
        and type(img) is Image
        and type(flags) is int
        and (flags, img._flags) in VALID_MAP_FLAGS
        and strides is None
        and order == "C"
        and not wait_for
    ):
        q = queue._handle
        mem = img._handle
        box = plain_box(img, origin, region)
        if q is None or mem is None or box is None or img._ctx_ptr != queue._context._ptr:
            box = None
        else:
            dims: tuple[int, ...] = (shape,) if type(shape) is int else shape  # type: ignore[assignment]  # tested below
            plain = type(dims) is tuple
            if plain:
                for n in dims:
                    if type(n) is not int or not 0 <= n <= SIZE_LIMIT:
                        plain = False
                        break
            if plain:
                try:
                    array_dtype, typestr = DTYPE_ENTRIES[dtype]
                except (KeyError, TypeError):
                    array_dtype, typestr = dtype_entry(dtype)
                # No split unless the shape holds the region's bytes.
                if (
                    typestr is None
                    or _map_strides(dims[::-1], array_dtype.itemsize, box[3] * img._element, box[4], box[5], 1, 1)
                    is None
                ):
                    box = None
            else:
                box = None
    if box is not None:
        count, events, array_order, array_strides = 0, _NULL, "C", None
    else:
        q, mem, flags, box, dims, array_dtype, array_order, array_strides, count, events = _checked_map(
            queue, img, flags, origin, region, shape, dtype, order, strides, wait_for
        )
        typestr = None
    ox, oy, oz, w, h, d = box
    cell = out_cell("struct pycl_map_result")[0]
    status = _map(q, mem, 1 if is_blocking else 0, flags, ox, oy, oz, w, h, d, count, events, cell)
    if status:
        check(status, "clEnqueueMapImage", "origin %r, region %r" % ((ox, oy, oz), (w, h, d)))
    result = cell[0]
    address, row_pitch, slice_pitch = result.address, result.row_pitch, result.slice_pitch  # before _adopt
    element = img._element
    memory_map, event = MemoryMap._adopt(result, img, w * h * d * element)
    # The array's strides over the driver's pitches.
    row = row_pitch or w * element
    if img._type == _IMAGE1D_ARRAY:
        ystride, zstride = (slice_pitch or row), 0
    else:
        ystride, zstride = row, (slice_pitch or row * h)
    if array_strides is None:
        # Not None: the shape was found to split into rows and slices.
        fast: tuple[int, ...] = _map_strides(  # type: ignore[assignment]
            dims[::-1] if array_order == "C" else dims, array_dtype.itemsize, w * element, h, d, ystride, zstride
        )
        array_strides = fast[::-1] if array_order == "C" else fast
    elif dims and 0 not in dims:
        span = (d - 1) * zstride + (h - 1) * ystride + w * element
        reach = array_dtype.itemsize + sum((n - 1) * s for n, s in zip(dims, array_strides))
        if reach > span:
            memory_map.release()
            raise logic_error(
                "enqueue_map_image",
                "shape %r with strides %r reaches byte %d; the mapped region spans %d bytes "
                "(row pitch %d, slice pitch %d)" % (dims, array_strides, reach, span, ystride, zstride),
            )
    if typestr is not None:
        memory_map.__array_interface__ = {
            "shape": dims,
            "typestr": typestr,
            "data": (address, False),
            "strides": array_strides,
            "version": 3,
        }
        return _asarray(memory_map), event, row_pitch, slice_pitch
    memory_map.__array_interface__ = array_interface(address, dims, array_dtype, array_strides)
    return array_over(memory_map, array_dtype), event, row_pitch, slice_pitch


def _checked_map(
    queue: CommandQueue,
    img: Image,
    flags: Size,
    origin: Union[Size, Extent],
    region: Union[Size, Extent],
    shape: Union[Size, Extent],
    dtype: DTypeLike,
    order: str,
    strides: Optional[Extent],
    wait_for: WaitList,
) -> tuple[Any, Any, int, tuple[int, ...], tuple[int, ...], np.dtype[Any], str, Optional[tuple[int, ...]], int, Any]:
    """``enqueue_map_image``'s general path: every check, each mistake
    named; returns what the map takes (queue and image handles, flags, box
    (origin and region, 6 ints), shape, dtype, order, strides or None, wait
    list). Without strides, the shape splits into the region's rows and
    slices; with them, the map checks that they stay inside the mapped
    memory, whose pitches only the driver knows."""
    routine = "enqueue_map_image"
    q = queue_handle(queue, routine)
    check_image_arg(img, routine, "img")
    mem = mem_handle(img, queue, routine, "img")
    flags = map_flags_value(flags, img, routine)
    origin, region = checked_box(img, origin, region, "origin", "img", routine)
    if 0 in region:
        raise logic_error(routine, "region = %r maps no pixels; OpenCL maps at least one" % (region,))
    shape = sizes(shape, "shape", routine)
    dtype = plain_dtype(dtype, routine)
    element = img._element
    w, h, d = region
    if strides is None:
        if order not in ("C", "F"):
            raise logic_error(routine, "order must be 'C' or 'F', got %r" % (order,))
        count = 1
        for n in shape:
            count *= n
        if count * dtype.itemsize != w * h * d * element:
            raise logic_error(
                routine,
                "shape %r of dtype %s holds %d bytes; region = %r of %d-byte elements holds %d"
                % (shape, dtype, count * dtype.itemsize, region, element, w * h * d * element),
            )
        dims_fast = shape[::-1] if order == "C" else shape
        if _map_strides(dims_fast, dtype.itemsize, w * element, h, d, 1, 1) is None:
            raise logic_error(
                routine,
                "shape %r (order %r, dtype %s) does not split into rows of %d bytes, %d rows and %d slices "
                "of region %r: pass strides" % (shape, order, dtype, w * element, h, d, region),
            )
    else:
        strides = sizes(strides, "strides", routine)
        if len(strides) != len(shape):
            raise logic_error(routine, "strides %r and shape %r differ in length" % (strides, shape))
    count, events = wait_list(wait_for, routine)
    return q, mem, flags, origin + region, shape, dtype, order, strides, count, events


_IMAGE1D_ARRAY = _mot.IMAGE1D_ARRAY
_map, _asarray = lib.pycl_image_map, np.asarray


# }}}
