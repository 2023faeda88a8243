"""Images: ``ImageFormat``, ``get_supported_image_formats``, ``Image`` /
``create_image``, ``image_from_array``, ``enqueue_fill_image``,
``enqueue_map_image``, and the image routes of ``enqueue_copy``.

Coordinates. Every origin and region is a tuple of up to three ints, padded
with 0 (origins) and 1 (regions) as in PyOpenCL. Their axes depend on the
image type, as in OpenCL:

==============  ======================  ==========================
type            origin                  region
==============  ======================  ==========================
1D, 1D buffer   ``(x,)``                ``(width,)``
1D array        ``(x, layer)``          ``(width, layers)``
2D              ``(x, y)``              ``(width, height)``
2D array        ``(x, y, layer)``       ``(width, height, layers)``
3D              ``(x, y, z)``           ``(width, height, depth)``
==============  ======================  ==========================

x varies fastest, so a C-order numpy array of an image region has the shape
``region[::-1]`` (plus a channel axis): ``ary[y, x]`` is pixel ``(x, y)``.

Host pitches (``pitches=(row_pitch, slice_pitch)``, 0 or absent: tightly
packed) describe the host array: pixel ``(x, y, z)`` of the region is at byte
``x * element_size + y * row_pitch + z * slice_pitch``. For a 1D image array
the layers are ``slice_pitch`` apart, and ``slice_pitch`` defaults to
``row_pitch`` (so a 1-tuple gives the layer distance), as ``clCreateImage``
defines it. pycl passes explicit pitches to the driver, never 0, so every
driver computes the same layout.

Every origin, region and pitch is checked against the image's dimensions and
the host array before any C call (``LogicError`` naming the argument, its value
and the limit). Images are optional in OpenCL 3.0: where no device of the
context supports images, every image call raises ``UnavailableError``.

Differences from PyOpenCL (see docs/differences.md): 1D, 1D buffer and 1D
array images take part in ``enqueue_copy``; ``Image.shape`` exists for every
image type; a 1D image array gets the array size of its shape (PyOpenCL's
descriptor sets it to 1); packed formats (``UNORM_SHORT_565`` ...) report
their true ``itemsize``; ``Image(...)`` is not deprecated.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from pycl._lib import ffi, lib
from pycl import budget as _budget
from pycl import cltypes as _cltypes
from pycl import constants as _constants
from pycl import _info
from pycl import _wards
from pycl.errors import UnavailableError, check, logic_error
from pycl.event import Event, out_cell, take_event
from pycl.mapping import MemoryMap
from pycl._args import dtype_of as _map_dtype
from pycl.memory import ALLOCATION_FAILURES, MemoryObject, array_interface, register_mem_class
from pycl.transfer import (
    _copy_buffer,
    enqueue_fill_buffer,
    _marker,
    _nanny,
    _nanny_marker,
    register_route,
)
from pycl.queue import queue_handle
from pycl._args import (
    ACCESS_FLAGS,
    HOST_PTR_FLAGS,
    NO_HOST_READ,
    NO_HOST_WRITE,
    describe,
    host_access,
    host_bytes,
    map_flags_value,
    mem_flags_value,
    mem_handle,
    pitch_pair,
    properties_array,
    size_value,
    sizes,
    triple,
    wait_list,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Literal

    from numpy.typing import DTypeLike, NDArray

    from pycl._typing import Extent, HostDestination, HostSource, Size, WaitList
    from pycl.context import Context
    from pycl.event import NannyEvent
    from pycl.memory import Buffer
    from pycl.platform import Device
    from pycl.queue import CommandQueue

    # An origin or region: a tuple of up to three ints, or one int.
    _Coords = Union[Size, Extent]
    # An entry of a properties list: a key or a value, or a (key, value) pair
    # (a tuple or list, whose entries are added in turn).
    _PropertyEntry = Union[Size, tuple[Size, ...], list[Size]]
    # Image._create's plan: (image type, shape, extent, element size,
    # cl_image_format cdata, cl_image_desc cdata).
    _Plan = tuple[int, tuple[int, ...], tuple[int, ...], int, Any, Any]

__all__ = [
    "ImageFormat",
    "get_supported_image_formats",
    "Image",
    "create_image",
    "image_from_array",
    "enqueue_fill_image",
    "enqueue_map_image",
    "DTYPE_TO_CHANNEL_TYPE",
    "DTYPE_TO_CHANNEL_TYPE_NORM",
]

_mf = _constants.mem_flags
_mot = _constants.mem_object_type
_ct = _constants.channel_type
_co = _constants.channel_order

IMAGE_TYPES = (_mot.IMAGE1D, _mot.IMAGE1D_BUFFER, _mot.IMAGE1D_ARRAY, _mot.IMAGE2D, _mot.IMAGE2D_ARRAY, _mot.IMAGE3D)
_ARRAY_TYPES = (_mot.IMAGE1D_ARRAY, _mot.IMAGE2D_ARRAY)


# {{{ image formats

# Channels an element holds, padding channels (Rx, RGx, RGBx) included: they
# occupy space in each element.
_CHANNEL_COUNT = {
    lib.CL_R: 1,
    lib.CL_A: 1,
    lib.CL_INTENSITY: 1,
    lib.CL_LUMINANCE: 1,
    lib.CL_DEPTH: 1,
    lib.CL_RG: 2,
    lib.CL_RA: 2,
    lib.CL_Rx: 2,
    lib.CL_RGB: 3,
    lib.CL_RGx: 3,
    lib.CL_sRGB: 3,
    lib.CL_RGBA: 4,
    lib.CL_BGRA: 4,
    lib.CL_ARGB: 4,
    lib.CL_ABGR: 4,
    lib.CL_RGBx: 4,
    lib.CL_sRGBx: 4,
    lib.CL_sRGBA: 4,
    lib.CL_sBGRA: 4,
}
# Bytes per channel; for packed types, bytes per element.
_CHANNEL_SIZE = {
    lib.CL_SNORM_INT8: 1,
    lib.CL_UNORM_INT8: 1,
    lib.CL_SIGNED_INT8: 1,
    lib.CL_UNSIGNED_INT8: 1,
    lib.CL_SNORM_INT16: 2,
    lib.CL_UNORM_INT16: 2,
    lib.CL_SIGNED_INT16: 2,
    lib.CL_UNSIGNED_INT16: 2,
    lib.CL_HALF_FLOAT: 2,
    lib.CL_SIGNED_INT32: 4,
    lib.CL_UNSIGNED_INT32: 4,
    lib.CL_FLOAT: 4,
    lib.CL_UNORM_SHORT_565: 2,
    lib.CL_UNORM_SHORT_555: 2,
    lib.CL_UNORM_INT_101010: 4,
    lib.CL_UNORM_INT_101010_2: 4,
    lib.CL_UNORM_INT24: 4,
}
# Types whose element packs all channels into dtype_size bytes.
_PACKED = frozenset(
    (
        lib.CL_UNORM_SHORT_565,
        lib.CL_UNORM_SHORT_555,
        lib.CL_UNORM_INT_101010,
        lib.CL_UNORM_INT_101010_2,
        lib.CL_UNORM_INT24,
    )
)
_INTEGER_TYPES = {
    lib.CL_SIGNED_INT8: "i",
    lib.CL_SIGNED_INT16: "i",
    lib.CL_SIGNED_INT32: "i",
    lib.CL_UNSIGNED_INT8: "u",
    lib.CL_UNSIGNED_INT16: "u",
    lib.CL_UNSIGNED_INT32: "u",
}
_ORDER_NAMES = {lib.CL_ARGB: "ARGB", lib.CL_DEPTH: "DEPTH"}  # not in PyOpenCL's channel_order
_TYPE_NAMES = {lib.CL_UNORM_INT24: "UNORM_INT24"}


def _order_name(order: int) -> str:
    return _ORDER_NAMES.get(order) or _co.to_string(order, "<unknown channel order 0x%x>")


def _type_name(channel_type: int) -> str:
    return _TYPE_NAMES.get(channel_type) or _ct.to_string(channel_type, "<unknown channel data type 0x%x>")


class ImageFormat:
    """``ImageFormat(channel_order, channel_type)``: an image's channel order
    and data type. Comparable and hashable by value.

    ``channel_count`` counts padding channels (``Rx`` has 2), ``dtype_size``
    is the bytes per channel (per element for packed types such as
    ``UNORM_SHORT_565``) and ``itemsize`` the bytes per element (for packed
    types PyOpenCL multiplies by the channel count, which is wrong)."""

    __slots__ = ("channel_order", "channel_data_type")

    channel_order: int
    channel_data_type: int

    def __init__(self, channel_order: int = 0, channel_type: int = 0) -> None:
        self.channel_order = channel_order
        self.channel_data_type = channel_type

    @property
    def channel_count(self) -> int:
        count = _CHANNEL_COUNT.get(self.channel_order)
        if count is None:
            raise logic_error("ImageFormat.channel_count", "unrecognized channel order 0x%x" % self.channel_order)
        return count

    @property
    def dtype_size(self) -> int:
        size = _CHANNEL_SIZE.get(self.channel_data_type)
        if size is None:
            raise logic_error("ImageFormat.dtype_size", "unrecognized channel data type 0x%x" % self.channel_data_type)
        return size

    @property
    def itemsize(self) -> int:
        if self.channel_data_type in _PACKED:
            self.channel_count  # noqa: B018 (validates the order)
            return self.dtype_size
        return self.channel_count * self.dtype_size

    def __repr__(self) -> str:
        return "ImageFormat(%s, %s)" % (_order_name(self.channel_order), _type_name(self.channel_data_type))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImageFormat):
            return NotImplemented
        return self.channel_order == other.channel_order and self.channel_data_type == other.channel_data_type

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((ImageFormat, self.channel_order, self.channel_data_type))


def _format_from_struct(fmt: Any) -> ImageFormat:
    return ImageFormat(fmt.image_channel_order, fmt.image_channel_data_type)


_info.register_wrapper("image_format", _format_from_struct)


_image_support: dict[int, bool] = {}  # device handle -> bool (root devices live as long as the process)


def require_images(context: Context, routine: str) -> None:
    """``UnavailableError`` unless a device of ``context`` supports images."""
    if context._memo.get("images"):
        return
    devices = context.devices
    for device in devices:
        ok = _image_support.get(device._ptr)
        if ok is None:
            ok = _image_support[device._ptr] = bool(device.image_support)
        if ok:
            context._memo["images"] = True
            return
    raise UnavailableError(
        routine,
        lib.PYCL_UNAVAILABLE,
        "images are optional in OpenCL 3.0 and no device of the context supports them (%s)"
        % ", ".join("%r reports IMAGE_SUPPORT false" % d.name for d in devices),
    )


def _image_type_arg(image_type: object, routine: str) -> int:
    if isinstance(image_type, bool) or not isinstance(image_type, (int, np.integer)):
        raise TypeError("%s: image_type must be a mem_object_type, not %s" % (routine, type(image_type).__name__))
    if image_type not in IMAGE_TYPES:
        raise logic_error(
            routine,
            "image_type = %s is not an image type (one of %s)"
            % (_mot.to_string(image_type, "0x%x"), ", ".join(_mot.to_string(t) for t in IMAGE_TYPES)),
            lib.CL_INVALID_VALUE,
        )
    return int(image_type)


def get_supported_image_formats(context: Context, flags: Size, image_type: Size) -> list[ImageFormat]:
    """The ``ImageFormat`` list the context supports for ``flags``
    (``mem_flags``) and ``image_type`` (``mem_object_type``)."""
    routine = "get_supported_image_formats"
    handle = context._live()
    require_images(context, routine)
    flags = mem_flags_value(flags, routine)
    image_type = _image_type_arg(image_type, routine)
    # Only the kernel-access bits decide format support; NVIDIA's OpenCL (CUDA
    # 13.0) rejects host-access and host-pointer bits here with CL_INVALID_VALUE.
    flags &= _FORMAT_FLAGS
    count = ffi.new("cl_uint *")
    status = lib.pycl_image_get_supported_formats(handle, flags, image_type, 0, ffi.NULL, count)
    if status:
        check(status, "clGetSupportedImageFormats")
    if count[0] == 0:
        return []
    formats = ffi.new("cl_image_format[]", count[0])
    status = lib.pycl_image_get_supported_formats(handle, flags, image_type, count[0], formats, ffi.NULL)
    if status:
        check(status, "clGetSupportedImageFormats")
    return [_format_from_struct(formats[i]) for i in range(count[0])]


# The flags that decide format support: the kernel's access.
_FORMAT_FLAGS = ACCESS_FLAGS | _mf.KERNEL_READ_AND_WRITE

# (device handles, access flags, image type) -> frozenset of (order, type)
_supported_cache: dict[tuple[tuple[int, ...], int, int], frozenset[tuple[int, int]]] = {}


def _supported(context: Context, flags: int, image_type: int) -> frozenset[tuple[int, int]]:
    memo_key = ("formats", flags, image_type)
    supported = context._memo.get(memo_key)
    if supported is None:
        key = (tuple(d._ptr for d in context.devices), flags, image_type)
        supported = _supported_cache.get(key)
        if supported is None:
            formats = get_supported_image_formats(context, flags, image_type)
            supported = _supported_cache[key] = frozenset((f.channel_order, f.channel_data_type) for f in formats)
        context._memo[memo_key] = supported
    return supported


def _check_format_supported(context: Context, flags: int, image_type: int, fmt: ImageFormat, routine: str) -> None:
    access = flags & _FORMAT_FLAGS or _mf.READ_WRITE
    supported = _supported(context, access, image_type)
    if (fmt.channel_order, fmt.channel_data_type) not in supported:
        listing = ", ".join(sorted("%s/%s" % (_order_name(o), _type_name(t)) for o, t in supported))
        raise logic_error(
            routine,
            "%r is not supported for %s images with flags %s on this context; it supports: %s"
            % (fmt, _mot.to_string(image_type), _mf.to_string(access), listing or "(no formats)"),
            lib.CL_IMAGE_FORMAT_NOT_SUPPORTED,
        )


# }}}


# {{{ images

_limits_cache: dict[int, dict[str, int]] = {}  # device handle -> dict of the image size limits


def _limits(device: Device) -> dict[str, int]:
    limits = _limits_cache.get(device._ptr)
    if limits is None:
        di = _constants.device_info
        limits = _limits_cache[device._ptr] = {
            "2d_w": device.get_info(di.IMAGE2D_MAX_WIDTH),
            "2d_h": device.get_info(di.IMAGE2D_MAX_HEIGHT),
            "3d_w": device.get_info(di.IMAGE3D_MAX_WIDTH),
            "3d_h": device.get_info(di.IMAGE3D_MAX_HEIGHT),
            "3d_d": device.get_info(di.IMAGE3D_MAX_DEPTH),
            "array": device.get_info(di.IMAGE_MAX_ARRAY_SIZE),
            "buffer": device.get_info(di.IMAGE_MAX_BUFFER_SIZE),
        }
    return limits


# image type -> ((axis name, limit key) per used axis)
_AXES = {
    _mot.IMAGE1D: (("width", "2d_w"),),
    _mot.IMAGE1D_BUFFER: (("width", "buffer"),),
    _mot.IMAGE1D_ARRAY: (("width", "2d_w"), ("array_size", "array")),
    _mot.IMAGE2D: (("width", "2d_w"), ("height", "2d_h")),
    _mot.IMAGE2D_ARRAY: (("width", "2d_w"), ("height", "2d_h"), ("array_size", "array")),
    _mot.IMAGE3D: (("width", "3d_w"), ("height", "3d_h"), ("depth", "3d_d")),
}


def _check_size_limits(context: Context, image_type: int, dims: tuple[int, ...], routine: str) -> None:
    axes = _AXES[image_type]
    memo_key = ("limits", image_type)
    per_device = context._memo.get(memo_key)
    if per_device is None:
        per_device = context._memo[memo_key] = [
            tuple(_limits(device)[key] for _, key in axes) for device in context.devices
        ]
    for limits in per_device:
        if all(d <= limit for d, limit in zip(dims, limits)):
            return
    problems: list[str] = []
    for device in context.devices:
        limits = _limits(device)
        bad = [
            "%s %d > %d" % (name, dims[i], limits[key]) for i, (name, key) in enumerate(axes) if dims[i] > limits[key]
        ]
        if not bad:
            return
        problems.append("%r: %s" % (device.name, ", ".join(bad)))
    raise logic_error(
        routine,
        "the %s image of shape %r exceeds every device's limits (%s)"
        % (_mot.to_string(image_type), dims[: len(axes)], "; ".join(problems)),
        lib.CL_INVALID_IMAGE_SIZE,
    )


def _image_type_for(shape: tuple[int, ...], is_array: bool, buffer: Optional[Buffer], routine: str) -> int:
    n = len(shape)
    if buffer is not None and is_array:
        raise logic_error(routine, "'buffer' and 'is_array' are mutually exclusive")
    if n == 1:
        if is_array:
            raise TypeError("%s: an array of zero-dimensional images is not supported (shape %r)" % (routine, shape))
        return _mot.IMAGE1D_BUFFER if buffer is not None else _mot.IMAGE1D
    if buffer is not None:
        raise TypeError("%s: 'buffer' makes a 1D buffer image and needs a 1-tuple shape, got %r" % (routine, shape))
    if n == 2:
        return _mot.IMAGE1D_ARRAY if is_array else _mot.IMAGE2D
    if n == 3:
        return _mot.IMAGE2D_ARRAY if is_array else _mot.IMAGE3D
    raise logic_error(routine, "shape = %r: images have one to three dimensions" % (shape,))


def _extents(image_type: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The image's extent along each origin/region axis (see the module doc)."""
    if image_type in (_mot.IMAGE1D, _mot.IMAGE1D_BUFFER):
        return (shape[0], 1, 1)
    if image_type in (_mot.IMAGE1D_ARRAY, _mot.IMAGE2D):
        return (shape[0], shape[1], 1)
    return tuple(shape)


def _creation_pitches(
    image_type: int, dims: tuple[int, ...], element: int, pitches: Optional[Extent], routine: str
) -> tuple[int, int, int]:
    """``(row_pitch, slice_pitch, bytes the host memory must hold)`` for
    creation with a host pointer; ``pitches`` None or up to 2 ints."""
    row_given, slice_given = pitch_pair(pitches, "pitches", routine)
    w, h, d = _extents(image_type, dims)
    row_min = w * element
    row = row_given or row_min
    if row < row_min:
        raise logic_error(
            routine, "pitches[0] (row pitch) = %d is smaller than width %d x element size %d" % (row, w, element)
        )
    if row % element:
        raise logic_error(
            routine, "pitches[0] (row pitch) = %d is not a multiple of the element size %d" % (row, element)
        )
    if image_type in (_mot.IMAGE1D, _mot.IMAGE1D_BUFFER, _mot.IMAGE2D):
        if slice_given:
            raise logic_error(
                routine,
                "pitches[1] (slice pitch) = %d must be 0 for a %s image" % (slice_given, _mot.to_string(image_type)),
            )
        rows = 1 if image_type != _mot.IMAGE2D else h
        return row, 0, row * rows
    if image_type == _mot.IMAGE1D_ARRAY:
        slice_min, count = row, h
    else:
        slice_min, count = row * h, d
    slice_ = slice_given or slice_min
    if slice_ < slice_min:
        raise logic_error(routine, "pitches[1] (slice pitch) = %d is smaller than %d" % (slice_, slice_min))
    if slice_ % row:
        raise logic_error(
            routine, "pitches[1] (slice pitch) = %d is not a multiple of the row pitch %d" % (slice_, row)
        )
    if image_type == _mot.IMAGE1D_ARRAY:
        row = slice_  # the layer distance as both pitches (see _host_pitches)
    return row, slice_, slice_ * count


def _tight(image_type: int, shape: tuple[int, ...], element: int) -> tuple[int, int]:
    """The pitches pycl passes for a tightly packed host image."""
    w, h, d = _extents(image_type, shape)
    if image_type in (_mot.IMAGE1D, _mot.IMAGE1D_BUFFER, _mot.IMAGE2D):
        return (w * element, 0)
    if image_type == _mot.IMAGE1D_ARRAY:
        return (w * element, w * element)
    return (w * element, w * element * h)


_ignores_pitches_by_device: dict[int, bool] = {}  # device handle -> bool


def _ignores_creation_pitches(context: Context) -> bool:
    """Oclgrind (21.10) reads host memory tightly packed at image creation,
    whatever image_row_pitch and image_slice_pitch say; pycl then writes the
    image after creating it (COPY_HOST_PTR) or refuses (USE_HOST_PTR)."""
    for device in context.devices:
        ignores = _ignores_pitches_by_device.get(device._ptr)
        if ignores is None:
            ignores = _ignores_pitches_by_device[device._ptr] = "Oclgrind" in device.platform.name
        if ignores:
            return True
    return False


class Image(MemoryObject):
    """``Image(context, flags, format, shape=None, pitches=None, hostbuf=None,
    is_array=False, buffer=None, *, properties=None)``: a 1D (1-tuple shape),
    1D buffer (1-tuple shape and ``buffer``), 1D array (``(width, layers)``
    with ``is_array``), 2D, 2D array (``(width, height, layers)`` with
    ``is_array``) or 3D image. ``shape`` defaults to ``hostbuf.shape``
    (PyOpenCL's rule: note that numpy's shape lists the slowest axis first).
    ``pitches`` (row, slice) describe ``hostbuf``. ``properties`` (pycl
    extension, OpenCL 3.0): ``mem_properties`` pairs for
    ``clCreateImageWithProperties``.

    Info attributes: the lower-case ``mem_info`` and ``image_info`` names
    (``width``, ``height``, ``depth``, ``array_size``, ``row_pitch``,
    ``element_size``, ``format``, ``buffer`` ...); ``shape`` is the shape the
    image was made with (every image type)."""

    __slots__ = ("_format", "_shape", "_extent", "_element", "_buffer")

    _format: ImageFormat
    _shape: tuple[int, ...]  # as made (see shape)
    _extent: tuple[int, ...]  # (width, height or layers, depth or layers), 1 where unused
    _element: int  # bytes per element
    _buffer: Optional[Buffer]  # the buffer of a 1D buffer image

    # image_info attributes (answered by __getattr__).
    row_pitch: int
    slice_pitch: int
    width: int
    height: int
    depth: int
    array_size: int
    num_mip_levels: int
    num_samples: int

    def __init__(
        self,
        context: Context,
        flags: Size,
        format: ImageFormat,
        shape: Optional[Union[Size, Extent]] = None,
        pitches: Optional[Extent] = None,
        hostbuf: Optional[HostSource] = None,
        is_array: bool = False,
        buffer: Optional[Buffer] = None,
        *,
        properties: Optional[Iterable[Union[Size, tuple[Size, ...], list[Size]]]] = None,
    ) -> None:
        routine = "create_image"
        handle = context._live()
        key: Optional[tuple[int, int, int, tuple[int, ...]]]
        if (
            hostbuf is None
            and buffer is None
            and pitches is None
            and properties is None
            and is_array is False
            and type(shape) is tuple
            and type(flags) is int
            and type(format) is ImageFormat
        ):
            # The common creation (no host memory, no buffer): the checks
            # depend on nothing but these values and the context, so a plan
            # that passed them once is reused. sizes() keeps (512.0, 512) from
            # matching the plan of (512, 512).
            key = (flags, format.channel_order, format.channel_data_type, sizes(shape, "shape", routine))
            plan = context._memo.get(_PLANS, _NO_PLANS).get(key)
            if plan is not None:
                self._create(context, handle, flags, format, plan, ffi.NULL, None)
                return
        else:
            key = None
        require_images(context, routine)
        flags = mem_flags_value(flags, routine)
        if not isinstance(format, ImageFormat):
            raise TypeError("%s: format must be a pycl.ImageFormat, not %s" % (routine, type(format).__name__))
        if format.channel_order not in _CHANNEL_COUNT or format.channel_data_type not in _CHANNEL_SIZE:
            raise logic_error(
                routine, "%r is not a format pycl knows" % (format,), lib.CL_INVALID_IMAGE_FORMAT_DESCRIPTOR
            )
        element = format.itemsize
        if shape is None:
            if hostbuf is None:
                raise logic_error(routine, "'shape' must be passed if 'hostbuf' is not given")
            shape = getattr(hostbuf, "shape", None)
            if shape is None:
                raise TypeError("%s: hostbuf (%s) has no .shape: pass shape" % (routine, describe(hostbuf)))
        shape = sizes(shape, "shape", routine)
        if 0 in shape:
            raise logic_error(routine, "shape = %r has a zero extent" % (shape,), lib.CL_INVALID_IMAGE_SIZE)
        image_type = _image_type_for(shape, is_array, buffer, routine)
        _check_size_limits(context, image_type, shape, routine)
        if pitches is not None and hostbuf is None:
            raise logic_error(routine, "'pitches' may only be given if 'hostbuf' is given")
        host = ffi.NULL
        row = slice_ = 0
        buffer_handle = ffi.NULL
        if buffer is not None:
            if not isinstance(buffer, MemoryObject) or buffer._transfer_kind != "buffer":
                raise TypeError("%s: buffer must be a pycl.Buffer, not %s" % (routine, type(buffer).__name__))
            buffer_handle = buffer._live()
            if buffer._ctx_ptr != context._ptr:
                raise logic_error(routine, "buffer (%r) belongs to another context" % buffer, lib.CL_INVALID_CONTEXT)
            if hostbuf is not None or flags & HOST_PTR_FLAGS:
                raise logic_error(
                    routine,
                    "a 1D buffer image uses the buffer's memory: it takes no hostbuf and no host-pointer flags",
                    lib.CL_INVALID_HOST_PTR,
                )
            need = shape[0] * element
            if need > buffer._size:
                raise logic_error(
                    routine,
                    "width %d x element size %d = %d bytes exceeds buffer (%r, %d bytes)"
                    % (shape[0], element, need, buffer, buffer._size),
                    lib.CL_INVALID_IMAGE_SIZE,
                )
        elif hostbuf is not None:
            if not flags & (_mf.USE_HOST_PTR | _mf.COPY_HOST_PTR):
                raise logic_error(
                    routine,
                    "a hostbuf was passed but flags %s hold neither USE_HOST_PTR nor COPY_HOST_PTR"
                    % _mf.to_string(flags, "0x%x"),
                    lib.CL_INVALID_HOST_PTR,
                )
            host = host_bytes(hostbuf, bool(flags & _mf.USE_HOST_PTR), routine, "hostbuf")
            row, slice_, need = _creation_pitches(image_type, shape, element, pitches, routine)
            if need > len(host):
                raise logic_error(
                    routine,
                    "a %s image of shape %r and format %r with pitches (%d, %d) needs %d bytes of host memory; "
                    "hostbuf (%s) has %d"
                    % (_mot.to_string(image_type), shape, format, row, slice_, need, describe(hostbuf), len(host)),
                    lib.CL_INVALID_HOST_PTR,
                )
        elif flags & (_mf.USE_HOST_PTR | _mf.COPY_HOST_PTR):
            raise logic_error(routine, "flags %s need a hostbuf" % _mf.to_string(flags), lib.CL_INVALID_HOST_PTR)
        _check_format_supported(context, flags, image_type, format, routine)
        late_write: Optional[tuple[Any, int, int]] = None  # (hostbuf, row pitch, slice pitch)
        if (
            host != ffi.NULL
            and _ignores_creation_pitches(context)
            and (row, slice_) != _tight(image_type, shape, element)
        ):
            if flags & _mf.USE_HOST_PTR:
                raise UnavailableError(
                    routine,
                    lib.PYCL_UNAVAILABLE,
                    "Oclgrind ignores the pitches of host memory at image creation, so it cannot use hostbuf "
                    "with pitches (%d, %d) in place: pass COPY_HOST_PTR or a tightly packed hostbuf" % (row, slice_),
                )
            late_write = (hostbuf, row, slice_)
            flags &= ~_mf.COPY_HOST_PTR
            host = ffi.NULL
            row = slice_ = 0
        c_format = ffi.new("cl_image_format *", [format.channel_order, format.channel_data_type])
        desc = _image_desc(image_type, shape, row, slice_)
        desc.buffer = buffer_handle  # plans (key set) have no buffer
        plan = (image_type, shape, _extents(image_type, shape), element, c_format, desc)
        if key is not None:
            plans = context._memo.setdefault(_PLANS, {})
            if len(plans) < _MAX_PLANS:
                plans[key] = plan
        self._create(context, handle, flags, format, plan, host, buffer, properties, hostbuf)
        if late_write is not None:
            self._copy_in_later(*late_write)

    def _create(
        self,
        context: Context,
        handle: Any,
        flags: int,
        format: ImageFormat,
        plan: _Plan,
        host: Any,
        buffer: Optional[Buffer],
        properties: Optional[Iterable[_PropertyEntry]] = None,
        hostbuf: Optional[HostSource] = None,
    ) -> None:
        """clCreateImage of a checked ``plan``: (image type, shape, extent,
        element size, format struct, descriptor)."""
        image_type, shape, extent, element, c_format, desc = plan
        c_properties = properties_array(properties, "cl_mem_properties", "create_image")
        # An image over a buffer owns no memory of its own.
        charged = element * extent[0] * extent[1] * extent[2] if _budget.enabled and buffer is None else 0
        if charged:
            _budget.charge(context, charged)
        raw = ffi.new("cl_mem *")
        status = lib.pycl_image_create(handle, c_properties, flags, c_format, desc, host, raw)
        if status in ALLOCATION_FAILURES:
            _budget.collect()  # collected objects give their memory back
            status = lib.pycl_image_create(handle, c_properties, flags, c_format, desc, host, raw)
        if status:
            check(
                status,
                "clCreateImage" if properties is None else "clCreateImageWithProperties",
                "%s image of shape %r, format %r, flags %s"
                % (_mot.to_string(image_type), shape, format, _mf.to_string(flags, "0x%x")),
            )
        self._adopt(raw[0])
        if charged:
            self._charged = charged
        if not flags & (_mf.READ_WRITE | _mf.WRITE_ONLY | _mf.READ_ONLY):
            flags |= _mf.READ_WRITE
        # CL_MEM_SIZE (driver-specific padding included) is queried on first use.
        self._set_cache(None, flags, image_type, context)
        self._format = format
        self._shape = shape
        self._extent = extent
        self._element = element
        self._buffer = buffer
        if flags & _mf.USE_HOST_PTR:
            self._hostbuf = hostbuf

    def _copy_in_later(self, hostbuf: HostSource, row: int, slice_: int) -> None:
        """COPY_HOST_PTR with pitches on Oclgrind: a blocking write instead."""
        from pycl.queue import CommandQueue

        queue = CommandQueue(self._context)
        try:
            _write_image(queue, self, hostbuf, (0, 0, 0), self._shape, (row, slice_))
        finally:
            queue.release()

    def _init_from_handle(self) -> None:
        MemoryObject._init_from_handle(self)
        if self._type not in IMAGE_TYPES:
            raise logic_error("Image.from_int_ptr", "the memory object is not an image (type 0x%x)" % self._type)
        ii = _constants.image_info
        query = self.get_image_info
        self._format = query(ii.FORMAT)
        self._element = query(ii.ELEMENT_SIZE)
        width = query(ii.WIDTH)
        shape: tuple[int, ...]
        if self._type in (_mot.IMAGE1D, _mot.IMAGE1D_BUFFER):
            shape = (width,)
        elif self._type == _mot.IMAGE1D_ARRAY:
            shape = (width, query(ii.ARRAY_SIZE))
        elif self._type == _mot.IMAGE2D:
            shape = (width, query(ii.HEIGHT))
        elif self._type == _mot.IMAGE2D_ARRAY:
            shape = (width, query(ii.HEIGHT), query(ii.ARRAY_SIZE))
        else:
            shape = (width, query(ii.HEIGHT), query(ii.DEPTH))
        self._shape = shape
        self._extent = _extents(self._type, shape)
        self._buffer = query(ii.BUFFER) if self._type == _mot.IMAGE1D_BUFFER else None

    @property
    def size(self) -> int:
        """CL_MEM_SIZE, queried once."""
        self._live()
        if self._size is None:
            self._size = _info.query(self, "mem", _constants.mem_info.SIZE)
        return self._size

    def get_host_array(
        self, shape: Union[Size, Extent], dtype: DTypeLike, order: Literal["C", "F"] = "C"
    ) -> NDArray[Any]:
        self.size  # noqa: B018 (fills the cache get_host_array checks against)
        return MemoryObject.get_host_array(self, shape, dtype, order)

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape the image was made with: ``(width,)``, ``(width,
        layers)``, ``(width, height)``, ``(width, height, layers)`` or
        ``(width, height, depth)``."""
        self._live()
        return self._shape

    @property
    def format(self) -> ImageFormat:
        self._live()
        return self._format

    @property
    def element_size(self) -> int:
        self._live()
        return self._element

    @property
    def buffer(self) -> Optional[Buffer]:
        """The buffer of a 1D buffer image (the object passed in), else None."""
        self._live()
        return self._buffer

    def get_image_info(self, param: int) -> Any:
        """An ``image_info`` value."""
        return _info.query(self, "image", param)

    def __getattr__(self, name: str) -> Any:
        if name.islower():
            param = _info.param_for_attribute("image", name)
            if param is not None:
                return self.get_image_info(param)
        return MemoryObject.__getattr__(self, name)

    def __repr__(self) -> str:
        if self._handle is None:
            return MemoryObject.__repr__(self)
        return "<pycl.Image %s %r %r at 0x%x>" % (_mot.to_string(self._type), self._shape, self._format, self._ptr)


# context._memo[_PLANS]: (flags, channel order, channel type, shape) ->
# Image._create's plan, for the first _MAX_PLANS image kinds made.
_PLANS = "image plans"
_MAX_PLANS = 256
_NO_PLANS: dict[tuple[int, int, int, tuple[int, ...]], _Plan] = {}


def _image_desc(image_type: int, shape: tuple[int, ...], row: int, slice_: int) -> Any:
    """The ``cl_image_desc`` of an image of ``shape`` whose host memory has
    the pitches ``row`` and ``slice_``."""
    desc = ffi.new("cl_image_desc *")
    desc.image_type = image_type
    desc.image_width = shape[0]
    if image_type == _mot.IMAGE1D_ARRAY:
        desc.image_array_size = shape[1]
    elif image_type == _mot.IMAGE2D_ARRAY:
        desc.image_height, desc.image_array_size = shape[1], shape[2]
    elif image_type == _mot.IMAGE2D:
        desc.image_height = shape[1]
    elif image_type == _mot.IMAGE3D:
        desc.image_height, desc.image_depth = shape[1], shape[2]
    desc.image_row_pitch = row
    desc.image_slice_pitch = slice_
    return desc


def create_image(
    context: Context,
    flags: Size,
    format: ImageFormat,
    shape: Optional[Union[Size, Extent]] = None,
    pitches: Optional[Extent] = None,
    hostbuf: Optional[HostSource] = None,
    is_array: bool = False,
    buffer: Optional[Buffer] = None,
    **kwargs: Any,
) -> Image:
    """Make an ``Image`` (same arguments; see ``Image``). OpenCL 1.2's
    ``clCreateImage``, or ``clCreateImageWithProperties`` (3.0) when the
    keyword ``properties`` is given."""
    return Image(context, flags, format, shape, pitches, hostbuf, is_array, buffer, **kwargs)


for _type in IMAGE_TYPES:
    register_mem_class(_type, Image, "image")

_info.add_kind(
    "image",
    lib.pycl_image_get_info,
    _constants.image_info,
    "clGetImageInfo",
    {
        "image_format": "FORMAT",
        "size": "ELEMENT_SIZE ROW_PITCH SLICE_PITCH WIDTH HEIGHT DEPTH ARRAY_SIZE",
        "mem": "BUFFER",
        "uint": "NUM_MIP_LEVELS NUM_SAMPLES",
    },
)


# }}}


# {{{ image_from_array

DTYPE_TO_CHANNEL_TYPE: dict[np.dtype[Any], int] = {
    np.dtype(np.float32): _ct.FLOAT,
    np.dtype(np.float16): _ct.HALF_FLOAT,
    np.dtype(np.int8): _ct.SIGNED_INT8,
    np.dtype(np.int16): _ct.SIGNED_INT16,
    np.dtype(np.int32): _ct.SIGNED_INT32,
    np.dtype(np.uint8): _ct.UNSIGNED_INT8,
    np.dtype(np.uint16): _ct.UNSIGNED_INT16,
    np.dtype(np.uint32): _ct.UNSIGNED_INT32,
}
"""numpy scalar dtype -> channel type (as PyOpenCL's table)."""
DTYPE_TO_CHANNEL_TYPE_NORM: dict[np.dtype[Any], int] = {
    np.dtype(np.int8): _ct.SNORM_INT8,
    np.dtype(np.int16): _ct.SNORM_INT16,
    np.dtype(np.uint8): _ct.UNORM_INT8,
    np.dtype(np.uint16): _ct.UNORM_INT16,
}
"""numpy scalar dtype -> normalized channel type (``norm_int=True``)."""
_RGBA_PREFIX: dict[Size, int] = {1: _co.R, 2: _co.RG, 3: _co.RGB, 4: _co.RGBA}


def image_from_array(
    ctx: Context,
    ary: NDArray[Any],
    num_channels: Optional[Size] = None,
    mode: Literal["r", "w"] = "r",
    norm_int: bool = False,
) -> Image:
    """A 1D, 2D or 3D ``Image`` holding a copy of the C-contiguous array ``ary``.

    ``num_channels`` defaults to 1 for scalar dtypes and to the component
    count of a ``pycl.cltypes`` vector dtype (``cltypes.float4``: 4); above
    one, with a scalar dtype, the last axis of ``ary`` holds the channels and
    must have ``num_channels`` entries. The format is the first
    ``num_channels`` components of RGBA (``R``, ``RG``, ``RGB``, ``RGBA``) with
    the channel type of ``DTYPE_TO_CHANNEL_TYPE`` (or, with ``norm_int``,
    ``DTYPE_TO_CHANNEL_TYPE_NORM``: integers read as floats in [0, 1] or
    [-1, 1]). ``mode`` "r" makes a READ_ONLY image, "w" a WRITE_ONLY one.

    Reversed indices: the image's shape is ``ary``'s (channel axis excluded)
    reversed, since x varies fastest in an image and the last index in a
    C-order array. Pixel ``ary[i, j]`` is read in a kernel as
    ``read_imagef(img, sampler, (int2)(j, i))``; ``ary[k, i, j]`` is
    ``(int4)(j, i, k, 0)``.
    """
    routine = "image_from_array"
    if not isinstance(ary, np.ndarray):
        raise TypeError("%s: ary must be a numpy array, not %s" % (routine, type(ary).__name__))
    if not ary.flags.c_contiguous:
        raise logic_error(routine, "ary (%s) must be C-contiguous: pass numpy.ascontiguousarray(ary)" % describe(ary))
    dtype = ary.dtype
    shape = ary.shape
    if num_channels is None:
        scalar_count = _cltypes.vec_type_to_scalar_and_count.get(dtype)
        if scalar_count is not None:
            dtype, num_channels = scalar_count
        else:
            num_channels = 1
    else:
        num_channels = size_value(num_channels, "num_channels", routine)
        if num_channels not in _RGBA_PREFIX:
            raise logic_error(routine, "num_channels = %r must be 1, 2, 3 or 4" % (num_channels,))
        if num_channels > 1:
            if not shape or shape[-1] != num_channels:
                raise logic_error(
                    routine,
                    "the last axis of ary (shape %r) must hold the num_channels = %d channels" % (shape, num_channels),
                )
            shape = shape[:-1]
    if mode == "r":
        flags = _mf.READ_ONLY
    elif mode == "w":
        flags = _mf.WRITE_ONLY
    else:
        raise logic_error(routine, "mode = %r must be 'r' or 'w'" % (mode,))
    table = DTYPE_TO_CHANNEL_TYPE_NORM if norm_int else DTYPE_TO_CHANNEL_TYPE
    channel_type = table.get(np.dtype(dtype))
    if channel_type is None:
        raise logic_error(
            routine,
            "dtype %s has no %schannel type; supported: %s"
            % (dtype, "normalized " if norm_int else "", ", ".join(str(d) for d in table)),
        )
    fmt = ImageFormat(_RGBA_PREFIX[num_channels], channel_type)
    if not 1 <= len(shape) <= 3:
        raise logic_error(routine, "ary has %d pixel axes (shape %r); images have 1 to 3" % (len(shape), shape))
    pixel_bytes = ary.itemsize * (num_channels if len(shape) < ary.ndim else 1)
    if pixel_bytes != fmt.itemsize:
        raise logic_error(
            routine, "a pixel of ary has %d bytes but %r elements have %d" % (pixel_bytes, fmt, fmt.itemsize)
        )
    return Image(ctx, flags | _mf.COPY_HOST_PTR, fmt, shape=shape[::-1], hostbuf=ary)


# }}}


# {{{ region checks


_AXIS_NAMES = {
    _mot.IMAGE1D: ("x", "(unused)", "(unused)"),
    _mot.IMAGE1D_BUFFER: ("x", "(unused)", "(unused)"),
    _mot.IMAGE1D_ARRAY: ("x", "layer", "(unused)"),
    _mot.IMAGE2D: ("x", "y", "(unused)"),
    _mot.IMAGE2D_ARRAY: ("x", "y", "layer"),
    _mot.IMAGE3D: ("x", "y", "z"),
}


def _box(
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


def _image_arg(image: object, routine: str, name: str) -> None:
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
    if _wards._pending:
        _wards.prune_completed_front()
    q = queue_handle(queue, routine)
    mem = mem_handle(image, queue, routine, "src" if reading else "dest")
    host_name = "dest" if reading else "src"
    host = host_bytes(host_obj, reading, routine, host_name)
    origin, region = _box(image, origin, region, "origin", "src" if reading else "dest", routine)
    if reading and image._flags & NO_HOST_READ:
        host_access(image, NO_HOST_READ, routine, "read it")
    elif not reading and image._flags & NO_HOST_WRITE:
        host_access(image, NO_HOST_WRITE, routine, "write it")
    count, events = wait_list(wait_for, routine)
    if 0 in region:
        return _nanny_marker(q, count, events, host_obj)
    row, slice_ = _host_pitches(image, region, pitches, len(host), host_obj, host_name, routine)
    out, out_int = out_cell()
    ox, oy, oz = origin
    rx, ry, rz = region
    status = lib.pycl_image_region(
        q, mem, reading, 1 if is_blocking else 0, ox, oy, oz, rx, ry, rz, row, slice_, host, count, events, out
    )
    if status:
        check(
            status,
            "clEnqueueReadImage" if reading else "clEnqueueWriteImage",
            "origin %r, region %r, pitches (%d, %d)" % (origin, region, row, slice_),
        )
    return _nanny(out, out_int, host_obj, host, is_blocking)


def _write_image(
    queue: CommandQueue,
    dest: Image,
    src: HostSource,
    origin: Optional[_Coords] = None,
    region: Optional[_Coords] = None,
    pitches: Optional[Extent] = None,
    is_blocking: bool = True,
    wait_for: WaitList = None,
) -> NannyEvent:
    return _image_host(queue, dest, src, origin, region, pitches, is_blocking, wait_for, False)


def _read_image(
    queue: CommandQueue,
    dest: HostDestination,
    src: Image,
    origin: Optional[_Coords] = None,
    region: Optional[_Coords] = None,
    pitches: Optional[Extent] = None,
    is_blocking: bool = True,
    wait_for: WaitList = None,
) -> NannyEvent:
    return _image_host(queue, src, dest, origin, region, pitches, is_blocking, wait_for, True)


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


def _copy_buffer_to_image(
    queue: CommandQueue,
    dest: Image,
    src: Buffer,
    offset: Optional[Size] = None,
    origin: Optional[_Coords] = None,
    region: Optional[_Coords] = None,
    wait_for: WaitList = None,
) -> Event:
    routine = "enqueue_copy"
    if _wards._pending:
        _wards.prune_completed_front()
    q = queue_handle(queue, routine)
    src_mem = mem_handle(src, queue, routine, "src")
    dst_mem = mem_handle(dest, queue, routine, "dest")
    origin, region = _box(dest, origin, region, "origin", "dest", routine)
    offset = _buffer_span(dest, src, offset, region, routine, "src")
    count, events = wait_list(wait_for, routine)
    if 0 in region:
        return _marker(q, count, events, Event)
    out, out_int = out_cell()
    status = lib.pycl_enqueue_copy_buffer_to_image(
        q, src_mem, dst_mem, offset, ffi.new("size_t[3]", origin), ffi.new("size_t[3]", region), count, events, out
    )
    if status:
        check(status, "clEnqueueCopyBufferToImage", "offset %d, origin %r, region %r" % (offset, origin, region))
    return take_event(Event, out, out_int)


def _copy_image_to_buffer(
    queue: CommandQueue,
    dest: Buffer,
    src: Image,
    origin: Optional[_Coords] = None,
    region: Optional[_Coords] = None,
    offset: Optional[Size] = None,
    wait_for: WaitList = None,
) -> Event:
    routine = "enqueue_copy"
    if _wards._pending:
        _wards.prune_completed_front()
    q = queue_handle(queue, routine)
    src_mem = mem_handle(src, queue, routine, "src")
    dst_mem = mem_handle(dest, queue, routine, "dest")
    origin, region = _box(src, origin, region, "origin", "src", routine)
    offset = _buffer_span(src, dest, offset, region, routine, "dest")
    if src._type == _mot.IMAGE1D_BUFFER and 0 not in region and _buffer_image_crashes(queue.device):
        e = src._element
        return _copy_buffer(
            queue,
            dest,
            src._buffer,  # type: ignore[arg-type]  # a 1D buffer image has its buffer
            byte_count=region[0] * e,
            src_offset=origin[0] * e,
            dst_offset=offset,
            wait_for=wait_for,
        )
    count, events = wait_list(wait_for, routine)
    if 0 in region:
        return _marker(q, count, events, Event)
    out, out_int = out_cell()
    status = lib.pycl_enqueue_copy_image_to_buffer(
        q, src_mem, dst_mem, ffi.new("size_t[3]", origin), ffi.new("size_t[3]", region), offset, count, events, out
    )
    if status:
        check(status, "clEnqueueCopyImageToBuffer", "origin %r, region %r, offset %d" % (origin, region, offset))
    return take_event(Event, out, out_int)


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
    routine = "enqueue_copy"
    if _wards._pending:
        _wards.prune_completed_front()
    dest_name = "dest_origin"
    if dest_origin is None and dst_origin is not None:
        dest_origin, dest_name = dst_origin, "dst_origin"
    elif dst_origin is not None:
        raise TypeError("%s: may not specify both 'dest_origin' and 'dst_origin'" % routine)
    q = queue_handle(queue, routine)
    src_mem = mem_handle(src, queue, routine, "src")
    dst_mem = mem_handle(dest, queue, routine, "dest")
    src_origin, region = _box(src, src_origin, region, "src_origin", "src", routine)
    dest_origin, _ = _box(dest, dest_origin, region, dest_name, "dest", routine)
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
        return _marker(q, count, events, Event)
    out, out_int = out_cell()
    status = lib.pycl_enqueue_copy_image(
        q,
        src_mem,
        dst_mem,
        ffi.new("size_t[3]", src_origin),
        ffi.new("size_t[3]", dest_origin),
        ffi.new("size_t[3]", region),
        count,
        events,
        out,
    )
    if status:
        check(
            status, "clEnqueueCopyImage", "src_origin %r, dest_origin %r, region %r" % (src_origin, dest_origin, region)
        )
    return take_event(Event, out, out_int)


_HOST_KEYWORDS = ("origin", "region", "pitches", "is_blocking", "wait_for")
register_route("image", "host", _write_image, _HOST_KEYWORDS)
register_route("host", "image", _read_image, _HOST_KEYWORDS)
register_route("image", "buffer", _copy_buffer_to_image, ("offset", "origin", "region", "wait_for"))
register_route("buffer", "image", _copy_image_to_buffer, ("origin", "region", "offset", "wait_for"))
register_route("image", "image", _copy_image, ("src_origin", "dest_origin", "dst_origin", "region", "wait_for"))


# }}}


# {{{ fill and map


_pocl31_by_device: dict[int, bool] = {}  # device handle -> bool


def _buffer_image_crashes(device: Device) -> bool:
    """PoCL 3.1 (Debian's pocl-opencl-icd) segfaults inside clEnqueueFillImage
    and clEnqueueCopyImageToBuffer when the image is an IMAGE1D_BUFFER
    (PyOpenCL crashes the same way; the pip PoCL 3.0 works). On that driver
    pycl fills the image's buffer with the converted element, and copies from
    the image's buffer, whose bytes are the image's elements. The check can
    go when no supported PoCL 3.1 remains."""
    crashes = _pocl31_by_device.get(device._ptr)
    if crashes is None:
        crashes = _pocl31_by_device[device._ptr] = "PoCL 3.1" in device.platform.version
    return crashes


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
    _image_arg(mem, routine, "mem")
    handle = mem_handle(mem, queue, routine, "mem")
    data = host_bytes(color, False, routine, "color")
    if len(data) != 16:
        raise logic_error(
            routine,
            "color (%s) has %d bytes; OpenCL takes a float4, int4 or uint4 (16 bytes)" % (describe(color), len(data)),
        )
    dtype = getattr(color, "dtype", None)
    if isinstance(dtype, np.dtype) and dtype.fields is None:
        kind = _INTEGER_TYPES.get(mem._format.channel_data_type, "f")
        if dtype.itemsize != 4 or dtype.kind not in ("f" if kind == "f" else "iu"):
            raise logic_error(
                routine,
                "color has dtype %s but %r images are filled with %s"
                % (dtype, mem._format, {"f": "float32", "i": "int32", "u": "uint32"}[kind]),
            )
    origin, region = _box(mem, origin, region, "origin", "mem", routine)
    if mem._type == _mot.IMAGE1D_BUFFER and 0 not in region and _buffer_image_crashes(queue.device):
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
        return _marker(q, count, events, Event)
    out, out_int = out_cell()
    status = lib.pycl_enqueue_fill_image(
        q, handle, data, ffi.new("size_t[3]", origin), ffi.new("size_t[3]", region), count, events, out
    )
    if status:
        check(status, "clEnqueueFillImage", "origin %r, region %r" % (origin, region))
    return take_event(Event, out, out_int)


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
    _image_arg(img, routine, "img")
    mem = mem_handle(img, queue, routine, "img")
    flags = map_flags_value(flags, img, routine)
    origin, region = _box(img, origin, region, "origin", "img", routine)
    if 0 in region:
        raise logic_error(routine, "region = %r maps no pixels; OpenCL maps at least one" % (region,))
    shape = sizes(shape, "shape", routine)
    if not isinstance(dtype, np.dtype):
        dtype = _map_dtype(dtype)
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
    if status:
        check(status, "clEnqueueMapImage", "origin %r, region %r" % (origin, region))
    event = take_event(Event, out, out_int)
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
