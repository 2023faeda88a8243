"""Samplers: ``Sampler(context, normalized_coords, addressing_mode,
filter_mode)`` and ``Sampler(context, properties)``.

Both forms become one ``sampler_properties`` list for the shim, which calls
``clCreateSamplerWithProperties`` on OpenCL 2.0 and newer and, below 2.0,
``clCreateSampler`` when the properties hold nothing but NORMALIZED_COORDS,
ADDRESSING_MODE and FILTER_MODE (the properties form therefore also works on
OpenCL 1.2, where PyOpenCL requires 2.0); other properties raise
``UnavailableError`` there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from pycl import _info
from pycl import constants as _constants
from pycl._args import property_list, ulong_value
from pycl._handle import Handle, out_cell
from pycl._lib import ffi, lib
from pycl.errors import check, logic_error

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import overload

    from pycl._typing import Size
    from pycl.context import Context

    # An entry of a properties list: a key or a value, or a (key, value) pair
    # (a tuple or list, whose entries are added in turn).
    _SamplerProperty = Union[Size, tuple[Size, ...], list[Size]]

__all__ = ["Sampler"]

_sp = _constants.sampler_properties
_ADDRESSING = frozenset(getattr(_constants.addressing_mode, n) for n in dir(_constants.addressing_mode) if n.isupper())
_FILTERS = frozenset(getattr(_constants.filter_mode, n) for n in dir(_constants.filter_mode) if n.isupper())


def _int(value: object, name: str, routine: str) -> int:
    # bools are accepted: normalized_coords is one.
    return int(value) if isinstance(value, bool) else ulong_value(value, name, routine)


def _check_value(key: int, value: int, routine: str) -> None:
    if key == _sp.ADDRESSING_MODE and value not in _ADDRESSING:
        raise logic_error(
            routine, "addressing_mode = %r is not an addressing_mode value" % (value,), lib.CL_INVALID_VALUE
        )
    if key == _sp.FILTER_MODE and value not in _FILTERS:
        raise logic_error(routine, "filter_mode = %r is not a filter_mode value" % (value,), lib.CL_INVALID_VALUE)
    if key == _sp.NORMALIZED_COORDS and value not in (0, 1):
        raise logic_error(routine, "normalized_coords = %r must be a bool" % (value,), lib.CL_INVALID_VALUE)


_NEED_NORMALIZED = frozenset((_constants.addressing_mode.REPEAT, _constants.addressing_mode.MIRRORED_REPEAT))


def _check_combination(flat: list[int], routine: str) -> None:
    """REPEAT and MIRRORED_REPEAT need normalized coordinates (OpenCL C);
    PoCL refuses the combination, Oclgrind accepts it: pycl refuses it on
    every device. NORMALIZED_COORDS defaults to true."""
    values = dict(zip(flat[::2], flat[1::2]))
    if values.get(_sp.ADDRESSING_MODE) in _NEED_NORMALIZED and not values.get(_sp.NORMALIZED_COORDS, 1):
        raise logic_error(
            routine,
            "addressing_mode %s needs normalized_coords = True"
            % _constants.addressing_mode.to_string(values[_sp.ADDRESSING_MODE]),
        )


def _flat_properties(properties: Iterable[_SamplerProperty], routine: str) -> list[int]:
    """A flat ``[key, value, ...]`` list from a flat sequence or from pairs
    (normalized_coords may be a bool)."""
    flat = property_list(properties, routine, bools=True)
    keys = flat[::2]
    for key, value in zip(keys, flat[1::2]):
        _check_value(key, value, routine)
    if len(set(keys)) != len(keys):
        raise logic_error(routine, "properties %r name a key twice" % (flat,))
    return flat


# (normalized_coords, addressing_mode, filter_mode) found valid -> its
# cl_sampler_properties array.
_known: dict[tuple[Any, ...], Any] = {}
_gc, _release = ffi.gc, lib.pycl_sampler_release
_SAMPLER_ARG_SIZE = ffi.sizeof("cl_sampler")


class Sampler(Handle):
    """``Sampler(context, normalized_coords, addressing_mode, filter_mode)``
    or ``Sampler(context, properties)`` (``sampler_properties`` keys and
    values, flat or as pairs; the trailing 0 is added). Lower-case
    ``sampler_info`` attributes; usable as a kernel argument."""

    __slots__ = ("_context",)
    _ctype = "cl_sampler"
    _retain = lib.pycl_sampler_retain
    _release = lib.pycl_sampler_release
    _info_kind = "sampler"
    _invalid_code = lib.CL_INVALID_SAMPLER

    _context: Context

    # sampler_info attributes (answered by __getattr__); cl_bool values are
    # the ints 1 and 0, as in PyOpenCL.
    reference_count: int
    normalized_coords: int
    addressing_mode: int
    filter_mode: int
    mip_filter_mode: int
    mip_filter_mode_khr: int
    lod_min: float
    lod_max: float
    lod_min_khr: float
    lod_max_khr: float
    properties: list[int]

    if TYPE_CHECKING:

        @overload
        def __init__(
            self,
            context: Context,
            normalized_coords: Union[bool, np.bool_, Size],
            addressing_mode: Size,
            filter_mode: Size,
        ) -> None: ...
        @overload
        def __init__(
            self, context: Context, properties: Iterable[Union[Size, tuple[Size, ...], list[Size]]]
        ) -> None: ...

    def __init__(self, context: Context, *args: Any, **kwargs: Any) -> None:
        routine = "Sampler"
        names = ("normalized_coords", "addressing_mode", "filter_mode")
        if len(args) == 3 and not kwargs:
            # The common form: a combination seen valid before has its
            # properties array ready (the general path below checks and
            # explains errors). Plain bools and ints only: 1 == True and
            # 4401.0 == 4401 would hit the entries of other types.
            if type(args[0]) is bool and type(args[1]) is int and type(args[2]) is int:
                try:
                    c_properties = _known[args]
                except (KeyError, TypeError):
                    pass
                else:
                    self._create_from(context, c_properties, args)
                    return
        if "properties" in kwargs:
            if args or len(kwargs) > 1:
                raise TypeError(
                    "%s: pass properties alone, or normalized_coords, addressing_mode, filter_mode" % routine
                )
            flat = _flat_properties(kwargs["properties"], routine)
        elif len(args) == 1 and not kwargs:
            flat = _flat_properties(args[0], routine)
        else:
            values = dict(zip(names, args))
            key: Any  # a keyword's name here, a sampler_properties key below
            for key, value in kwargs.items():
                if key not in names:
                    raise TypeError("%s: unexpected keyword argument %r" % (routine, key))
                if key in values:
                    raise TypeError("%s: got multiple values for %r" % (routine, key))
                values[key] = value
            if len(args) > 3 or len(values) != 3:
                raise TypeError(
                    "%s takes (context, normalized_coords, addressing_mode, filter_mode) or (context, properties)"
                    % routine
                )
            normalized = values["normalized_coords"]
            if not isinstance(normalized, (bool, int, np.integer, np.bool_)):
                raise TypeError("%s: normalized_coords must be a bool, not %s" % (routine, type(normalized).__name__))
            flat = [
                _sp.NORMALIZED_COORDS,
                1 if normalized else 0,
                _sp.ADDRESSING_MODE,
                _int(values["addressing_mode"], "addressing_mode", routine),
                _sp.FILTER_MODE,
                _int(values["filter_mode"], "filter_mode", routine),
            ]
            for key, value in zip(flat[::2], flat[1::2]):
                _check_value(key, value, routine)
        _check_combination(flat, routine)
        c_properties = ffi.new("cl_sampler_properties[]", flat + [0])
        if (
            len(args) == 3
            and not kwargs
            and type(args[0]) is bool
            and type(args[1]) is int
            and type(args[2]) is int
            and len(_known) < 256
        ):
            _known[args] = c_properties  # read only: the same array serves every such sampler
        self._create_from(context, c_properties, flat)

    def _create_from(self, context: Context, c_properties: Any, described: object) -> None:
        handle = context._live()
        cell, cell_int = out_cell("cl_sampler")
        status = lib.pycl_sampler_create(handle, c_properties, cell)
        if status:
            check(status, "clCreateSamplerWithProperties", "properties %r" % (described,))
        self._ptr = cell_int[0]
        self._handle = _gc(cell[0], _release)
        self._context = context

    def _init_from_handle(self) -> None:
        self._context = self.get_info(_constants.sampler_info.CONTEXT)

    @property
    def context(self) -> Context:
        self._live()
        return self._context

    def _kernel_arg(self, routine: str) -> tuple[int, int, Any, Optional[int]]:
        """(mark, size, value, context address) for a kernel's argument cell
        (pycl._kernel_args): the handle, which the cell holds itself."""
        handle = self._handle
        if handle is None:
            raise self._released_error(routine)
        return lib.PYCL_ARG_HANDLE, _SAMPLER_ARG_SIZE, handle, self._context._ptr


_info.add_kind(
    "sampler",
    lib.pycl_sampler_get_info,
    _constants.sampler_info,
    "clGetSamplerInfo",
    {
        "uint": "REFERENCE_COUNT ADDRESSING_MODE FILTER_MODE MIP_FILTER_MODE MIP_FILTER_MODE_KHR",
        "bool": "NORMALIZED_COORDS",
        "context": "CONTEXT",
        "float": "LOD_MIN LOD_MAX LOD_MIN_KHR LOD_MAX_KHR",
        "ulongs": "PROPERTIES",
    },
)
