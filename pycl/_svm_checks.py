"""Whether a device, context or queue can do what an SVM call asks: the
device's SVM capabilities (cached per device), the context's support for the
requested ``svm_mem_flags``, the in-order queue a queued free needs, and the
maps a driver crashes on. Every refusal is an ``UnavailableError`` or a
``LogicError`` that says what is needed and what the device reports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from pycl import constants as _constants
from pycl._lib import lib
from pycl.context import Context
from pycl.errors import UnavailableError, logic_error
from pycl.queue import CommandQueue, queue_handle

if TYPE_CHECKING:
    from pycl.platform import Device

__all__ = ["device_svm", "check_context_svm", "svm_queue", "in_order_queue", "check_map_survives"]

_smf = _constants.svm_mem_flags
_caps = _constants.device_svm_capabilities
_OUT_OF_ORDER = _constants.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE

# device handle -> (SVM capabilities, or an UnavailableError message)
_svm_caps_by_device: dict[int, tuple[int, Optional[str]]] = {}


def device_svm(device: Device, routine: str, need: tuple[int, int] = (2, 0)) -> int:
    """The device's SVM capability bits; UnavailableError if it has none."""
    entry = _svm_caps_by_device.get(device._ptr)
    if entry is None:
        have = device.cl_version
        if have < (2, 0):
            reported = device.version
            capped = " (capped by PYCL_FORCE_CL_VERSION)" if not reported.startswith("OpenCL %d.%d" % have) else ""
            entry = (
                0,
                "%%s needs OpenCL 2.0 (shared virtual memory); device %r reports OpenCL %d.%d%s"
                % (device.name, have[0], have[1], capped),
            )
        else:
            bits = device.svm_capabilities
            if bits & (_caps.COARSE_GRAIN_BUFFER | _caps.FINE_GRAIN_BUFFER | _caps.FINE_GRAIN_SYSTEM):
                entry = (bits, None)
            else:
                entry = (0, "%%s needs shared virtual memory; device %r reports no SVM support" % device.name)
        _svm_caps_by_device[device._ptr] = entry
    bits, message = entry
    if message is not None:
        raise UnavailableError(routine, lib.PYCL_UNAVAILABLE, message % routine)
    if need > (2, 0):
        device.require(need, routine)
    return bits


def check_context_svm(context: Context, flags: int, routine: str) -> None:
    """Every device of ``context`` must support the SVM that ``flags`` ask for."""
    for device in context.devices:
        bits = device_svm(device, routine)
        if flags & _smf.SVM_FINE_GRAIN_BUFFER and not bits & _caps.FINE_GRAIN_BUFFER:
            raise UnavailableError(
                routine,
                lib.PYCL_UNAVAILABLE,
                "device %r reports no fine-grain SVM support (svm_capabilities %s)"
                % (device.name, _caps.to_string(bits, "0x%x")),
            )
        if flags & _smf.SVM_ATOMICS and not bits & _caps.ATOMICS:
            raise UnavailableError(
                routine,
                lib.PYCL_UNAVAILABLE,
                "device %r reports no SVM atomics support (svm_capabilities %s)"
                % (device.name, _caps.to_string(bits, "0x%x")),
            )
        if not flags & _smf.SVM_FINE_GRAIN_BUFFER and not bits & _caps.COARSE_GRAIN_BUFFER:
            raise UnavailableError(
                routine,
                lib.PYCL_UNAVAILABLE,
                "device %r reports no coarse-grain SVM support (svm_capabilities %s)"
                % (device.name, _caps.to_string(bits, "0x%x")),
            )


def svm_queue(queue: CommandQueue, routine: str, need: tuple[int, int] = (2, 0)) -> Any:
    """The live handle of ``queue``, whose device must support SVM."""
    handle = queue_handle(queue, routine)
    device_svm(queue._device, routine, need)
    return handle


def in_order_queue(queue: CommandQueue, context: Optional[Context], routine: str, in_order: bool = True) -> Any:
    """The live handle of ``queue``, which must be in-order (unless
    ``in_order`` is false: a single enqueued free needs no order) and of
    ``context`` (if given)."""
    if not isinstance(queue, CommandQueue):
        raise TypeError("%s: queue must be a pycl.CommandQueue or None, not %s" % (routine, type(queue).__name__))
    handle = queue._live()
    if in_order and queue._properties & _OUT_OF_ORDER:
        raise logic_error(
            routine,
            "queue %r is out-of-order; the queued free of an SVM allocation needs an in-order queue" % queue,
        )
    if context is not None and queue._context._ptr != context._ptr:
        raise logic_error(routine, "queue %r belongs to another context" % queue, lib.CL_INVALID_CONTEXT)
    return handle


def check_map_survives(queue: CommandQueue, routine: str) -> None:
    """NVIDIA's OpenCL (CUDA 13.0, driver 580, two H200s) crashes the process
    in clEnqueueSVMMap on a context of several GPUs, on either device's queue
    and through PyOpenCL alike (docs/quirks.md); copies and fills of SVM work
    there. pycl refuses the map instead."""
    context = queue._context
    crashes = context._memo.get("svm_map_crashes")
    if crashes is None:
        devices = context.devices
        crashes = context._memo["svm_map_crashes"] = len(devices) > 1 and any(
            "NVIDIA" in d.platform.name for d in devices
        )
    if crashes:
        raise UnavailableError(
            routine,
            lib.PYCL_UNAVAILABLE,
            "NVIDIA's OpenCL crashes in clEnqueueSVMMap on a context of several devices (docs/quirks.md): "
            "map from a context of one device, or move the bytes with enqueue_copy",
        )
