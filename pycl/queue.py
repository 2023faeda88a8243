"""Command queues."""

from __future__ import annotations

import sys
import warnings
from typing import TYPE_CHECKING, Any, Optional, Union

from pycl import _info, _wards
from pycl import constants as _constants
from pycl._args import property_list
from pycl._handle import Handle
from pycl._lib import ffi, lib
from pycl.errors import caller_stacklevel, check, logic_error
from pycl.platform import Device, get_platforms

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import TracebackType

    from pycl.context import Context

__all__ = ["CommandQueue", "CommandQueueUsedAfterExit"]


class CommandQueueUsedAfterExit(UserWarning):
    """A queue was used for commands after its ``with`` block: it still works
    (as in PyOpenCL 2026.1.4, which warns the same)."""


def _warn_used_after_exit() -> None:
    warnings.warn(
        "Command queue used after exit of context manager. This is deprecated and will stop working in a "
        "future version of PyOpenCL",
        _used_after_exit_category(),
        stacklevel=caller_stacklevel(),
    )


def _used_after_exit_category() -> type[Warning]:
    """pycl's warning class, or PyOpenCL's where PyOpenCL's Python layer runs
    over pycl (``pycl.pyopencl_cl``): PyOpenCL's compiled module warns with
    ``pyopencl.CommandQueueUsedAfterExit``, which its users catch."""
    layer = sys.modules.get("pyopencl")
    if layer is not None and getattr(getattr(layer, "_cl", None), "CommandQueue", None) is CommandQueue:
        category: type[Warning] = getattr(layer, "CommandQueueUsedAfterExit", CommandQueueUsedAfterExit)
        return category
    return CommandQueueUsedAfterExit


def enqueue_handle(queue: CommandQueue) -> Any:
    """``queue``'s live handle for enqueueing a command, with PyOpenCL's
    warning for a queue used after its ``with`` block."""
    if queue._used_after_exit:
        _warn_used_after_exit()
    return queue._live()


def queue_handle(queue: CommandQueue, routine: str) -> Any:
    """The live handle of ``queue``, which must be a CommandQueue."""
    if type(queue) is not CommandQueue:
        if not isinstance(queue, CommandQueue):
            raise TypeError("%s: queue must be a pycl.CommandQueue, not %s" % (routine, type(queue).__name__))
        return enqueue_handle(queue)
    return queue._live()


def _queue_properties(properties: Optional[Union[int, Sequence[tuple[int, int]]]]) -> tuple[Any, int]:
    """An int (``command_queue_properties`` bits) or ``(key, value)`` pairs of
    ``queue_properties``, as a 0-terminated ``cl_queue_properties`` array."""
    if properties is None:
        return ffi.NULL, 0
    # command_queue_properties bits, or pairs
    pairs = [(_constants.queue_properties.PROPERTIES, properties)] if hasattr(properties, "__index__") else properties
    flat = property_list(pairs, "CommandQueue")
    bits = 0
    for key, value in zip(flat[::2], flat[1::2]):
        if key == _constants.queue_properties.PROPERTIES:
            bits = value
    return ffi.new("cl_queue_properties[]", flat + [0]), bits


def _device_place(device: Device) -> str:
    """``[p:d] 'name'``, p:d as in PYOPENCL_CTX (devices often share a name),
    or the name alone for a device that no platform lists (a sub-device)."""
    try:
        platforms = get_platforms()
        p_index = platforms.index(device.platform)
        d_index = platforms[p_index].get_devices().index(device)
    except (ValueError, RuntimeError):  # not listed; pycl.LogicError, pycl.RuntimeError
        return repr(device.name)
    return "[%d:%d] %r" % (p_index, d_index, device.name)


class CommandQueue(Handle):
    """``CommandQueue(context, device=None, properties=None)``. ``device``
    defaults to the context's first device; ``properties`` is an int of
    ``command_queue_properties`` or a list of ``(queue_properties, value)``."""

    # __dict__: PyOpenCL's Python layer caches info on queues (pycl.pyopencl_cl)
    __slots__ = ("_context", "_device", "_properties", "__dict__")
    _context: Context
    _device: Device
    _properties: int
    # True on the class a queue takes on at the end of its ``with`` block
    # (_exited_class): the hot paths, which take ``type(queue) is
    # CommandQueue`` as their condition, pay nothing for the check.
    _used_after_exit = False
    _ctype = "cl_command_queue"
    _retain = lib.pycl_queue_retain
    _release = lib.pycl_queue_release
    _info_kind = "queue"
    _invalid_code = lib.CL_INVALID_COMMAND_QUEUE

    def __init__(
        self,
        context: Context,
        device: Optional[Device] = None,
        properties: Optional[Union[int, Sequence[tuple[int, int]]]] = None,
    ) -> None:
        if device is None:
            device = context.devices[0]
        elif not isinstance(device, Device):
            raise TypeError("CommandQueue: device must be a pycl.Device, not %s" % type(device).__name__)
        array, bits = _queue_properties(properties)
        raw = ffi.new("cl_command_queue *")
        status = lib.pycl_queue_create(context._live(), device._live(), array, raw)
        if status == lib.CL_INVALID_DEVICE and device not in context.devices:
            # The driver's CL_INVALID_DEVICE does not say which device; with
            # several devices per context this is the mistake to name.
            raise logic_error(
                "CommandQueue",
                "device %s is not one of the context's devices (%s)"
                % (_device_place(device), ", ".join(_device_place(d) for d in context.devices)),
                lib.CL_INVALID_DEVICE,
            )
        check(status, "clCreateCommandQueueWithProperties")
        self._adopt(raw[0])
        self._context = context
        self._device = device
        self._properties = bits

    def _init_from_handle(self) -> None:
        self._context = self.get_info(_constants.command_queue_info.CONTEXT)
        self._device = self.get_info(_constants.command_queue_info.DEVICE)
        self._properties = self.get_info(_constants.command_queue_info.PROPERTIES)

    @property
    def context(self) -> Context:
        if self._handle is None:
            self._live()  # raises: released
        return self._context

    @property
    def device(self) -> Device:
        if self._handle is None:
            self._live()  # raises: released
        return self._device

    @property
    def properties(self) -> int:
        if self._handle is None:
            self._live()  # raises: released
        return self._properties

    def _get_cl_version(self) -> tuple[int, int]:
        """PyOpenCL's helper: the device's ``cl_version``."""
        return self.device.cl_version

    @property
    def is_in_order(self) -> bool:
        """False when the queue was made with OUT_OF_ORDER_EXEC_MODE_ENABLE."""
        return not self.properties & _constants.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE

    def flush(self) -> None:
        """Submit the queued commands to the device without waiting for them."""
        check(lib.pycl_queue_flush(enqueue_handle(self)), "clFlush")

    def finish(self) -> None:
        """Wait for every command of the queue (the GIL is released meanwhile)."""
        check(lib.pycl_queue_finish(self._live()), "clFinish")
        if _wards._pending:
            _wards.prune()

    def _finalize(self) -> None:
        """Mark the queue as used after its ``with`` block (PyOpenCL's name:
        its ``__exit__`` calls ``finish`` then this)."""
        self.__class__ = _exited_class(type(self))

    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc_value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        # PyOpenCL 2026.1.4 finishes the queue and keeps it usable, with a
        # CommandQueueUsedAfterExit warning at each later command; code that
        # finishes or queries it afterwards gets no warning.
        if self._handle is not None:
            self.finish()
            self._finalize()


_exited_classes: dict[type[CommandQueue], type[CommandQueue]] = {}


def _exited_class(cls: type[CommandQueue]) -> type[CommandQueue]:
    """The subclass of ``cls`` a queue takes on when its ``with`` block ends."""
    if cls._used_after_exit:
        return cls
    exited = _exited_classes.get(cls)
    if exited is None:
        exited = _exited_classes[cls] = type(cls.__name__, (cls,), {"__slots__": (), "_used_after_exit": True})
    return exited


def _wrap_queue(raw: Any) -> CommandQueue:
    return CommandQueue.from_int_ptr(int(ffi.cast("intptr_t", raw)))


_info.register_wrapper("queue", _wrap_queue)
