"""Whether a device's compiler builds kernels: the pip PoCL 3.0 cannot
target some CPUs (QUIRKS.md). ``python -m pycl`` reports it and pycl.testing
skips kernel tests on it; here, so that the report needs no pytest."""

from __future__ import annotations

import functools
from typing import Optional

from pycl.context import Context
from pycl.errors import Error
from pycl.platform import Device
from pycl.program import Kernel, Program

__all__ = ["kernel_compile_problem"]

_KERNEL_PROBE = "__kernel void pycl_probe(__global int *x) { x[get_global_id(0)] += 1; }"


@functools.lru_cache(maxsize=None)
def _compile_problem_by_ptr(device_ptr: int) -> Optional[str]:
    device = Device.from_int_ptr(device_ptr)
    context = Context([device])
    try:
        Kernel(Program(context, _KERNEL_PROBE).build(), "pycl_probe")
    except Error as error:
        return str(error)
    finally:
        context.release()
    return None


def kernel_compile_problem(device: Device) -> Optional[str]:
    """None if ``device`` builds kernels, else the compiler's message (the pip
    PoCL 3.0 cannot target some CPUs: QUIRKS.md). Checked once per device."""
    return _compile_problem_by_ptr(device.int_ptr)
