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
from pycl._args import describe, dtype_of, host_bytes, map_flags_value, mem_handle, sizes, wait_list
from pycl._enqueue import enqueued, marker
from pycl._image_copy import buffer_image_crashes, check_image_arg, checked_box
from pycl._image_format import INTEGER_CHANNEL_TYPES, ImageFormat
from pycl._lib import ffi, lib
from pycl.errors import UnavailableError, logic_error
from pycl.event import Event, out_cell
from pycl.mapping import MemoryMap
from pycl.memory import array_interface
from pycl.queue import queue_handle
from pycl.transfer import enqueue_fill_buffer

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from numpy.typing import DTypeLike, NDArray

    from pycl._image_object import Image
    from pycl._typing import Extent, HostSource, Size, WaitList
    from pycl.queue import CommandQueue

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
    routine = "enqueue_fill_image"
    if _wards._pending:
        _wards.prune_completed_front()
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
        kind = INTEGER_CHANNEL_TYPES.get(mem._format.channel_data_type, "f")
        if dtype.itemsize != 4 or dtype.kind not in ("f" if kind == "f" else "iu"):
            raise logic_error(
                routine,
                "color has dtype %s but %r images are filled with %s"
                % (dtype, mem._format, {"f": "float32", "i": "int32", "u": "uint32"}[kind]),
            )
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
    out, out_int = out_cell()
    status = lib.pycl_enqueue_fill_image(
        q, handle, data, ffi.new("size_t[3]", origin), ffi.new("size_t[3]", region), count, events, out
    )
    return enqueued(status, out, out_int, "clEnqueueFillImage", "origin %r, region %r", origin, region)


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
    routine = "enqueue_map_image"
    if _wards._pending:
        _wards.prune_completed_front()
    q = queue_handle(queue, routine)
    check_image_arg(img, routine, "img")
    mem = mem_handle(img, queue, routine, "img")
    flags = map_flags_value(flags, img, routine)
    origin, region = checked_box(img, origin, region, "origin", "img", routine)
    if 0 in region:
        raise logic_error(routine, "region = %r maps no pixels; OpenCL maps at least one" % (region,))
    shape = sizes(shape, "shape", routine)
    if not isinstance(dtype, np.dtype):
        dtype = dtype_of(dtype)
    element = img._element
    w, h, d = region
    is_1d_array = img._type == _mot.IMAGE1D_ARRAY
    rows, slices = (h, d)
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
        if _map_strides(dims_fast, dtype.itemsize, w * element, rows, slices, 1, 1) is None:
            raise logic_error(
                routine,
                "shape %r (order %r, dtype %s) does not split into rows of %d bytes, %d rows and %d slices "
                "of region %r: pass strides" % (shape, order, dtype, w * element, rows, slices, region),
            )
    else:
        strides = sizes(strides, "strides", routine)
        if len(strides) != len(shape):
            raise logic_error(routine, "strides %r and shape %r differ in length" % (strides, shape))
    count, events = wait_list(wait_for, routine)
    out, out_int = out_cell()
    record = out_cell("struct pycl_mapping *")[0]
    pitches = ffi.new("size_t[2]")
    status = lib.pycl_mapping_map_image(
        q,
        mem,
        1 if is_blocking else 0,
        flags,
        ffi.new("size_t[3]", origin),
        ffi.new("size_t[3]", region),
        pitches,
        pitches + 1,
        count,
        events,
        out,
        record,
    )
    event = enqueued(status, out, out_int, "clEnqueueMapImage", "origin %r, region %r", origin, region)
    memory_map = MemoryMap._adopt(record[0], img, w * h * d * element)
    mapping = memory_map._mapping
    row = pitches[0] or w * element
    slice_ = pitches[1]
    if is_1d_array:
        ystride, zstride = (slice_ or row), 0
    else:
        ystride, zstride = row, (slice_ or row * h)
    span = (d - 1) * zstride + (h - 1) * ystride + w * element
    if strides is None:
        fast = _map_strides(dims_fast, dtype.itemsize, w * element, rows, slices, ystride, zstride)
        # fast is not None: the check above found the shape splits into rows and slices.
        strides = fast[::-1] if order == "C" else fast  # type: ignore[index]
    elif shape and 0 not in shape:
        reach = dtype.itemsize + sum((n - 1) * s for n, s in zip(shape, strides))
        if reach > span:
            memory_map.release()
            raise logic_error(
                routine,
                "shape %r with strides %r reaches byte %d; the mapped region spans %d bytes "
                "(row pitch %d, slice pitch %d)" % (shape, strides, reach, span, ystride, zstride),
            )
    memory_map.__array_interface__ = array_interface(int(ffi.cast("intptr_t", mapping.ptr)), shape, dtype, strides)
    return np.asarray(memory_map), event, pitches[0], pitches[1]


# }}}
