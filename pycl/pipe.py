"""Pipes: ``Pipe(context, flags, packet_size, max_packets, properties=())``
(OpenCL 2.0; optional in 3.0).

Where no device of the context has OpenCL 2.0, or every OpenCL 3.0 device
reports ``pipe_support`` false, creation raises ``UnavailableError`` before
any C call (a 3.0 driver would answer with a bare ``CL_INVALID_OPERATION``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from pycl import _info
from pycl import budget as _budget
from pycl import constants as _constants
from pycl._args import mem_flags_value, uint_value
from pycl._lib import ffi, lib
from pycl.errors import UnavailableError, check, logic_error
from pycl.memory import ALLOCATION_FAILURES, MemoryObject, register_mem_class

if TYPE_CHECKING:
    from collections.abc import Iterable

    from pycl._typing import Size
    from pycl.context import Context
    from pycl.platform import Device

__all__ = ["Pipe"]

_mf = _constants.mem_flags
_PIPE = _constants.mem_object_type.PIPE
_PIPE_FLAGS = _mf.READ_WRITE | _mf.HOST_NO_ACCESS


def _pipe_devices(context: Context, routine: str) -> list[Device]:
    """The context's devices that can hold pipes, or UnavailableError."""
    reasons: list[str]
    usable: list[Device]
    reasons, usable = [], []
    for device in context.devices:
        version = device.cl_version
        if version < (2, 0):
            reported = device.version
            reasons.append("%r reports %s (pycl uses OpenCL %d.%d)" % (device.name, reported, version[0], version[1]))
        elif version >= (3, 0) and not device.pipe_support:
            reasons.append("%r reports no pipe support" % device.name)
        else:
            usable.append(device)
    if not usable:
        raise UnavailableError(
            routine, lib.PYCL_UNAVAILABLE, "pipes need OpenCL 2.0 and pipe support: %s" % "; ".join(reasons)
        )
    return usable


class Pipe(MemoryObject):
    """``Pipe(context, flags, packet_size, max_packets, properties=())``:
    ``flags`` 0, READ_WRITE and/or HOST_NO_ACCESS; ``properties`` must be
    empty (OpenCL defines none). ``get_pipe_info`` and the lower-case
    ``pipe_info`` attributes (``packet_size``, ``max_packets``)."""

    __slots__ = ()

    # pipe_info attributes (pycl._info.InfoAttribute, added below).
    packet_size: int
    max_packets: int
    properties: list[int]

    def __init__(
        self,
        context: Context,
        flags: Size,
        packet_size: Size,
        max_packets: Size,
        properties: Optional[Iterable[Size]] = (),
    ) -> None:
        routine = "Pipe"
        handle = context._live()
        flags = mem_flags_value(flags, routine)
        if flags & ~_PIPE_FLAGS:
            raise logic_error(
                routine,
                "flags %s: pipes take only READ_WRITE and HOST_NO_ACCESS" % _mf.to_string(flags, "0x%x"),
            )
        # cl_uint arguments, and a pipe of no packets or of empty ones is
        # CL_INVALID_PIPE_SIZE.
        packet_size = uint_value(packet_size, "packet_size", routine)
        max_packets = uint_value(max_packets, "max_packets", routine)
        for name, value in (("packet_size", packet_size), ("max_packets", max_packets)):
            if value == 0:
                raise logic_error(
                    routine, "%s = 0: a pipe needs at least one byte and one packet" % name, lib.CL_INVALID_PIPE_SIZE
                )
        if properties is None:
            properties = ()
        properties = list(properties)
        if properties and properties != [0]:
            raise logic_error(
                routine, "properties = %r must be empty (OpenCL defines no pipe properties)" % (properties,)
            )
        devices = _pipe_devices(context, routine)
        limit = max(d.pipe_max_packet_size for d in devices)
        if packet_size > limit:
            raise logic_error(
                routine,
                "packet_size = %d exceeds the devices' pipe_max_packet_size %d" % (packet_size, limit),
                lib.CL_INVALID_PIPE_SIZE,
            )
        charged = packet_size * max_packets if _budget.enabled else 0
        if charged:
            _budget.charge(context, charged)
        raw = ffi.new("cl_mem *")
        status = lib.pycl_pipe_create(handle, flags, packet_size, max_packets, ffi.NULL, raw)
        if status in ALLOCATION_FAILURES:
            _budget.collect()  # collected objects give their memory back
            status = lib.pycl_pipe_create(handle, flags, packet_size, max_packets, ffi.NULL, raw)
        if status:
            check(status, "clCreatePipe", "packet_size %d, max_packets %d" % (packet_size, max_packets))
        self._adopt(raw[0])
        if charged:
            self._charged = charged
        if not flags & _mf.READ_WRITE:
            flags |= _mf.READ_WRITE
        self._set_cache(_info.query(self, "mem", _constants.mem_info.SIZE), flags, _PIPE, context)

    def _init_from_handle(self) -> None:
        MemoryObject._init_from_handle(self)
        if self._type != _PIPE:
            raise logic_error("Pipe.from_int_ptr", "the memory object is not a pipe (type 0x%x)" % self._type)

    def get_pipe_info(self, param: int) -> Any:
        """A ``pipe_info`` value."""
        return _info.query(self, "pipe", param)


register_mem_class(_PIPE, Pipe, "pipe")
_info.add_attributes(Pipe, "pipe", "get_pipe_info")
_info.add_kind(
    "pipe",
    lib.pycl_pipe_get_info,
    _constants.pipe_info,
    "clGetPipeInfo",
    {"uint": "PACKET_SIZE MAX_PACKETS", "intptrs": "PROPERTIES"},
)
