"""What a kernel launch takes besides the kernel: ``LocalMemory`` arguments
and the checked global, local and offset work sizes (shared by
``enqueue_nd_range_kernel`` and ``Kernel.capture_call``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from pycl._lib import ffi, lib
from pycl.errors import logic_error
from pycl._args import size_value, sizes

if TYPE_CHECKING:
    from pycl._typing import Extent

__all__ = ["LocalMemory", "work_sizes"]


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
