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

Importing this module imports hypothesis (the ``test`` extra).
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any, Optional

from hypothesis import strategies as st

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
]

PATTERN_SIZES = (1, 2, 4, 8, 16, 32, 64, 128)

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
