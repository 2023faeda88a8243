"""The ``Image`` memory object and its creation: ``Image(...)`` /
``create_image`` check the shape, size limits, host memory or buffer and
format before ``clCreateImage``; ``image_from_array`` makes an image of a
numpy array.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from pycl import _info
from pycl import budget as _budget
from pycl import cltypes as _cltypes
from pycl import constants as _constants
from pycl import staging as _staging
from pycl._args import (
    HOST_PTR_FLAGS,
    describe,
    host_bytes,
    mem_flags_value,
    pitch_pair,
    properties_array,
    size_value,
    sizes,
)
from pycl._handle import out_cell
from pycl._image_format import IMAGE_TYPES, ImageFormat, check_format_supported, is_known_format, require_images
from pycl._lib import ffi, lib
from pycl.errors import UnavailableError, check, logic_error
from pycl.memory import ALLOCATION_FAILURES, MemoryObject, register_mem_class
from pycl.queue import CommandQueue
from pycl.transfer import enqueue_copy

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Literal

    from numpy.typing import DTypeLike, NDArray

    from pycl._typing import Extent, HostSource, Size
    from pycl.context import Context
    from pycl.memory import Buffer
    from pycl.platform import Device

    # An entry of a properties list: a key or a value, or a (key, value) pair
    # (a tuple or list, whose entries are added in turn).
    _PropertyEntry = Union[Size, tuple[Size, ...], list[Size]]
    # Image._create's plan: (image type, shape, extent, element size,
    # cl_image_format cdata, cl_image_desc cdata).
    _Plan = tuple[int, tuple[int, ...], tuple[int, ...], int, Any, Any]

__all__ = ["Image", "create_image", "image_from_array", "DTYPE_TO_CHANNEL_TYPE", "DTYPE_TO_CHANNEL_TYPE_NORM"]

_mf = _constants.mem_flags
_mot = _constants.mem_object_type
_ct = _constants.channel_type
_co = _constants.channel_order


# {{{ creation checks

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
    """The image's extent along each origin/region axis (see ``pycl.image``)."""
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
        row = slice_  # the layer distance as both pitches (see _image_copy._host_pitches)
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
    image after creating it (COPY_HOST_PTR) or refuses (USE_HOST_PTR)
    (docs/differences.md, "Driver defects the image code works around")."""
    for device in context.devices:
        ignores = _ignores_pitches_by_device.get(device._ptr)
        if ignores is None:
            ignores = _ignores_pitches_by_device[device._ptr] = "Oclgrind" in device.platform.name
        if ignores:
            return True
    return False


def _check_format_arg(format: object, routine: str) -> None:
    if not isinstance(format, ImageFormat):
        raise TypeError("%s: format must be a pycl.ImageFormat, not %s" % (routine, type(format).__name__))
    if not is_known_format(format):
        raise logic_error(routine, "%r is not a format pycl knows" % (format,), lib.CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)


def _shape_arg(shape: Optional[Union[Size, Extent]], hostbuf: Optional[HostSource], routine: str) -> tuple[int, ...]:
    """The image's shape: ``shape``, or by default ``hostbuf.shape``."""
    if shape is None:
        if hostbuf is None:
            raise logic_error(routine, "'shape' must be passed if 'hostbuf' is not given")
        shape = getattr(hostbuf, "shape", None)
        if shape is None:
            raise TypeError("%s: hostbuf (%s) has no .shape: pass shape" % (routine, describe(hostbuf)))
    shape = sizes(shape, "shape", routine)
    if 0 in shape:
        raise logic_error(routine, "shape = %r has a zero extent" % (shape,), lib.CL_INVALID_IMAGE_SIZE)
    return shape


def _buffer_arg(
    context: Context, buffer: object, flags: int, hostbuf: Optional[HostSource], width: int, element: int, routine: str
) -> Any:
    """The handle of ``buffer``, checked to be a buffer of ``context`` that
    holds a 1D buffer image of ``width`` elements of ``element`` bytes, with
    no host memory asked for."""
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
    need = width * element
    if need > buffer._size:
        raise logic_error(
            routine,
            "width %d x element size %d = %d bytes exceeds buffer (%r, %d bytes)"
            % (width, element, need, buffer, buffer._size),
            lib.CL_INVALID_IMAGE_SIZE,
        )
    return buffer_handle


def _host_memory(
    hostbuf: HostSource,
    flags: int,
    image_type: int,
    shape: tuple[int, ...],
    format: ImageFormat,
    pitches: Optional[Extent],
    routine: str,
) -> tuple[Any, int, int]:
    """``(host memory, row pitch, slice pitch)`` of ``hostbuf``, checked to
    hold the image."""
    if not flags & (_mf.USE_HOST_PTR | _mf.COPY_HOST_PTR):
        raise logic_error(
            routine,
            "a hostbuf was passed but flags %s hold neither USE_HOST_PTR nor COPY_HOST_PTR"
            % _mf.to_string(flags, "0x%x"),
            lib.CL_INVALID_HOST_PTR,
        )
    host = host_bytes(hostbuf, bool(flags & _mf.USE_HOST_PTR), routine, "hostbuf")
    row, slice_, need = _creation_pitches(image_type, shape, format.itemsize, pitches, routine)
    if need > len(host):
        raise logic_error(
            routine,
            "a %s image of shape %r and format %r with pitches (%d, %d) needs %d bytes of host memory; "
            "hostbuf (%s) has %d"
            % (_mot.to_string(image_type), shape, format, row, slice_, need, describe(hostbuf), len(host)),
            lib.CL_INVALID_HOST_PTR,
        )
    return host, row, slice_


# }}}


# {{{ the Image class


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

    # image_info attributes (pycl._info.InfoAttribute, added below).
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
            buffer is None
            and pitches is None
            and properties is None
            and is_array is False
            and type(shape) is tuple
            and type(flags) is int
            and type(format) is ImageFormat
        ):
            # The common creations (no buffer, no pitches): the checks depend
            # on nothing but these values and the context, so a plan that
            # passed them once is reused. sizes() keeps (512.0, 512) from
            # matching the plan of (512, 512). With a hostbuf, what depends on
            # it is checked here: it holds the tightly packed image (the
            # plan's pitches are 0, which means tight), the driver may write
            # it where USE_HOST_PTR says so, and the copy is not staged.
            # Anything else takes the general path, which names it.
            key = (flags, format.channel_order, format.channel_data_type, sizes(shape, "shape", routine))
            plan = context._memo.get(_PLANS, _NO_PLANS).get(key)
            if plan is not None:
                if hostbuf is None:
                    if not flags & _USE_OR_COPY:
                        self._create(context, handle, flags, format, plan, ffi.NULL, None)
                        return
                elif flags & _USE_OR_COPY:
                    extent = plan[2]
                    nbytes = plan[3] * extent[0] * extent[1] * extent[2]
                    try:
                        host = _from_buffer("char[]", hostbuf, bool(flags & _mf.USE_HOST_PTR))
                    except (TypeError, ValueError, BufferError):
                        host = None
                    if (
                        host is not None
                        and len(host) >= nbytes
                        and not _staging.stages_creation(context, flags, hostbuf, nbytes)
                    ):
                        self._create(context, handle, flags, format, plan, host, None, None, hostbuf)
                        return
        else:
            key = None
        require_images(context, routine)
        flags = mem_flags_value(flags, routine)
        _check_format_arg(format, routine)
        element = format.itemsize
        shape = _shape_arg(shape, hostbuf, routine)
        image_type = _image_type_for(shape, is_array, buffer, routine)
        _check_size_limits(context, image_type, shape, routine)
        if pitches is not None and hostbuf is None:
            raise logic_error(routine, "'pitches' may only be given if 'hostbuf' is given")
        host = buffer_handle = ffi.NULL
        row = slice_ = 0
        if buffer is not None:
            buffer_handle = _buffer_arg(context, buffer, flags, hostbuf, shape[0], element, routine)
        elif hostbuf is not None:
            host, row, slice_ = _host_memory(hostbuf, flags, image_type, shape, format, pitches, routine)
        elif flags & (_mf.USE_HOST_PTR | _mf.COPY_HOST_PTR):
            raise logic_error(routine, "flags %s need a hostbuf" % _mf.to_string(flags), lib.CL_INVALID_HOST_PTR)
        check_format_supported(context, flags, image_type, format, routine)
        # A large COPY_HOST_PTR image of a staged device is made empty and
        # written through staging's pinned slots (the driver copies pageable
        # memory at creation far slower: docs/design.md, "Staging"). Oclgrind
        # reads host memory tightly packed at creation (see
        # _ignores_creation_pitches): a pitched hostbuf is written afterwards.
        late_write: Optional[tuple[Any, Any, int, int, bool]] = None  # (hostbuf, host, row, slice pitch, staged)
        if host != ffi.NULL:
            staged = _staging.stages_creation(context, flags, hostbuf, element * prod(_extents(image_type, shape)))
            if staged or (_ignores_creation_pitches(context) and (row, slice_) != _tight(image_type, shape, element)):
                if flags & _mf.USE_HOST_PTR:
                    raise UnavailableError(
                        routine,
                        lib.PYCL_UNAVAILABLE,
                        "Oclgrind ignores the pitches of host memory at image creation, so it cannot use hostbuf "
                        "with pitches (%d, %d) in place: pass COPY_HOST_PTR or a tightly packed hostbuf"
                        % (row, slice_),
                    )
                late_write = (hostbuf, host, row, slice_, staged)
                flags &= ~_mf.COPY_HOST_PTR
                host = ffi.NULL
                row = slice_ = 0
        if (row, slice_) == _tight(image_type, shape, element):
            row = slice_ = 0  # OpenCL's tight packing, so that the plan serves creations without host memory too
        plan = _plan(image_type, shape, element, format, row, slice_, buffer_handle)
        if key is not None:
            plans = context._memo.setdefault(_PLANS, {})
            if len(plans) < _MAX_PLANS:
                plans[key] = plan
        self._create(context, handle, flags, format, plan, host, buffer, properties, hostbuf)
        if late_write is not None:
            self._flags |= _mf.COPY_HOST_PTR  # as made, whatever the driver was asked
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
        c_properties = (
            _NULL if properties is None else properties_array(properties, "cl_mem_properties", "create_image")
        )
        # An image over a buffer owns no memory of its own.
        charged = element * extent[0] * extent[1] * extent[2] if _budget.enabled and buffer is None else 0
        if charged:
            _budget.charge(context, charged)
        cell, cell_int = out_cell("cl_mem")
        status = _image_create(handle, c_properties, flags, c_format, desc, host, cell)
        if status in ALLOCATION_FAILURES:
            _budget.collect()  # collected objects give their memory back
            status = _image_create(handle, c_properties, flags, c_format, desc, host, cell)
        if status:
            check(
                status,
                "clCreateImage" if properties is None else "clCreateImageWithProperties",
                "%s image of shape %r, format %r, flags %s"
                % (_mot.to_string(image_type), shape, format, _mf.to_string(flags, "0x%x")),
            )
        # MemoryObject._adopt and _set_cache, inlined (creation is a
        # benchmarked micro-operation). CL_MEM_SIZE (driver-specific padding
        # included) is queried on first use.
        self._ptr = cell_int[0]
        self._handle = _gc(cell[0], _release_mem)
        self._hostbuf = hostbuf if flags & _mf.USE_HOST_PTR else None
        if charged:
            self._charged = charged
        if not flags & (_mf.READ_WRITE | _mf.WRITE_ONLY | _mf.READ_ONLY):
            flags |= _mf.READ_WRITE
        self._size = None  # type: ignore[assignment]  # see _size
        self._flags = flags
        self._type = image_type
        self._context = context
        self._ctx_ptr = context._ptr
        self._transfer_kind = "image"
        self._format = format
        self._shape = shape
        self._extent = extent
        self._element = element
        self._buffer = buffer

    def _copy_in_later(self, hostbuf: HostSource, host: Any, row: int, slice_: int, staged: bool) -> None:
        """COPY_HOST_PTR done as a blocking write after creation: staged, on
        the context's own queue (``row``/``slice_``: the creation pitches,
        a 1D array's layer pitch as both); else (pitches on Oclgrind) through
        the image route of ``enqueue_copy``, which ``pycl.image`` registers
        before any image exists."""
        if staged:
            stager, queue = _staging.creation_stager(self._context)
            w, h, d = self._extent
            status = lib.pycl_staged_image(
                stager, queue, self._live(), 0, 0, 0, 0, w, h, d, w * self._element,
                self._type == _mot.IMAGE1D_ARRAY, row, slice_, host, 0, ffi.NULL, ffi.NULL,
            )  # fmt: skip
            if status:
                check(status, "clCreateImage", "COPY_HOST_PTR, staged: %r" % (self,))
            return
        queue = CommandQueue(self._context)
        try:
            enqueue_copy(queue, self, hostbuf, origin=(0, 0, 0), region=self._shape, pitches=(row, slice_))
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

    def __repr__(self) -> str:
        if self._handle is None:
            return MemoryObject.__repr__(self)
        return "<pycl.Image %s %r %r at 0x%x>" % (_mot.to_string(self._type), self._shape, self._format, self._ptr)


# context._memo[_PLANS]: (flags, channel order, channel type, shape) ->
# Image._create's plan, for the first _MAX_PLANS image kinds made.
_USE_OR_COPY = _mf.USE_HOST_PTR | _mf.COPY_HOST_PTR
_from_buffer, _gc, _NULL = ffi.from_buffer, ffi.gc, ffi.NULL
_image_create, _release_mem = lib.pycl_image_create, lib.pycl_mem_release
_PLANS = "image plans"
_MAX_PLANS = 256
_NO_PLANS: dict[tuple[int, int, int, tuple[int, ...]], _Plan] = {}


def _plan(
    image_type: int, shape: tuple[int, ...], element: int, format: ImageFormat, row: int, slice_: int, buffer: Any
) -> _Plan:
    """The plan ``Image._create`` makes an image of: the format and
    descriptor structs (``buffer``: the handle of a 1D buffer image's buffer,
    else NULL; plans kept for reuse have none)."""
    c_format = ffi.new("cl_image_format *", [format.channel_order, format.channel_data_type])
    desc = _image_desc(image_type, shape, row, slice_)
    desc.buffer = buffer
    return (image_type, shape, _extents(image_type, shape), element, c_format, desc)


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
_info.add_attributes(Image, "image", "get_image_info")

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
