"""``pyopencl.tools``'s memory part: allocators, memory pools, first-argument
memoization and the pytest device parametrisation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pycl._memoize import clear_first_arg_caches, first_arg_dependent_memoize
from pycl.allocator import AllocatorBase, DeferredAllocator, ImmediateAllocator, SVMAllocator
from pycl.context import get_test_platforms_and_devices
from pycl.pool import MemoryPool, PooledBuffer, PooledSVM, SVMPool
from pycl.program import is_spirv
from pycl.version import get_cl_header_version

if TYPE_CHECKING:
    from pycl._typing import Size
    from pycl.testing import pytest_generate_tests_for_pyopencl as pytest_generate_tests_for_pyopencl

# The older name, still used (PyOpenCL 2026.1.4 keeps it as the same function).
context_dependent_memoize = first_arg_dependent_memoize


def bitlog2(n: Size) -> int:
    """The position of ``n``'s highest set bit (0 for 0 and 1): a pool's bin
    exponent."""
    if n < 0:
        raise TypeError("bitlog2: n must be a non-negative int, got %r" % (n,))
    return max(int(n).bit_length() - 1, 0)


__all__ = [
    "AllocatorBase",
    "DeferredAllocator",
    "ImmediateAllocator",
    "SVMAllocator",
    "MemoryPool",
    "PooledBuffer",
    "SVMPool",
    "PooledSVM",
    "first_arg_dependent_memoize",
    "context_dependent_memoize",
    "clear_first_arg_caches",
    "bitlog2",
    "get_cl_header_version",
    "is_spirv",
    "get_test_platforms_and_devices",
    "pytest_generate_tests_for_pyopencl",  # noqa: F822 (module __getattr__)
]


def __getattr__(name: str) -> Any:
    # pycl.testing imports pytest, a test-only dependency: load it on demand.
    if name == "pytest_generate_tests_for_pyopencl":
        from pycl.testing import pytest_generate_tests_for_pyopencl

        return pytest_generate_tests_for_pyopencl
    raise AttributeError("module 'pycl.tools' has no attribute %r" % name)
