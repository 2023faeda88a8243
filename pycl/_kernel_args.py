"""What a kernel launch takes besides the kernel: ``LocalMemory`` arguments
and the checked global, local and offset work sizes (shared by
``enqueue_nd_range_kernel`` and ``Kernel.capture_call``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from pycl._lib import ffi, lib
from pycl.errors import logic_error

if TYPE_CHECKING:
    from pycl._typing import Extent

__all__ = ["LocalMemory", "work_sizes"]


class LocalMemory:
    """A ``__local`` kernel argument of ``size`` bytes."""

    __slots__ = ("size",)
    size: int

    def __init__(self, size: int) -> None:
        if not isinstance(size, int) or size <= 0:
            raise logic_error("LocalMemory", "size must be a positive int, got %r" % (size,))
        self.size = size

    @property
    def nbytes(self) -> int:
        return self.size

    def _set_kernel_arg(self, kernel: Any, index: int) -> int:
        return lib.pycl_kernel_set_arg(kernel, index, self.size, ffi.NULL)


def work_sizes(value: Union[int, Extent], name: str, dims: Optional[int] = None) -> tuple[int, ...]:
    if isinstance(value, int):
        value = (value,)
    value = tuple(value)
    if not 1 <= len(value) <= 3 or not all(isinstance(v, (int, np.integer)) and v >= 0 for v in value):
        raise logic_error("enqueue_nd_range_kernel", "%s must be 1 to 3 non-negative ints, got %r" % (name, value))
    if dims is not None and len(value) != dims:
        raise logic_error(
            "enqueue_nd_range_kernel", "%s has %d dimensions but global_work_size has %d" % (name, len(value), dims)
        )
    return tuple(int(v) for v in value)
