"""Hypothesis strategies for fuzzing transfers, for pycl's tests and yours.

Each strategy takes the sizes involved (bytes of a buffer, bytes of a host
array) and draws keyword arguments for ``enqueue_copy``,
``enqueue_fill_buffer`` or ``enqueue_map_buffer``:

- ``linear_copy_kwargs(src_size, dst_size)``: ``src_offset``, ``dst_offset``,
  ``byte_count`` for a buffer->buffer copy that fits;
- ``rects(size_a, size_b)``: a ``Rect`` (origins, region, pitches of two
  sides) that fits both, in every spelling PyOpenCL accepts (short tuples,
  ``None`` or zero pitches for "tightly packed");
- ``host_rect_kwargs(buffer_size, host_size)`` and
  ``buffer_rect_kwargs(src_size, dst_size)``: the same as ``enqueue_copy``
  keyword arguments;
- ``fill_args(size)``: ``(pattern_size, offset, size)``;
- ``map_args(size)``: ``(offset, nbytes)``;
- ``invalid_*`` versions of each: an ``Invalid(kwargs, error, names)`` whose
  call must raise ``error`` (``pycl.LogicError`` or ``TypeError``) with one of
  ``names`` in the message.

A ``Rect`` resolves to byte offsets with ``Rect.rows(side)``, so a test can
model the copy with numpy slicing of a host mirror.

Images (``shape`` in image order, x first, as ``create_image`` takes it;
``element_size`` the bytes of a pixel, ``format.itemsize``):

- ``image_shapes()``: ``(shape, is_array)``: 1D, 2D, 3D, 1D and 2D arrays;
- ``image_boxes(shape)``: ``(origin, region)``, for fills and maps;
- ``image_regions(shape, element_size, host_size, is_array)``: an
  ``ImageRegion`` (origin, region, host pitches) of an image<->host copy;
  ``image_host_kwargs(...)``: the same as ``enqueue_copy`` keywords;
- ``image_buffer_kwargs(shape, element_size, buffer_size)`` and
  ``image_copy_kwargs(src_shape, dst_shape)``: image<->buffer and
  image->image copies.

SVM transfers take no offsets: they slice (``SVM(ary[a:b])``). These draw
slices of allocations aligned to 128 bytes (``csvm_empty(..., alignment=128)``):
``svm_copy_args(src_size, dst_size)`` an ``SVMCopy``, ``svm_fill_args(size)``
an ``SVMFill``, ``svm_map_args(size)`` ``(offset, nbytes)``.

Each has its ``invalid_*`` form (SVM copies and fills: ``(SVMCopy or
SVMFill, error, names)``). Copies within one buffer, image or SVM allocation
may overlap, which OpenCL refuses (``CL_MEM_COPY_OVERLAP``): a test that
uses one object for both sides expects the refusal where they overlap.

Importing this module imports hypothesis (the ``test`` extra).
"""

from __future__ import annotations

from collections import namedtuple
from math import prod
from typing import TYPE_CHECKING, Any, Optional

from hypothesis import strategies as st

from pycl._args import PATTERN_SIZES
from pycl.errors import LogicError

if TYPE_CHECKING:
    from collections.abc import Iterable

    from hypothesis.strategies import DrawFn, SearchStrategy

    # The pitches of one side as the caller spells them: None or up to two ints.
    _Pitches = Optional[tuple[int, ...]]

__all__ = [
    "Rect",
    "Invalid",
    "PATTERN_SIZES",
    "linear_copy_kwargs",
    "rects",
    "host_rect_kwargs",
    "buffer_rect_kwargs",
    "fill_args",
    "map_args",
    "invalid_linear_copy_kwargs",
    "invalid_rects",
    "invalid_host_rect_kwargs",
    "invalid_buffer_rect_kwargs",
    "invalid_fill_args",
    "invalid_map_args",
    "ImageRegion",
    "image_shapes",
    "image_boxes",
    "image_regions",
    "image_host_kwargs",
    "image_buffer_kwargs",
    "image_copy_kwargs",
    "invalid_image_boxes",
    "invalid_image_host_kwargs",
    "invalid_image_buffer_kwargs",
    "invalid_image_copy_kwargs",
    "SVMCopy",
    "SVMFill",
    "svm_copy_args",
    "svm_fill_args",
    "svm_map_args",
    "invalid_svm_copy_args",
    "invalid_svm_fill_args",
    "invalid_svm_map_args",
]

Invalid = namedtuple("Invalid", "kwargs error names")


class Rect(namedtuple("Rect", "origin_a origin_b region pitches_a pitches_b")):
    """One rect copy between side ``a`` and side ``b``, as the caller spells
    it: origins and region are tuples of 1 to 3 ints, pitches are ``None`` or
    tuples of at most 2 ints (0 = tightly packed)."""

    __slots__ = ()

    def resolved(self, side: str) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
        """``(origin, region, row_pitch, slice_pitch)`` of ``side`` ("a"/"b"),
        padded and with tight pitches filled in, as OpenCL defines them."""
        origin = tuple(getattr(self, "origin_" + side)) + (0,) * 3
        region = tuple(self.region) + (1,) * 3
        pitches = tuple(getattr(self, "pitches_" + side) or ()) + (0, 0)
        r0, r1, _ = region[:3]
        row = pitches[0] or r0
        slice_ = pitches[1] or r1 * row
        return origin[:3], region[:3], row, slice_

    def rows(self, side: str) -> list[tuple[int, int]]:
        """The byte ranges ``[(start, stop), ...]`` of ``side``'s rows, in
        copy order (slice-major, then row)."""
        origin, (r0, r1, r2), row, slice_ = self.resolved(side)
        base = origin[0] + origin[1] * row + origin[2] * slice_
        return [(base + z * slice_ + y * row, base + z * slice_ + y * row + r0) for z in range(r2) for y in range(r1)]


def _trim(values: Iterable[int], default: int, minimum: int = 1) -> SearchStrategy[tuple[int, ...]]:
    """Strategy: ``values`` or a shorter tuple dropping trailing defaults."""
    values = tuple(values)
    shortest = len(values)
    while shortest > minimum and values[shortest - 1] == default:
        shortest -= 1
    return st.integers(shortest, len(values)).map(lambda n: values[:n])


@st.composite
def _side(draw: DrawFn, size: int, region: tuple[int, int, int]) -> tuple[tuple[int, ...], _Pitches]:
    """(origin, spelled pitches) for one side."""
    r0, r1, r2 = region
    row_coefficient = (r2 - 1) * r1 + (r1 - 1)
    max_row = (size - r0) // row_coefficient if row_coefficient else size
    row = draw(st.integers(r0, max(r0, max_row)))
    if r2 > 1:
        max_k = (size - r0 - (r1 - 1) * row) // ((r2 - 1) * row)
    else:
        max_k = max(r1, size // row)
    slice_ = draw(st.integers(r1, max(r1, max_k))) * row
    extent = (r2 - 1) * slice_ + (r1 - 1) * row + r0
    free = size - extent
    o2 = draw(st.integers(0, free // slice_))
    free -= o2 * slice_
    o1 = draw(st.integers(0, free // row))
    free -= o1 * row
    o0 = draw(st.integers(0, free))
    origin = draw(_trim((o0, o1, o2), 0))
    slice_tight = slice_ == r1 * row
    spellings: list[_Pitches] = [(row, slice_)]
    if slice_tight:
        spellings += [(row, 0), (row,)]
    if row == r0:
        spellings.append((0, slice_))
        if slice_tight:
            spellings += [(0, 0), (0,), (), None]
    pitches = draw(st.sampled_from(spellings))
    return origin, pitches


@st.composite
def rects(draw: DrawFn, size_a: int, size_b: int, max_dims: int = 3) -> Rect:
    """A ``Rect`` that fits ``size_a`` bytes on side a and ``size_b`` on side b."""
    cap = min(size_a, size_b)
    if cap < 1:
        raise ValueError("rects needs two sides of at least one byte")
    dims = draw(st.integers(1, max_dims))
    r0 = draw(st.integers(1, cap))
    r1 = draw(st.integers(1, cap // r0)) if dims >= 2 else 1
    r2 = draw(st.integers(1, cap // (r0 * r1))) if dims >= 3 else 1
    region = (r0, r1, r2)
    origin_a, pitches_a = draw(_side(size_a, region))
    origin_b, pitches_b = draw(_side(size_b, region))
    return Rect(origin_a, origin_b, draw(_trim(region, 1)), pitches_a, pitches_b)


def _host_kwargs(rect: Rect) -> dict[str, Any]:
    kwargs = {"buffer_origin": rect.origin_a, "host_origin": rect.origin_b, "region": rect.region}
    if rect.pitches_a is not None:
        kwargs["buffer_pitches"] = rect.pitches_a
    if rect.pitches_b is not None:
        kwargs["host_pitches"] = rect.pitches_b
    return kwargs


def _buffer_kwargs(rect: Rect) -> dict[str, Any]:
    kwargs = {"src_origin": rect.origin_a, "dst_origin": rect.origin_b, "region": rect.region}
    if rect.pitches_a is not None:
        kwargs["src_pitches"] = rect.pitches_a
    if rect.pitches_b is not None:
        kwargs["dst_pitches"] = rect.pitches_b
    return kwargs


def host_rect_kwargs(buffer_size: int, host_size: int, max_dims: int = 3) -> SearchStrategy[dict[str, Any]]:
    """``enqueue_copy`` keywords (``buffer_origin``, ``host_origin``,
    ``region``, pitches) of a rect copy between a buffer and a host array."""
    return rects(buffer_size, host_size, max_dims).map(_host_kwargs)


def buffer_rect_kwargs(src_size: int, dst_size: int, max_dims: int = 3) -> SearchStrategy[dict[str, Any]]:
    """``enqueue_copy`` keywords (``src_origin``, ``dst_origin``, ``region``,
    pitches) of a rect copy between two buffers."""
    return rects(src_size, dst_size, max_dims).map(_buffer_kwargs)


@st.composite
def linear_copy_kwargs(draw: DrawFn, src_size: int, dst_size: int) -> dict[str, int]:
    """``src_offset``, ``dst_offset`` and (sometimes) ``byte_count`` of a
    buffer->buffer copy that fits both sides."""
    src_offset = draw(st.integers(0, src_size))
    dst_offset = draw(st.integers(0, dst_size))
    kwargs = {"src_offset": src_offset, "dst_offset": dst_offset}
    if draw(st.booleans()):
        kwargs["byte_count"] = draw(st.integers(0, min(src_size - src_offset, dst_size - dst_offset)))
    return kwargs


@st.composite
def fill_args(draw: DrawFn, size: int, pattern_sizes: Iterable[int] = PATTERN_SIZES) -> tuple[int, int, int]:
    """``(pattern_size, offset, nbytes)`` of a valid fill of ``size`` bytes."""
    pattern_size = draw(st.sampled_from([p for p in pattern_sizes if p <= size] or [1]))
    slots = size // pattern_size
    offset = draw(st.integers(0, slots))
    count = draw(st.integers(0, slots - offset))
    return pattern_size, offset * pattern_size, count * pattern_size


@st.composite
def map_args(draw: DrawFn, size: int) -> tuple[int, int]:
    """``(offset, nbytes)`` of a valid map (at least one byte)."""
    offset = draw(st.integers(0, size - 1))
    return offset, draw(st.integers(1, size - offset))


# {{{ invalid arguments

_BAD_TYPES = st.sampled_from([1.5, "3", None, b"\x01", [1]])


def _negative() -> SearchStrategy[int]:
    return st.integers(-(2**40), -1)


@st.composite
def invalid_linear_copy_kwargs(draw: DrawFn, src_size: int, dst_size: int) -> Invalid:
    """A buffer->buffer copy's keywords with one argument out of range or of a wrong type."""
    kwargs: dict[str, Any] = draw(linear_copy_kwargs(src_size, dst_size))
    name = draw(st.sampled_from(["src_offset", "dst_offset", "byte_count"]))
    how = draw(st.sampled_from(["negative", "past_end", "type"]))
    if how == "type":
        kwargs[name] = draw(_BAD_TYPES.filter(lambda v: not (name == "byte_count" and v is None)))
        return Invalid(kwargs, TypeError, (name,))
    if how == "negative":
        kwargs[name] = draw(_negative())
        return Invalid(kwargs, LogicError, (name,))
    limit = src_size if name == "src_offset" else dst_size
    if name == "byte_count":
        room = min(src_size - kwargs["src_offset"], dst_size - kwargs["dst_offset"])
        kwargs[name] = room + draw(st.integers(1, 2**20))
        return Invalid(kwargs, LogicError, ("byte_count",))
    kwargs[name] = limit + draw(st.integers(1, 2**20))
    return Invalid(kwargs, LogicError, (name,))


@st.composite
def invalid_rects(
    draw: DrawFn, size_a: int, size_b: int, max_dims: int = 3
) -> tuple[Rect, type[Exception], tuple[str, ...]]:
    """``(Rect, error, names)``: a rect copy made invalid in one way
    (negative, past the end, small or misaligned pitches, too many entries,
    wrong types). ``names`` are the fields the message may name."""
    rect = draw(rects(size_a, size_b, max_dims))
    side = draw(st.sampled_from("ab"))
    size = size_a if side == "a" else size_b
    origin, region, row, slice_ = rect.resolved(side)
    fields = rect._asdict()
    how = draw(
        st.sampled_from(
            [
                "negative",
                "origin_past_end",
                "region_past_end",
                "small_row",
                "small_slice",
                "unaligned_slice",
                "long",
                "type",
                "huge",
            ]
        )
    )
    origin_field, pitches_field = "origin_" + side, "pitches_" + side
    if how == "negative":
        field = draw(st.sampled_from([origin_field, "region", pitches_field]))
        values = list(fields[field] or (0,))
        values[draw(st.integers(0, len(values) - 1))] = draw(_negative())
        fields[field] = tuple(values)
        return Rect(**fields), LogicError, (field,)
    if how == "origin_past_end":
        end = (
            origin[0]
            + origin[1] * row
            + origin[2] * slice_
            + (region[2] - 1) * slice_
            + (region[1] - 1) * row
            + region[0]
        )
        fields[origin_field] = (origin[0] + size - end + draw(st.integers(1, 1000)), origin[1], origin[2])
        return Rect(**fields), LogicError, (origin_field,)
    if how == "region_past_end":
        grown = list(region)
        grown[2] = region[2] + (size // slice_) + 1  # more slices than the side holds
        fields["region"] = tuple(grown)
        return (
            Rect(**fields),
            LogicError,
            ("region", origin_field, pitches_field, "origin_a", "origin_b", "pitches_a", "pitches_b"),
        )
    if how == "small_row" and region[0] >= 2:
        fields[pitches_field] = (region[0] - 1, 0)
        return Rect(**fields), LogicError, (pitches_field,)
    if how == "small_slice" and region[1] * row >= 2:
        fields[pitches_field] = (row, region[1] * row - 1)
        return Rect(**fields), LogicError, (pitches_field,)
    if how == "unaligned_slice" and row >= 2:
        fields[pitches_field] = (row, region[1] * row + 1)
        return Rect(**fields), LogicError, (pitches_field,)
    if how == "long":
        field = draw(st.sampled_from([origin_field, "region", pitches_field]))
        fields[field] = (1,) * (4 if field != pitches_field else 3)
        return Rect(**fields), LogicError, (field,)
    if how == "huge":
        fields[origin_field] = (2**64 + draw(st.integers(0, 10)),)
        return Rect(**fields), LogicError, (origin_field,)
    # "type", and the fallback of the cases a tiny rect cannot express
    field = draw(st.sampled_from([origin_field, "region", pitches_field]))
    if draw(st.booleans()):
        fields[field] = draw(st.sampled_from([1.5, "abc", 3]))  # not a tuple
    else:
        values = list(fields[field] or (0,))
        values[0] = draw(_BAD_TYPES.filter(lambda v: v is not None))
        fields[field] = tuple(values)
    return Rect(**fields), TypeError, (field,)


_HOST_NAMES = {
    "origin_a": "buffer_origin",
    "origin_b": "host_origin",
    "pitches_a": "buffer_pitches",
    "pitches_b": "host_pitches",
    "region": "region",
}
_BUFFER_NAMES = {
    "origin_a": "src_origin",
    "origin_b": "dst_origin",
    "pitches_a": "src_pitches",
    "pitches_b": "dst_pitches",
    "region": "region",
}


def invalid_host_rect_kwargs(buffer_size: int, host_size: int, max_dims: int = 3) -> SearchStrategy[Invalid]:
    """An ``Invalid`` rect copy between a buffer and a host array."""
    return invalid_rects(buffer_size, host_size, max_dims).map(
        lambda x: Invalid(_host_kwargs(x[0]), x[1], tuple(_HOST_NAMES[n] for n in x[2]))
    )


def invalid_buffer_rect_kwargs(src_size: int, dst_size: int, max_dims: int = 3) -> SearchStrategy[Invalid]:
    """An ``Invalid`` rect copy between two buffers."""
    return invalid_rects(src_size, dst_size, max_dims).map(
        lambda x: Invalid(_buffer_kwargs(x[0]), x[1], tuple(_BUFFER_NAMES[n] for n in x[2]))
    )


@st.composite
def invalid_fill_args(draw: DrawFn, size: int) -> Invalid:
    """An ``Invalid`` whose kwargs are ``pattern_size``, ``offset``, ``size``."""
    pattern_size, offset, nbytes = draw(fill_args(size))
    kwargs: dict[str, Any] = {"pattern_size": pattern_size, "offset": offset, "size": nbytes}
    how = draw(st.sampled_from(["pattern", "misaligned_offset", "misaligned_size", "past_end", "negative", "type"]))
    if how == "pattern":
        kwargs["pattern_size"] = draw(st.sampled_from([3, 5, 6, 12, 256]))
        return Invalid(kwargs, LogicError, ("pattern",))
    if how == "misaligned_offset" and pattern_size > 1:
        kwargs["offset"] = offset + draw(st.integers(1, pattern_size - 1))
        return Invalid(kwargs, LogicError, ("offset",))
    if how == "misaligned_size" and pattern_size > 1:
        kwargs["size"] = nbytes + draw(st.integers(1, pattern_size - 1))
        return Invalid(kwargs, LogicError, ("size",))
    if how == "negative":
        name = draw(st.sampled_from(["offset", "size"]))
        kwargs[name] = -pattern_size * draw(st.integers(1, 100))
        return Invalid(kwargs, LogicError, (name,))
    if how == "type":
        name = draw(st.sampled_from(["offset", "size"]))
        kwargs[name] = draw(_BAD_TYPES)
        return Invalid(kwargs, TypeError, (name,))
    kwargs["size"] = (size - offset) // pattern_size * pattern_size + pattern_size * draw(st.integers(1, 100))
    return Invalid(kwargs, LogicError, ("size", "offset"))


@st.composite
def invalid_map_args(draw: DrawFn, size: int) -> Invalid:
    """An ``Invalid`` whose kwargs are ``offset`` and ``nbytes``."""
    offset, nbytes = draw(map_args(size))
    how = draw(st.sampled_from(["past_end", "negative", "empty", "type"]))
    if how == "negative":
        return Invalid({"offset": draw(_negative()), "nbytes": nbytes}, LogicError, ("offset",))
    if how == "empty":
        return Invalid({"offset": offset, "nbytes": 0}, LogicError, ("shape", "bytes"))
    if how == "type":
        return Invalid({"offset": draw(_BAD_TYPES), "nbytes": nbytes}, TypeError, ("offset",))
    return Invalid({"offset": offset, "nbytes": size - offset + draw(st.integers(1, 1000))}, LogicError, ("offset",))


# }}}


# {{{ images


def _padded(values: Iterable[int], pad: int) -> tuple[int, int, int]:
    a, b, c = (tuple(values) + (pad,) * 3)[:3]
    return a, b, c


def _image_layout(shape: tuple[int, ...], is_array: bool) -> str:
    """What the second host pitch separates: nothing ("flat": 1D and 2D
    images), "layers" (1D arrays) or "slices" (3D images, 2D arrays)."""
    if len(shape) == 3:
        return "slices"
    return "layers" if len(shape) == 2 and is_array else "flat"


class ImageRegion(namedtuple("ImageRegion", "origin region pitches")):
    """One copy between an image and host memory, as the caller spells it:
    origin and region are tuples of 1 to 3 ints on the image's axes (x
    first), pitches ``None`` or up to 2 ints for the host side (0 = tightly
    packed): the row pitch, then the slice pitch (a 3D image, a 2D array) or
    the layer pitch (a 1D array)."""

    __slots__ = ()

    def resolved(
        self, element_size: int, is_1d_array: bool = False
    ) -> tuple[tuple[int, int, int], tuple[int, int, int], int, int]:
        """``(origin, region, y_stride, z_stride)``, padded, where pixel
        ``(x, y, z)`` of the region lies at host byte ``x * element_size +
        y * y_stride + z * z_stride`` (``y`` counts the layers of a 1D
        array), as OpenCL defines the pitches."""
        origin, region = _padded(self.origin, 0), _padded(self.region, 1)
        row_given, slice_given = (tuple(self.pitches or ()) + (0, 0))[:2]
        row = row_given or region[0] * element_size
        if is_1d_array:
            return origin, region, slice_given or row, 0
        return origin, region, row, slice_given or row * region[1]

    def host_nbytes(self, element_size: int, is_1d_array: bool = False) -> int:
        """The bytes of host memory the copy spans."""
        _, (w, h, d), y_stride, z_stride = self.resolved(element_size, is_1d_array)
        return (d - 1) * z_stride + (h - 1) * y_stride + w * element_size

    def kwargs(self) -> dict[str, Any]:
        """``enqueue_copy`` keywords: ``origin``, ``region`` and (unless
        ``None``) ``pitches``."""
        kwargs = {"origin": self.origin, "region": self.region}
        return kwargs if self.pitches is None else dict(kwargs, pitches=self.pitches)


@st.composite
def image_shapes(draw: DrawFn, max_extent: int = 8) -> tuple[tuple[int, ...], bool]:
    """``(shape, is_array)`` of a 1D, 2D or 3D image, or a 1D or 2D image
    array, each extent 1 .. ``max_extent``, for ``create_image(ctx, flags,
    format, shape, is_array=is_array)``."""
    dims = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, max_extent)) for _ in range(dims))
    return shape, dims > 1 and draw(st.booleans())


def _image_region(draw: DrawFn, extent: tuple[int, ...], min_region: int, max_pixels: int) -> list[int]:
    """A region inside ``extent`` of at most ``max_pixels`` pixels (at least
    one unless ``min_region`` is 0)."""
    region = []
    for n in extent:
        r = draw(st.integers(min(min_region, n, max_pixels), min(n, max_pixels)))
        region.append(r)
        max_pixels = max_pixels // r if r else max_pixels
    return region


def _image_origin(draw: DrawFn, extent: tuple[int, int, int], region: Iterable[int]) -> list[int]:
    return [draw(st.integers(0, n - r)) for n, r in zip(extent, region)]


@st.composite
def image_boxes(draw: DrawFn, shape: tuple[int, ...], min_region: int = 1) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(origin, region)`` inside an image of ``shape``, each 1 to 3
    entries long: for ``enqueue_fill_image`` and ``enqueue_map_image``.
    Every region entry is at least ``min_region``; 0 draws empty regions
    too, which fills take and maps refuse."""
    extent = _padded(shape, 1)
    region = _image_region(draw, extent, min_region, prod(extent))
    origin = _image_origin(draw, extent, region)
    return draw(_trim(origin, 0)), draw(_trim(region, 1))


@st.composite
def _host_pitches(
    draw: DrawFn, layout: str, region: tuple[int, int, int], element_size: int, host_size: int
) -> _Pitches:
    """Host pitches, in every spelling pycl takes, for which ``region`` spans
    at most ``host_size`` bytes (given that it fits tightly packed). Row and
    layer pitches are whole pixels, slice pitches whole rows, as in host
    arrays (pycl takes other pitches too)."""
    w, h, d = region
    tight = w * element_size
    room = host_size - tight  # for the rows (or layers, slices) after the first
    if layout != "slices":
        y_stride = draw(st.integers(w, (room // (h - 1) if h > 1 else 2 * tight) // element_size)) * element_size
        row = y_stride if layout == "flat" else draw(st.integers(w, y_stride // element_size)) * element_size
        second = 0 if layout == "flat" else y_stride  # a 1D array's layer pitch
        second_tight = second in (0, row)
    else:
        rows_before = (d - 1) * h + (h - 1)  # rows of the row pitch below the last row, slices packed
        row = draw(st.integers(w, (room // rows_before if rows_before else 2 * tight) // element_size)) * element_size
        most = (room - (h - 1) * row) // ((d - 1) * row) if d > 1 else h + 2
        second = draw(st.integers(h, max(h, most))) * row
        second_tight = second == h * row
    spellings: list[_Pitches] = [(row, second)]
    if second_tight:
        spellings += [(row, 0), (row,)] if second else [(row,)]
    if row == tight:
        spellings.append((0, second))
        if second_tight:
            spellings += [(0, 0), (0,), (), None]
    return draw(st.sampled_from(spellings))


@st.composite
def image_regions(
    draw: DrawFn, shape: tuple[int, ...], element_size: int, host_size: int, is_array: bool = False
) -> ImageRegion:
    """An ``ImageRegion`` inside an image of ``shape`` (pixels of
    ``element_size`` bytes) that spans at most ``host_size`` bytes of host
    memory; ``is_array`` as ``create_image`` takes it."""
    if host_size < element_size:
        raise ValueError("image_regions needs a host side of at least one pixel")
    extent = _padded(shape, 1)
    region = _padded(_image_region(draw, extent, 1, host_size // element_size), 1)
    origin = _image_origin(draw, extent, region)
    pitches = draw(_host_pitches(_image_layout(shape, is_array), region, element_size, host_size))
    return ImageRegion(draw(_trim(origin, 0)), draw(_trim(region, 1)), pitches)


def image_host_kwargs(
    shape: tuple[int, ...], element_size: int, host_size: int, is_array: bool = False
) -> SearchStrategy[dict[str, Any]]:
    """``enqueue_copy`` keywords (``origin``, ``region``, ``pitches``) of a
    copy between an image and a host array of ``host_size`` bytes, either
    way."""
    return image_regions(shape, element_size, host_size, is_array).map(ImageRegion.kwargs)


@st.composite
def image_buffer_kwargs(draw: DrawFn, shape: tuple[int, ...], element_size: int, buffer_size: int) -> dict[str, Any]:
    """``origin``, ``region`` and ``offset`` of a copy between an image and
    a buffer of ``buffer_size`` bytes, either way: the buffer holds the
    region tightly packed (x fastest) from ``offset``, a multiple of
    ``element_size``."""
    pixels = buffer_size // element_size
    if pixels < 1:
        raise ValueError("image_buffer_kwargs needs a buffer of at least one pixel")
    extent = _padded(shape, 1)
    region = _image_region(draw, extent, 1, pixels)
    origin = _image_origin(draw, extent, region)
    offset = draw(st.integers(0, pixels - prod(region))) * element_size
    return {"origin": draw(_trim(origin, 0)), "region": draw(_trim(region, 1)), "offset": offset}


@st.composite
def image_copy_kwargs(draw: DrawFn, src_shape: tuple[int, ...], dst_shape: tuple[int, ...]) -> dict[str, Any]:
    """``src_origin``, ``dest_origin`` and ``region`` of a copy between
    images of ``src_shape`` and ``dst_shape`` (of one format)."""
    src_extent, dst_extent = _padded(src_shape, 1), _padded(dst_shape, 1)
    common = tuple(min(a, b) for a, b in zip(src_extent, dst_extent))
    region = _image_region(draw, common, 1, prod(common))
    return {
        "src_origin": draw(_trim(_image_origin(draw, src_extent, region), 0)),
        "dest_origin": draw(_trim(_image_origin(draw, dst_extent, region), 0)),
        "region": draw(_trim(region, 1)),
    }


def _spoil_box(
    draw: DrawFn, extent: tuple[int, int, int], origin: Iterable[int], region: Iterable[int], origin_name: str
) -> tuple[dict[str, Any], type[Exception], tuple[str, ...]]:
    """``(keywords, error, names)``: a valid origin and region (padded) made
    invalid in one way: negative, past the image's extent, 0 or 4 entries,
    too large for a size_t, wrong types."""
    o, r = _padded(origin, 0), _padded(region, 1)
    fields: dict[str, Any] = {origin_name: o, "region": r}
    field = draw(st.sampled_from([origin_name, "region"]))
    how = draw(st.sampled_from(["negative", "past_end", "length", "huge", "type"]))
    values = list(fields[field])
    index = draw(st.integers(0, 2))
    if how == "negative":
        values[index] = draw(_negative())
    elif how == "past_end":  # with the other of the two, past the extent
        values[index] = extent[index] - (o if field == "region" else r)[index] + draw(st.integers(1, 100))
        fields[field] = tuple(values)
        return fields, LogicError, (origin_name, "region")
    elif how == "length":
        values = draw(st.sampled_from([[], values + [1]]))
    elif how == "huge":
        values[index] = 2**64 + draw(st.integers(0, 10))
    elif draw(st.booleans()):
        fields[field] = draw(st.sampled_from([1.5, "abc", 3, None]))  # not a tuple
        return fields, TypeError, (field,)
    else:
        values[index] = draw(_BAD_TYPES)
        fields[field] = tuple(values)
        return fields, TypeError, (field,)
    fields[field] = tuple(values)
    return fields, LogicError, (field,)


@st.composite
def invalid_image_boxes(draw: DrawFn, shape: tuple[int, ...], refuse_empty: bool = False) -> Invalid:
    """An ``Invalid`` whose kwargs are ``origin`` and ``region`` of a fill
    or map of an image of ``shape``; with ``refuse_empty`` (maps) the region
    may also be empty."""
    extent = _padded(shape, 1)
    region = _image_region(draw, extent, 1, prod(extent))
    origin = _image_origin(draw, extent, region)
    if refuse_empty and draw(st.integers(0, 5)) == 0:
        region[draw(st.integers(0, 2))] = 0
        return Invalid({"origin": tuple(origin), "region": tuple(region)}, LogicError, ("region",))
    fields, error, names = _spoil_box(draw, extent, origin, region, "origin")
    return Invalid(fields, error, names)


@st.composite
def invalid_image_host_kwargs(
    draw: DrawFn, shape: tuple[int, ...], element_size: int, host_size: int, is_array: bool = False
) -> Invalid:
    """An ``Invalid`` copy between an image and a host array: a bad origin
    or region, or host pitches that are too small, too many, not 0 where
    the image has no slices, or span more than ``host_size`` bytes."""
    valid = draw(image_regions(shape, element_size, host_size, is_array))
    layout = _image_layout(shape, is_array)
    origin, region, y_stride, z_stride = valid.resolved(element_size, layout == "layers")
    w, h, d = region
    tight = w * element_size
    how = draw(st.sampled_from(["box", "small_row", "second_pitch", "past_host", "length", "negative", "type"]))
    kwargs = valid.kwargs()
    if how == "box":
        fields, error, names = _spoil_box(draw, _padded(shape, 1), origin, region, "origin")
        kwargs.update(fields)
        return Invalid(kwargs, error, names)
    if how == "small_row" and tight >= 2:
        kwargs["pitches"] = (draw(st.integers(1, tight - 1)),)
        return Invalid(kwargs, LogicError, ("pitches",))
    if how == "second_pitch":
        row = max(tight, 2)
        if layout == "flat":  # a slice pitch where the image has no slices
            kwargs["pitches"] = (row, draw(st.integers(1, 2**20)))
        elif layout == "layers":  # layers closer than the rows are long
            kwargs["pitches"] = (row, draw(st.integers(1, row - 1)))
        else:  # slices closer than their rows span
            kwargs["pitches"] = (row, draw(st.integers(1, row * h - 1)))
        return Invalid(kwargs, LogicError, ("pitches",))
    if how == "past_host" and (h > 1 or d > 1):
        last = host_size - tight  # the farthest the last row may start
        if layout == "slices" and d > 1:  # slices farther apart, still a multiple of the row pitch
            least = max(last // (d - 1) + 1, y_stride * h)
            z_stride = (-(-least // y_stride) + draw(st.integers(0, 3))) * y_stride
        elif layout == "slices":
            y_stride = last // (h - 1) + 1 + draw(st.integers(0, 16))
            z_stride = 0
        else:
            y_stride = last // (h - 1) + 1 + draw(st.integers(0, 16))
            z_stride = y_stride if layout == "layers" else 0
        kwargs["pitches"] = (y_stride, z_stride) if layout != "layers" else (tight, y_stride)
        return Invalid(kwargs, LogicError, ("region", "pitches"))
    if how == "length":
        kwargs["pitches"] = (tight, 0, 0)
        return Invalid(kwargs, LogicError, ("pitches",))
    if how == "negative":
        pitches = [tight, 0]
        pitches[draw(st.integers(0, 1))] = draw(_negative())
        kwargs["pitches"] = tuple(pitches)
        return Invalid(kwargs, LogicError, ("pitches",))
    # "type", and the fallback of the cases a small region cannot express
    if draw(st.booleans()):
        kwargs["pitches"] = draw(st.sampled_from([1.5, "abc", 3]))  # not a tuple
    else:
        kwargs["pitches"] = (draw(_BAD_TYPES), 0)
    return Invalid(kwargs, TypeError, ("pitches",))


@st.composite
def invalid_image_buffer_kwargs(draw: DrawFn, shape: tuple[int, ...], element_size: int, buffer_size: int) -> Invalid:
    """An ``Invalid`` copy between an image and a buffer: a bad origin or
    region, or an offset that is negative, of a wrong type, or leaves too
    few bytes."""
    kwargs = draw(image_buffer_kwargs(shape, element_size, buffer_size))
    how = draw(st.sampled_from(["box", "negative", "past_end", "type"]))
    if how == "box":
        fields, error, names = _spoil_box(draw, _padded(shape, 1), kwargs["origin"], kwargs["region"], "origin")
        kwargs.update(fields)
        return Invalid(kwargs, error, names)
    if how == "negative":
        kwargs["offset"] = draw(_negative())
        return Invalid(kwargs, LogicError, ("offset",))
    if how == "past_end":
        nbytes = prod(kwargs["region"]) * element_size
        kwargs["offset"] = buffer_size - nbytes + draw(st.integers(1, 2**20))
        return Invalid(kwargs, LogicError, ("offset",))
    kwargs["offset"] = draw(_BAD_TYPES)
    return Invalid(kwargs, TypeError, ("offset",))


@st.composite
def invalid_image_copy_kwargs(draw: DrawFn, src_shape: tuple[int, ...], dst_shape: tuple[int, ...]) -> Invalid:
    """An ``Invalid`` copy between two images: one side's origin, or the
    region, spoiled as in ``invalid_image_boxes``."""
    kwargs = draw(image_copy_kwargs(src_shape, dst_shape))
    side, shape = draw(st.sampled_from([("src_origin", src_shape), ("dest_origin", dst_shape)]))
    fields, error, names = _spoil_box(draw, _padded(shape, 1), kwargs[side], kwargs["region"], side)
    kwargs.update(fields)
    return Invalid(kwargs, error, names)


# }}}


# {{{ SVM


class SVMCopy(namedtuple("SVMCopy", "src dst kwargs")):
    """An SVM copy: ``src`` and ``dst`` are ``slice`` objects of the two
    sides, ``kwargs`` the ``enqueue_copy`` keywords, as in
    ``enqueue_copy(queue, SVM(b[c.dst]), SVM(a[c.src]), **c.kwargs)`` (either
    side may be a host array instead)."""

    __slots__ = ()


class SVMFill(namedtuple("SVMFill", "dest pattern_size kwargs")):
    """An SVM fill: ``dest`` a ``slice``, ``pattern_size`` the pattern's
    bytes, ``kwargs`` the ``enqueue_svm_memfill`` keywords, as in
    ``enqueue_svm_memfill(queue, SVM(a[f.dest]), pattern, **f.kwargs)``."""

    __slots__ = ()


def _span(draw: DrawFn, size: int) -> slice:
    start = draw(st.integers(0, size))
    return slice(start, draw(st.integers(start, size)))


def _length(span: slice) -> int:
    return int(span.stop - span.start)


@st.composite
def svm_copy_args(draw: DrawFn, src_size: int, dst_size: int) -> SVMCopy:
    """An ``SVMCopy`` between allocations of ``src_size`` and ``dst_size``
    bytes: slices of one length without ``byte_count``, or any slices and a
    ``byte_count`` both hold."""
    if draw(st.booleans()):
        n = draw(st.integers(0, min(src_size, dst_size)))
        a = draw(st.integers(0, src_size - n))
        b = draw(st.integers(0, dst_size - n))
        return SVMCopy(slice(a, a + n), slice(b, b + n), {})
    src, dst = _span(draw, src_size), _span(draw, dst_size)
    return SVMCopy(src, dst, {"byte_count": draw(st.integers(0, min(_length(src), _length(dst))))})


@st.composite
def svm_fill_args(draw: DrawFn, size: int, pattern_sizes: Iterable[int] = PATTERN_SIZES) -> SVMFill:
    """An ``SVMFill`` of an allocation of ``size`` bytes: the slice starts at
    a multiple of the pattern size; without ``byte_count`` its length is one
    too, with it ``byte_count`` is."""
    pattern_size = draw(st.sampled_from([p for p in pattern_sizes if p <= size] or [1]))
    start = draw(st.integers(0, size // pattern_size)) * pattern_size
    if draw(st.booleans()):
        n = draw(st.integers(0, (size - start) // pattern_size)) * pattern_size
        return SVMFill(slice(start, start + n), pattern_size, {})
    stop = draw(st.integers(start, size))
    n = draw(st.integers(0, (stop - start) // pattern_size)) * pattern_size
    return SVMFill(slice(start, stop), pattern_size, {"byte_count": n})


def svm_map_args(size: int) -> SearchStrategy[tuple[int, int]]:
    """``(offset, nbytes)`` of a map of an allocation of ``size`` bytes (at
    least one byte): ``SVM(ary[offset:offset + nbytes]).map(queue, flags)``,
    or where ``offset`` is 0 ``alloc.map(queue, flags=flags, size=nbytes)``."""
    return map_args(size)


@st.composite
def invalid_svm_copy_args(
    draw: DrawFn, src_size: int, dst_size: int
) -> tuple[SVMCopy, type[Exception], tuple[str, ...]]:
    """``(SVMCopy, error, names)``: an SVM copy with an offset (SVM copies
    take none: they slice), a ``byte_count`` past either side, negative or
    of a wrong type, or no ``byte_count`` between slices of two lengths."""
    src, dst, kwargs = draw(svm_copy_args(src_size, dst_size))
    kwargs = dict(kwargs)
    room = min(_length(src), _length(dst))
    how = draw(st.sampled_from(["offset", "past_end", "negative", "lengths", "type"]))
    if how == "offset":
        name = draw(st.sampled_from(["src_offset", "dst_offset"]))
        kwargs[name] = draw(st.one_of(st.integers(1, 2**20), _negative()))
        return SVMCopy(src, dst, kwargs), LogicError, (name,)
    if how == "past_end":
        kwargs["byte_count"] = room + draw(st.integers(1, 2**20))
        return SVMCopy(src, dst, kwargs), LogicError, ("byte_count",)
    if how == "negative":
        kwargs["byte_count"] = draw(_negative())
        return SVMCopy(src, dst, kwargs), LogicError, ("byte_count",)
    if how == "lengths" and max(src_size, dst_size) > 0:
        n_src = draw(st.integers(0 if dst_size else 1, src_size))
        if n_src <= dst_size and dst_size:  # any other length of dst: skip n_src
            n_dst = draw(st.integers(0, dst_size - 1))
            n_dst += n_dst >= n_src
        else:
            n_dst = draw(st.integers(0, dst_size))
        a = draw(st.integers(0, src_size - n_src))
        b = draw(st.integers(0, dst_size - n_dst))
        return SVMCopy(slice(a, a + n_src), slice(b, b + n_dst), {}), LogicError, ("byte_count",)
    kwargs["byte_count"] = draw(_BAD_TYPES.filter(lambda v: v is not None))
    return SVMCopy(src, dst, kwargs), TypeError, ("byte_count",)


@st.composite
def invalid_svm_fill_args(draw: DrawFn, size: int) -> tuple[SVMFill, type[Exception], tuple[str, ...]]:
    """``(SVMFill, error, names)``: an SVM fill with a pattern size OpenCL
    does not take, a ``byte_count`` past the slice, not a multiple of the
    pattern size, negative or of a wrong type, or a slice that starts off
    the pattern's alignment."""
    dest, pattern_size, kwargs = draw(svm_fill_args(size))
    kwargs = dict(kwargs)
    p = pattern_size
    how = draw(st.sampled_from(["pattern", "past_end", "misaligned_count", "misaligned_dest", "negative", "type"]))
    if how == "pattern":
        return SVMFill(dest, draw(st.sampled_from([3, 5, 6, 12, 256])), kwargs), LogicError, ("pattern",)
    if how == "past_end":
        kwargs["byte_count"] = _length(dest) // p * p + p * draw(st.integers(1, 100))
        return SVMFill(dest, p, kwargs), LogicError, ("byte_count",)
    if how == "misaligned_count" and p > 1 and size > p:
        n = draw(st.integers(0, (size - 1) // p - 1)) * p + draw(st.integers(1, p - 1))  # n < size
        start = draw(st.integers(0, (size - n) // p)) * p
        if draw(st.booleans()):
            return SVMFill(slice(start, start + n), p, {}), LogicError, ("byte_count",)
        return SVMFill(slice(start, size), p, {"byte_count": n}), LogicError, ("byte_count",)
    if how == "misaligned_dest" and p > 1 and size > p:
        shift = draw(st.integers(1, min(p - 1, size - p)))
        start = draw(st.integers(0, (size - shift - p) // p)) * p + shift
        n = draw(st.integers(1, (size - start) // p)) * p
        kwargs = {"byte_count": n} if draw(st.booleans()) else {}
        return SVMFill(slice(start, start + n), p, kwargs), LogicError, ("dest",)
    if how == "negative":
        kwargs["byte_count"] = -p * draw(st.integers(1, 100))
        return SVMFill(dest, p, kwargs), LogicError, ("byte_count",)
    # "type", and the fallback of the cases a small allocation cannot express
    kwargs["byte_count"] = draw(_BAD_TYPES.filter(lambda v: v is not None))
    return SVMFill(dest, p, kwargs), TypeError, ("byte_count",)


@st.composite
def invalid_svm_map_args(draw: DrawFn, size: int) -> Invalid:
    """An ``Invalid`` whose kwargs are ``size`` for
    ``SVMAllocation.map(queue, flags=..., size=...)`` of an allocation of
    ``size`` bytes: past its end, negative or of a wrong type."""
    how = draw(st.sampled_from(["past_end", "negative", "type"]))
    if how == "past_end":
        return Invalid({"size": size + draw(st.integers(1, 2**20))}, LogicError, ("size",))
    if how == "negative":
        return Invalid({"size": draw(_negative())}, LogicError, ("size",))
    return Invalid({"size": draw(_BAD_TYPES.filter(lambda v: v is not None))}, TypeError, ("size",))


# }}}
