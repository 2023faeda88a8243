"""``pyopencl._cl`` over pycl: the compiled module that PyOpenCL's Python
files (``pyopencl/__init__.py``, ``array.py``, ``invoker.py`` and the rest)
run on, once ``python -m pycl.pyopencl_layer install`` has put them in place.

Most names are pycl's own objects, which already follow PyOpenCL's API:
PyOpenCL's ``_monkeypatch.py`` then adds its reprs, info properties and
helpers to them, as it does to its compiled classes (so in a process that
imports ``pyopencl`` over pycl, pycl's objects print as PyOpenCL's do). Three
kinds of object differ from pycl's and are classes of this module:

- ``Kernel``: PyOpenCL's calls go through the invoker PyOpenCL generates per
  signature (``pyopencl.invoker``), which sets arguments with
  ``_set_arg_multi``, ``_set_arg_buf_multi`` and ``_set_arg_buf_pack_multi``
  and enqueues through ``enqueue_nd_range_kernel``;
- ``_Program``: PyOpenCL's ``Program`` wraps it and builds it with ``_build``;
- the private ``_enqueue_*`` functions, with PyOpenCL's signatures, over
  pycl's transfer routes.

What pycl lacks (OpenGL interop) is absent, as on a PyOpenCL build without
it: ``have_gl()`` is False.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from types import FunctionType
from typing import Any, Optional, cast

from pycl import constants as _constants
from pycl import image as _image
from pycl import program as _program
from pycl import svm as _svm
from pycl._buffer_copy import fast_host_copy
from pycl._info import InfoAttribute, NameVersion  # noqa: F401
from pycl._lib import lib
from pycl._testpool import _TestMemoryPool  # noqa: F401
from pycl.allocator import AllocatorBase, DeferredAllocator, ImmediateAllocator, SVMAllocator  # noqa: F401
from pycl.constants import *  # noqa: F401,F403
from pycl.context import Context  # noqa: F401
from pycl.errors import Error, ErrorRecord, LogicError, MemoryError, RuntimeError, UnavailableError  # noqa: F401
from pycl.event import Event, NannyEvent, UserEvent, enqueue_barrier, enqueue_marker, wait_for_events  # noqa: F401
from pycl.image import ImageFormat, enqueue_fill_image, enqueue_map_image, get_supported_image_formats  # noqa: F401
from pycl.mapping import MemoryMap, enqueue_map_buffer  # noqa: F401
from pycl.memory import Buffer, MemoryObject  # noqa: F401
from pycl.pipe import Pipe  # noqa: F401
from pycl.platform import Device, Platform, get_platforms, unload_platform_compiler  # noqa: F401
from pycl.pool import MemoryPool, PooledBuffer, PooledSVM, SVMPool  # noqa: F401
from pycl.program import LocalMemory, enqueue_nd_range_kernel  # noqa: F401
from pycl.queue import CommandQueue  # noqa: F401
from pycl.sampler import Sampler  # noqa: F401
from pycl.svm import SVM, SVMAllocation, SVMMap, SVMPointer  # noqa: F401
from pycl.tools import bitlog2  # noqa: F401
from pycl.transfer import (  # noqa: F401
    enqueue_copy,
    enqueue_copy_buffer_p2p_amd,  # noqa: F401
    enqueue_fill_buffer,
    enqueue_migrate_mem_objects,
    route,
    transfer_kind,
)
from pycl.version import get_cl_header_version  # noqa: F401

MemoryObjectHolder = MemoryObject
_ErrorRecord = ErrorRecord


def _sizeof_size_t() -> int:
    return struct.calcsize("N")


class program_kind:  # noqa: N801 (PyOpenCL's name)
    """How a ``_Program`` was created."""

    UNKNOWN = 0
    SOURCE = 1
    BINARY = 2
    IL = 3


def have_gl() -> bool:
    """pycl has no OpenGL interop."""
    return False


class DeviceTopologyAmd:
    """AMD's PCIe topology of a device (``device_info.TOPOLOGY_AMD``)."""

    __slots__ = ("type", "bus", "device", "function")

    def __init__(self, bus: int = 0, device: int = 0, function: int = 0) -> None:
        self.type = _constants.device_topology_type_amd.PCIE
        self.bus, self.device, self.function = bus, device, function


# {{{ programs and kernels


class _Program(_program.Program):
    """The program PyOpenCL's ``Program`` wraps: built by ``_build``, its
    kernels are this module's ``Kernel``."""

    __slots__ = ("__dict__",)

    def kind(self) -> int:
        source = self.get_info(_constants.program_info.SOURCE)
        return program_kind.SOURCE if source else program_kind.BINARY

    def _build(self, options: bytes = b"", devices: Optional[Sequence[Device]] = None) -> None:
        _program.Program.build(self, _text(options), devices)

    def set_specialization_constant(self, spec_id: int, buffer: Any) -> None:
        # OpenCL 2.2: only programs made from SPIR-V take these, and pycl
        # makes none (see _create_program_with_il)
        raise UnavailableError(
            "Program.set_specialization_constant",
            lib.PYCL_UNAVAILABLE,
            "specialization constants are for SPIR-V programs, "
            "which need clCreateProgramWithIL, which pycl does not wrap",
        )

    def compile(  # type: ignore[override]
        self, options: bytes = b"", devices: Optional[Sequence[Device]] = None, headers: Sequence[Any] = ()
    ) -> None:
        _program.Program.compile(self, _text(options), devices, [(name, prg) for name, prg in headers])

    @staticmethod
    def link(
        context: Context, programs: Sequence[Any], options: bytes = b"", devices: Optional[Sequence[Device]] = None
    ) -> _Program:
        return _Program._own(_program.link_program(context, programs, _text(options), devices))

    @staticmethod
    def create_with_built_in_kernels(context: Context, devices: Sequence[Device], kernel_names: str) -> _Program:
        return _Program._own(_program.create_program_with_built_in_kernels(context, devices, kernel_names))

    @staticmethod
    def _own(prg: _program.Program) -> _Program:
        """``prg`` as a _Program (one more reference, then ``prg``'s dropped)."""
        mine = _Program.from_int_ptr(prg.int_ptr)
        prg.release()
        return mine

    def all_kernels(self) -> list[Kernel]:  # type: ignore[override]
        return [Kernel._from_raw(_retained(k), self) for k in _program.Program.all_kernels(self)]


def _text(options: Any) -> str:
    return options.decode() if isinstance(options, bytes) else options


def _retained(kernel: _program.Kernel) -> Any:
    """A kernel's handle with one more reference, for a second owner."""
    raw = kernel._live()
    lib.pycl_kernel_retain(raw)
    return raw


def _create_program_with_il(context: Context, il: bytes) -> _Program:
    raise UnavailableError(
        "_create_program_with_il", lib.PYCL_UNAVAILABLE, "programs from SPIR-V (IL) are not supported by pycl"
    )


class Kernel(_program.Kernel):
    """A kernel called through PyOpenCL's generated invoker."""

    __slots__ = ("__dict__",)

    def __init__(self, program: Any, name: str) -> None:
        wrapper = program
        if not isinstance(program, _program.Program):
            program = program._get_prg()  # PyOpenCL's Program wraps a _Program
        _program.Kernel.__init__(self, program, name)
        # capture_call reads the source, as PyOpenCL's kernels keep it
        self._source = getattr(wrapper, "_source", None)
        self._setup_invoker()

    @classmethod
    def _from_raw(cls, raw: Any, program: _program.Program) -> Kernel:
        self = cast(Kernel, super()._from_raw(raw, program))
        self._source = None
        self._setup_invoker()
        return self

    def _init_from_handle(self) -> None:
        program = _program.Kernel.get_info(self, _constants.kernel_info.PROGRAM)
        self._program = _Program._own(program)
        self._source = None
        self._setup_invoker()

    def get_info(self, param: int) -> Any:
        # The program as a _Program, which PyOpenCL's get_info wraps in its Program.
        if param == _constants.kernel_info.PROGRAM:
            return self._program
        return _program.Kernel.get_info(self, param)

    def _setup_invoker(self) -> None:
        from pyopencl.invoker import generate_enqueue_and_set_args

        count = self.num_args
        self._set_enqueue_and_set_args(
            *generate_enqueue_and_set_args(
                self.function_name,
                count,
                count,
                None,
                work_around_arg_count_bug=None,
                warn_about_arg_count_bug=None,
                devs=self.context.devices,
            )
        )

    def _set_enqueue_and_set_args(self, enqueue: Any, set_args: Any) -> None:
        self._enqueue = enqueue
        self._set_args = set_args
        # The invoker becomes the kernel's __call__ itself, through a subclass
        # that only adds it. The __call__ below re-packs the arguments for
        # the invoker, which cost each launch 0.31 us on CPython 3.11 and
        # 0.13 us on PyPy 3.11 (measured 2026-11-27); PyOpenCL makes that
        # step in C++. PyOpenCL reads its invokers back from its disk cache
        # at each kernel's creation, as new functions of the same code, so
        # the subclasses are shared by code: one per kernel signature.
        base = getattr(type(self), "_invoking_base", type(self))
        invoking = None
        # Shared by code only where the code says it all: a plain function
        # without a closure (PyOpenCL's invokers are module-level functions).
        # Anything else keeps the forwarding __call__.
        if type(enqueue) is FunctionType and enqueue.__closure__ is None:
            key = (base, enqueue.__code__)
            invoking = _invoking_classes.get(key)
            if invoking is None and len(_invoking_classes) < _INVOKING_CLASSES_MAX:
                namespace = {
                    "__slots__": (),
                    "__call__": enqueue,
                    "__module__": base.__module__,
                    "__qualname__": base.__qualname__,
                    "_invoking_base": base,
                }
                invoking = _invoking_classes.setdefault(key, type(base.__name__, (base,), namespace))
        self.__class__ = base if invoking is None else invoking

    def __call__(self, *args: Any, **kwargs: Any) -> Event:
        return self._enqueue(self, *args, **kwargs)

    def set_args(self, *args: Any) -> None:
        self._set_args(self, *args)

    # The invoker's calls: they fill the argument cells (under the kernel's
    # lock where a cell changes), and the launch (enqueue_nd_range_kernel)
    # sets what changed. acquire/release: see pycl.Kernel.__call__.
    def _set_arg_multi(self, indices_and_args: Sequence[Any]) -> None:
        (self._arg_cells or self._cells()).put_pairs(self, indices_and_args, "Kernel.set_arg")

    _set_arg_buf_multi = _set_arg_multi

    def _set_arg_buf_pack_multi(self, indices_formats_args: Sequence[Any]) -> None:
        cells = self._arg_cells or self._cells()
        lock = cells.lock
        lock.acquire()
        try:
            cells.put_packed(self, indices_formats_args, "Kernel.set_arg")
        finally:
            lock.release()


# (kernel class, the invoker's code) -> the subclass whose __call__ is the
# invoker: one per kernel signature in use. Past the limit a kernel keeps the
# __call__ that forwards to its invoker.
_invoking_classes: dict[tuple[type, Any], type] = {}
_INVOKING_CLASSES_MAX = 1024

# }}}


# {{{ images


class ImageDescriptor:
    """PyOpenCL's image descriptor: what ``Image._custom_init`` is given
    (OpenCL 1.2's ``cl_image_desc``, with the shape as given)."""

    __slots__ = ("image_type", "shape", "array_size", "pitches", "num_mip_levels", "num_samples", "buffer")

    def __init__(self) -> None:
        self.image_type = _constants.mem_object_type.IMAGE2D
        self.shape: tuple[int, ...] = (0, 0, 0)
        self.array_size = 0
        self.pitches: tuple[int, ...] = (0, 0)
        self.num_mip_levels = 0
        self.num_samples = 0
        self.buffer: Optional[Buffer] = None


_ARRAY_TYPES = (_constants.mem_object_type.IMAGE1D_ARRAY, _constants.mem_object_type.IMAGE2D_ARRAY)


class Image(_image.Image):
    """An image made as PyOpenCL's ``Image.__init__`` makes it: through
    ``_custom_init`` with a descriptor (or a shape, before OpenCL 1.2)."""

    __slots__ = ("__dict__",)

    def _custom_init(self, context: Context, flags: int, format: ImageFormat, desc: Any, *rest: Any) -> None:
        if isinstance(desc, ImageDescriptor):
            (hostbuf,) = rest
            shape = tuple(desc.shape)
            pitches = tuple(p for p in desc.pitches[: len(shape) - 1])
            _image.Image.__init__(
                self, context, flags, format, shape, pitches if any(pitches) else None, hostbuf,
                desc.image_type in _ARRAY_TYPES, desc.buffer,
            )  # fmt: skip
        else:
            pitches, hostbuf = rest
            _image.Image.__init__(self, context, flags, format, desc, pitches, hostbuf)


# }}}


# {{{ PyOpenCL's private enqueue functions


def _enqueue_marker(queue: CommandQueue) -> Event:
    return enqueue_marker(queue)


def _enqueue_marker_with_wait_list(queue: CommandQueue, wait_for: Any = None) -> Event:
    return enqueue_marker(queue, wait_for)


def _enqueue_barrier(queue: CommandQueue) -> None:
    enqueue_barrier(queue)


def _enqueue_barrier_with_wait_list(queue: CommandQueue, wait_for: Any = None) -> Event:
    return enqueue_barrier(queue, wait_for)


def _enqueue_wait_for_events(queue: CommandQueue, wait_for: Any = None) -> None:
    enqueue_barrier(queue, wait_for)


# A buffer and a host object take enqueue_copy's one-pass shortcut (which
# hands anything but a plain transfer back), else their route at once
# (enqueue_copy's look-up of it costs about a tenth of a small transfer);
# anything else is left to enqueue_copy, which names what is wrong.
_read_route, _write_route = route("host", "buffer"), route("buffer", "host")


def _enqueue_read_buffer(
    queue: CommandQueue, mem: Any, hostbuf: Any, src_offset: int = 0, wait_for: Any = None, is_blocking: bool = True
) -> Event:
    if type(queue) is CommandQueue and getattr(mem, "_transfer_kind", None) == "buffer":
        event = fast_host_copy(queue, mem, hostbuf, True, src_offset, wait_for, is_blocking)
        if event is not None:
            return event
    if transfer_kind(mem) == "buffer" and transfer_kind(hostbuf) == "host":
        return _read_route(queue, hostbuf, mem, src_offset=src_offset, wait_for=wait_for, is_blocking=is_blocking)
    return enqueue_copy(queue, hostbuf, mem, src_offset=src_offset, wait_for=wait_for, is_blocking=is_blocking)


def _enqueue_write_buffer(
    queue: CommandQueue, mem: Any, hostbuf: Any, dst_offset: int = 0, wait_for: Any = None, is_blocking: bool = True
) -> Event:
    if type(queue) is CommandQueue and getattr(mem, "_transfer_kind", None) == "buffer":
        event = fast_host_copy(queue, mem, hostbuf, False, dst_offset, wait_for, is_blocking)
        if event is not None:
            return event
    if transfer_kind(mem) == "buffer" and transfer_kind(hostbuf) == "host":
        return _write_route(queue, mem, hostbuf, dst_offset=dst_offset, wait_for=wait_for, is_blocking=is_blocking)
    return enqueue_copy(queue, mem, hostbuf, dst_offset=dst_offset, wait_for=wait_for, is_blocking=is_blocking)


def _enqueue_copy_buffer(
    queue: CommandQueue, src: Any, dst: Any, byte_count: int = -1, src_offset: int = 0, dst_offset: int = 0,
    wait_for: Any = None,
) -> Event:  # fmt: skip
    count = None if byte_count == -1 else byte_count
    return enqueue_copy(
        queue, dst, src, byte_count=count, src_offset=src_offset, dst_offset=dst_offset, wait_for=wait_for
    )


def _enqueue_read_buffer_rect(
    queue: CommandQueue, mem: Any, hostbuf: Any, buffer_origin: Any, host_origin: Any, region: Any,
    buffer_pitches: Any = None, host_pitches: Any = None, wait_for: Any = None, is_blocking: bool = True,
) -> Event:  # fmt: skip
    rect = (buffer_origin, host_origin, region, buffer_pitches, host_pitches, wait_for, is_blocking)
    return _host_rect(queue, hostbuf, mem, *rect)


def _enqueue_write_buffer_rect(
    queue: CommandQueue, mem: Any, hostbuf: Any, buffer_origin: Any, host_origin: Any, region: Any,
    buffer_pitches: Any = None, host_pitches: Any = None, wait_for: Any = None, is_blocking: bool = True,
) -> Event:  # fmt: skip
    rect = (buffer_origin, host_origin, region, buffer_pitches, host_pitches, wait_for, is_blocking)
    return _host_rect(queue, mem, hostbuf, *rect)


def _host_rect(queue: CommandQueue, dest: Any, src: Any, *rect: Any) -> Event:
    """A rectangle between a buffer and the host, either way."""
    buffer_origin, host_origin, region, buffer_pitches, host_pitches, wait_for, is_blocking = rect
    return enqueue_copy(
        queue, dest, src, buffer_origin=buffer_origin, host_origin=host_origin, region=region,
        buffer_pitches=buffer_pitches, host_pitches=host_pitches, wait_for=wait_for, is_blocking=is_blocking,
    )  # fmt: skip


def _enqueue_copy_buffer_rect(
    queue: CommandQueue, src: Any, dst: Any, src_origin: Any, dst_origin: Any, region: Any,
    src_pitches: Any = None, dst_pitches: Any = None, wait_for: Any = None,
) -> Event:  # fmt: skip
    return enqueue_copy(
        queue, dst, src, src_origin=src_origin, dst_origin=dst_origin, region=region,
        src_pitches=src_pitches, dst_pitches=dst_pitches, wait_for=wait_for,
    )  # fmt: skip


def _enqueue_fill_buffer(
    queue: CommandQueue, mem: Any, pattern: Any, offset: int, size: int, wait_for: Any = None
) -> Event:
    return enqueue_fill_buffer(queue, mem, pattern, offset, size, wait_for)


def _enqueue_read_image(
    queue: CommandQueue, mem: Image, origin: Any, region: Any, hostbuf: Any, row_pitch: int = 0,
    slice_pitch: int = 0, wait_for: Any = None, is_blocking: bool = True,
) -> Event:  # fmt: skip
    return _host_image(queue, hostbuf, mem, origin, region, row_pitch, slice_pitch, wait_for, is_blocking)


def _enqueue_write_image(
    queue: CommandQueue, mem: Image, origin: Any, region: Any, hostbuf: Any, row_pitch: int = 0,
    slice_pitch: int = 0, wait_for: Any = None, is_blocking: bool = True,
) -> Event:  # fmt: skip
    return _host_image(queue, mem, hostbuf, origin, region, row_pitch, slice_pitch, wait_for, is_blocking)


def _host_image(
    queue: CommandQueue, dest: Any, src: Any, origin: Any, region: Any, row_pitch: int, slice_pitch: int,
    wait_for: Any, is_blocking: bool,
) -> Event:  # fmt: skip
    """An image region to or from the host, with PyOpenCL's row and slice
    pitches (0: tight) as pycl's ``pitches``."""
    pitches = None
    if row_pitch or slice_pitch:
        pitches = (row_pitch, slice_pitch) if len(region) == 3 else (row_pitch,)
    return enqueue_copy(
        queue, dest, src, origin=origin, region=region, pitches=pitches, wait_for=wait_for, is_blocking=is_blocking
    )


def _enqueue_copy_image(
    queue: CommandQueue, src: Any, dest: Any, src_origin: Any, dest_origin: Any, region: Any, wait_for: Any = None
) -> Event:
    return enqueue_copy(
        queue, dest, src, src_origin=src_origin, dest_origin=dest_origin, region=region, wait_for=wait_for
    )


def _enqueue_copy_image_to_buffer(
    queue: CommandQueue, src: Any, dest: Any, origin: Any, region: Any, offset: int, wait_for: Any = None
) -> Event:
    return enqueue_copy(queue, dest, src, origin=origin, region=region, offset=offset, wait_for=wait_for)


def _enqueue_copy_buffer_to_image(
    queue: CommandQueue, src: Any, dest: Any, offset: int, origin: Any, region: Any, wait_for: Any = None
) -> Event:
    return enqueue_copy(queue, dest, src, offset=offset, origin=origin, region=region, wait_for=wait_for)


def _enqueue_svm_memcpy(
    queue: CommandQueue, is_blocking: int, dst: Any, src: Any, wait_for: Any = None, byte_count: Any = None
) -> Event:
    return enqueue_copy(queue, dst, src, is_blocking=bool(is_blocking), wait_for=wait_for, byte_count=byte_count)


def _enqueue_svm_memfill(
    queue: CommandQueue, dst: Any, pattern: Any, byte_count: Any = None, wait_for: Any = None
) -> Event:
    return _svm.enqueue_svm_memfill(queue, dst, pattern, byte_count=byte_count, wait_for=wait_for)


# The maps made by _enqueue_svm_map, by pointer, until _enqueue_svm_unmap.
_svm_maps: dict[int, list[SVMMap]] = {}


def _enqueue_svm_map(
    queue: CommandQueue, is_blocking: int, flags: int, svm: Any, wait_for: Any = None, size: Any = None
) -> Event:
    routine = "_enqueue_svm_map"
    ptr, total, alloc = svm._pointer(routine)
    if size is None:
        if total is None:
            raise LogicError(routine, lib.CL_INVALID_VALUE, "the size of %r is unknown: pass size" % svm)
        size = total
    mapping, event = svm._enqueue_map(queue, flags, bool(is_blocking), wait_for, ptr, size, alloc, routine)
    _svm_maps.setdefault(ptr, []).append(SVMMap._make(svm, None, queue, event, mapping))
    return event


def _enqueue_svm_unmap(queue: CommandQueue, svm: Any, wait_for: Any = None) -> Event:
    ptr = svm._pointer("_enqueue_svm_unmap")[0]
    maps = _svm_maps.get(ptr)
    if not maps:
        raise LogicError("_enqueue_svm_unmap", lib.CL_INVALID_VALUE, "%r is not mapped" % svm)
    mapped = maps.pop()
    if not maps:
        del _svm_maps[ptr]
    return mapped.release(queue, wait_for)


def _enqueue_svm_migrate_mem(
    queue: CommandQueue, svms: Sequence[Any], flags: Any = None, wait_for: Any = None
) -> Event:
    return _svm.enqueue_svm_migratemem(queue, svms, flags, wait_for)


# }}}


# {{{ PyOpenCL's _monkeypatch over pycl's classes

# pycl's own attributes of its classes, before PyOpenCL adds its own.
_PYCL_ATTRIBUTES = {
    value: dict(vars(value))
    for value in list(globals().values())
    if isinstance(value, type) and value.__module__.startswith("pycl.")
}
_INFO_PROPERTIES = ("make_getinfo.", "make_cacheable_getinfo.")


def _finish() -> None:
    """Run PyOpenCL's ``_monkeypatch`` now (``pyopencl/_cl.py`` calls this
    after taking this module's names; PyOpenCL's own import of it later finds
    it done), then give back pycl's own attributes where PyOpenCL put an info
    property in their place: ``buffer.size`` or ``context.devices`` stay
    pycl's cached answers instead of a driver query per use (PyOpenCL's info
    properties stay for the names pycl answers with an info attribute,
    ``pycl._info.InfoAttribute``)."""
    import pyopencl._monkeypatch  # noqa: F401

    for cls, attributes in _PYCL_ATTRIBUTES.items():
        for name, value in attributes.items():
            now = vars(cls).get(name)
            made_by = getattr(getattr(now, "fget", None), "__qualname__", "")
            if (
                now is not value
                and isinstance(now, property)
                and made_by.startswith(_INFO_PROPERTIES)
                and not isinstance(value, InfoAttribute)
            ):
                setattr(cls, name, value)


# }}}


# What ``pyopencl/_cl.py`` takes with ``from pycl.pyopencl_cl import *``:
# every public name here, and PyOpenCL's private ones. (pyopencl._cl stays a
# module of that name, so that what PyOpenCL pickles into its caches names
# pyopencl._cl, which a compiled PyOpenCL sharing the cache also has.)
_PRIVATE = ("_Program", "_ErrorRecord", "_sizeof_size_t", "_TestMemoryPool", "_create_program_with_il")
__all__ = [
    name
    for name, value in list(globals().items())
    if (name in _PRIVATE or name.startswith("_enqueue_") or not name.startswith("_"))
    and not isinstance(value, type(struct))
    and name not in ("annotations", "Any", "Optional", "Sequence", "cast", "lib", "_finish")
]
