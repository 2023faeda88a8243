"""Image formats: ``ImageFormat`` and the facts of its channel orders and
channel types (channels per element, bytes per channel, packed types), which
formats a context supports (``get_supported_image_formats``), and whether a
context supports images at all (images are optional in OpenCL 3.0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pycl import _info
from pycl import constants as _constants
from pycl._args import ACCESS_FLAGS, mem_flags_value
from pycl._lib import ffi, lib
from pycl.errors import UnavailableError, check, logic_error

if TYPE_CHECKING:
    from pycl._typing import Size
    from pycl.context import Context

__all__ = [
    "ImageFormat",
    "get_supported_image_formats",
    "require_images",
    "check_format_supported",
    "is_known_format",
    "IMAGE_TYPES",
    "INTEGER_CHANNEL_TYPES",
]

_mf = _constants.mem_flags
_mot = _constants.mem_object_type
_ct = _constants.channel_type
_co = _constants.channel_order

IMAGE_TYPES = (_mot.IMAGE1D, _mot.IMAGE1D_BUFFER, _mot.IMAGE1D_ARRAY, _mot.IMAGE2D, _mot.IMAGE2D_ARRAY, _mot.IMAGE3D)


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
# Integer channel types: "i" signed, "u" unsigned.
INTEGER_CHANNEL_TYPES = {
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


def is_known_format(fmt: ImageFormat) -> bool:
    """Whether pycl knows ``fmt``'s channel order and channel type."""
    return fmt.channel_order in _CHANNEL_COUNT and fmt.channel_data_type in _CHANNEL_SIZE


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
    # The pairs read in one unpack (a cl_image_format is two cl_uint, the
    # channel order and type) and each ImageFormat made without its
    # __init__ frame: 14.8 -> 8.5 us for PoCL's formats (CPython 3.11).
    values = ffi.unpack(ffi.cast("cl_uint *", formats), 2 * count[0])
    result = []
    for i in range(0, len(values), 2):
        fmt = _new_object(ImageFormat)
        fmt.channel_order = values[i]
        fmt.channel_data_type = values[i + 1]
        result.append(fmt)
    return result


_new_object = object.__new__

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


def check_format_supported(context: Context, flags: int, image_type: int, fmt: ImageFormat, routine: str) -> None:
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
