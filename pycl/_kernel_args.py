"""What a kernel launch takes besides the kernel: ``LocalMemory`` arguments
and the checked global, local and offset work sizes (shared by
``enqueue_nd_range_kernel`` and ``Kernel.capture_call``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from pycl._lib import ffi, lib
from pycl import constants as _constants
from pycl.errors import UnavailableError, logic_error
from pycl._args import size_value, sizes

if TYPE_CHECKING:
    from pycl._typing import Extent
    from pycl.platform import Device

__all__ = ["LocalMemory", "work_sizes", "check_group_count"]


class LocalMemory:
    """A ``__local`` kernel argument of ``size`` bytes."""

    __slots__ = ("size",)
    size: int

    def __init__(self, size: int) -> None:
        size = size_value(size, "size", "LocalMemory")
        if size == 0:
            raise logic_error("LocalMemory", "size = 0: local memory arguments need at least one byte")
        self.size = size

    @property
    def nbytes(self) -> int:
        return self.size

    def _set_kernel_arg(self, kernel: Any, index: int) -> int:
        return lib.pycl_kernel_set_arg(kernel, index, self.size, ffi.NULL)


def work_sizes(
    value: Union[int, Extent], name: str, dims: Optional[int] = None, global_name: str = "global_work_size"
) -> tuple[int, ...]:
    """A work size or offset: an int or 1 to 3 of them (``dims`` of them,
    the dimensions of the global size ``global_name``, where given)."""
    routine = "enqueue_nd_range_kernel"
    value = sizes(value, name, routine)
    if not 1 <= len(value) <= 3:
        raise logic_error(routine, "%s = %r must have 1 to 3 entries" % (name, value))
    if dims is not None and len(value) != dims:
        raise logic_error(routine, "%s has %d dimensions but %s has %d" % (name, len(value), global_name, dims))
    return value


# PoCL's CPU devices count a launch's work-groups in 32 bits: 2**32 or more
# of them abort the process (PoCL 3.1: assertion `max_wgs > 0` in
# pthread_scheduler.c; 3.0: SIGILL or SIGFPE; 5.0: SIGFPE), measured
# 2026-11-26; 2**31 run.
_POCL_MAX_GROUPS = 1 << 32
_group_limits: dict[int, Optional[int]] = {}  # device handle -> the limit, or None


def check_group_count(
    device: Device, global_size: tuple[int, ...], local_size: Optional[tuple[int, ...]], names: tuple[str, str]
) -> None:
    """Refuse a launch with more work-groups than ``device`` survives.
    Without a local size the driver chooses the groups, so every work-item
    counts as one (the worst case)."""
    limit = _group_limits.get(device._ptr, 0)
    if limit == 0:
        pocl_cpu = "PoCL" in device.platform.version and device.type & _constants.device_type.CPU
        limit = _group_limits[device._ptr] = _POCL_MAX_GROUPS if pocl_cpu else None
    if limit is None:
        return
    groups = 1
    for i, g in enumerate(global_size):
        groups *= g if local_size is None else -(-g // local_size[i]) if local_size[i] else g
    if groups >= limit:
        raise UnavailableError(
            "enqueue_nd_range_kernel",
            lib.PYCL_UNAVAILABLE,
            "%s = %r with %s = %r makes %s work-groups; %s (%s) aborts the process at 2**32 or more: %s"
            % (
                names[0],
                global_size,
                names[1],
                local_size,
                "up to %d" % groups if local_size is None else "%d" % groups,
                device.platform.version.split("  ")[0],
                device.name,
                "pass a larger %s" % names[1] if local_size is not None else "pass a %s" % names[1],
            ),
        )
