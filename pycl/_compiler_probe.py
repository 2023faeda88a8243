"""Whether a device's compiler builds kernels: the pip PoCL 3.0 cannot
target some CPUs (docs/quirks.md). ``python -m pycl`` reports it and pycl.testing
skips kernel tests on it; here, so that the report needs no pytest."""

from __future__ import annotations

import functools
import warnings
from typing import Optional

from pycl.context import Context
from pycl.errors import Error
from pycl.platform import Device
from pycl.program import CompilerWarning, Kernel, Program

__all__ = ["kernel_compile_problem"]

_KERNEL_PROBE = "__kernel void pycl_probe(__global int *x) { x[get_global_id(0)] += 1; }"


@functools.cache
def _compile_problem_by_ptr(device_ptr: int) -> Optional[str]:
    device = Device.from_int_ptr(device_ptr)
    context = Context([device])
    try:
        with warnings.catch_warnings():
            # NVIDIA (CUDA 13.0) reports compiler output for this kernel too:
            # a probe's output is no news to the caller.
            warnings.simplefilter("ignore", CompilerWarning)
            Kernel(Program(context, _KERNEL_PROBE).build(), "pycl_probe")
    except Error as error:
        return str(error)
    finally:
        context.release()
    return None


def kernel_compile_problem(device: Device) -> Optional[str]:
    """None if ``device`` builds kernels, else the compiler's message (the pip
    PoCL 3.0 cannot target some CPUs: docs/quirks.md). Checked once per device."""
    return _compile_problem_by_ptr(device.int_ptr)
