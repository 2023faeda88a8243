"""``pyopencl.characterize``: what a device is like, for code generators.

Answers come from device info (vendor extensions such as
``cl_nv_device_attribute_query`` and ``cl_amd_device_attribute_query`` where
present). Where no query says, the functions that need an answer fall back to
a common value and warn with ``CLCharacterizationWarning``.
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Optional, TypeVar

from pycl import constants as _constants

if TYPE_CHECKING:
    from typing import Literal

    from pycl._typing import Extent, Size
    from pycl.context import Context
    from pycl.platform import Device, Platform

_T = TypeVar("_T")

__all__ = [
    "CLCharacterizationWarning",
    "get_fast_inaccurate_build_options",
    "get_simd_group_size",
    "has_amd_double_support",
    "has_double_support",
    "get_pocl_version",
    "has_struct_arg_count_bug",
    "local_memory_access_granularity",
    "local_memory_bank_count",
    "nv_compute_capability",
    "simultaneous_work_items_on_local_access",
    "usable_local_mem_size",
    "why_not_local_access_conflict_free",
    "has_coarse_grain_buffer_svm",
    "has_fine_grain_buffer_svm",
    "has_fine_grain_system_svm",
    "has_fine_grain_buffer_svm_atomics",
    "has_fine_grain_system_svm_atomics",
]


class CLCharacterizationWarning(UserWarning):
    """A characterization fell back to a guess for this device."""


def _guess(dev: Device, what: str, value: _T) -> _T:
    warnings.warn(
        "no information on %s for device %r: assuming %r" % (what, dev.name, value),
        CLCharacterizationWarning,
        stacklevel=3,
    )
    return value


def _is_nvidia(dev: Device) -> bool:
    return "cl_nv_device_attribute_query" in dev.extensions.split()


def _is_amd_gpu(dev: Device) -> bool:
    return "cl_amd_device_attribute_query" in dev.extensions.split() and bool(dev.type & _constants.device_type.GPU)


def get_fast_inaccurate_build_options(dev: Device) -> list[str]:
    """Build options that trade floating-point accuracy for speed on ``dev``."""
    options = ["-cl-mad-enable", "-cl-fast-relaxed-math", "-cl-no-signed-zeros"]
    if dev.cl_version < (1, 1):
        options.append("-cl-strict-aliasing")  # deprecated from OpenCL 1.1
    return options


def nv_compute_capability(dev: Device) -> Optional[tuple[int, int]]:
    """``(major, minor)`` for an NVIDIA device, else None."""
    if not _is_nvidia(dev):
        return None
    return (dev.compute_capability_major_nv, dev.compute_capability_minor_nv)


def get_simd_group_size(dev: Device, type_size: int) -> Optional[int]:
    """Work items executed in lock-step (an NVIDIA warp, an AMD wavefront);
    on CPUs, how many items of ``type_size`` bytes fit the native vector."""
    if _is_nvidia(dev):
        return dev.warp_size_nv
    if _is_amd_gpu(dev):
        return dev.wavefront_width_amd
    if dev.type & _constants.device_type.CPU:
        return max(1, dev.native_vector_width_char // type_size)
    return None


def has_double_support(dev: Device) -> bool:
    """True if ``dev`` has ``cl_khr_fp64``."""
    return "cl_khr_fp64" in dev.extensions.split()


def get_pocl_version(platform: Platform, fallback_value: Optional[tuple[int, int]] = None) -> Optional[tuple[int, int]]:
    """PoCL's ``(major, minor)`` from the platform version (``OpenCL 3.0 PoCL
    6.0 ...``); None for other platforms. An unexpected version string warns
    ``CLCharacterizationWarning`` and gives ``fallback_value``."""
    if platform.name != "Portable Computing Language":
        return None
    match = re.match(r"^OpenCL [0-9.]+ [Pp]o[Cc][Ll] ([0-9]+)\.([0-9]+)", platform.version)
    if match is None:
        warnings.warn(
            "PoCL version %r is not of the form 'OpenCL X.Y PoCL M.N': assuming %r"
            % (platform.version, fallback_value),
            CLCharacterizationWarning,
            stacklevel=2,
        )
        return fallback_value
    return int(match.group(1)), int(match.group(2))


def has_amd_double_support(dev: Device) -> bool:
    """True if ``dev`` has AMD's partial double extension ``cl_amd_fp64``."""
    return "cl_amd_fp64" in dev.extensions.split()


def has_struct_arg_count_bug(dev: Device, ctx: Optional[Context] = None) -> Literal["apple", False]:
    """``"apple"`` where the driver is known to miscount struct kernel
    arguments (Apple's CPU driver), else False."""
    if dev.platform.name.startswith("Apple") and dev.type & _constants.device_type.CPU:
        return "apple"
    return False


def local_memory_access_granularity(dev: Device) -> int:
    """Bytes per local-memory bank."""
    if _is_nvidia(dev) or _is_amd_gpu(dev):
        return 4
    return _guess(dev, "local memory bank width", 4)


def local_memory_bank_count(dev: Device) -> int:
    """The number of local-memory banks."""
    if _is_nvidia(dev):
        return 16 if dev.compute_capability_major_nv < 2 else 32
    if _is_amd_gpu(dev):
        try:
            return dev.local_mem_banks_amd
        except Exception:
            return 32
    return _guess(dev, "local memory bank count", 32)


def simultaneous_work_items_on_local_access(dev: Device) -> int:
    """Work items whose local-memory accesses are served together (and may
    conflict): a half warp before NVIDIA compute capability 2, else a warp."""
    if _is_nvidia(dev):
        return 16 if dev.compute_capability_major_nv < 2 else 32
    if _is_amd_gpu(dev):
        return 32
    return _guess(dev, "simultaneous local memory accesses", 32)


def usable_local_mem_size(dev: Device, nargs: Optional[int] = None) -> int:
    """Local memory a kernel can use. NVIDIA devices before compute capability
    2 keep kernel arguments (and 256 bytes of their own) in local memory."""
    size = dev.local_mem_size
    if _is_nvidia(dev) and dev.compute_capability_major_nv < 2:
        size -= 256 + 4 * (nargs or 0)
    return size


def why_not_local_access_conflict_free(
    dev: Device, itemsize: Size, array_shape: Extent, array_stored_shape: Optional[Extent] = None
) -> tuple[int, Optional[str]]:
    """``(multiplicity, explanation)`` for consecutive work items stepping
    along each axis of a C-order local array of ``array_stored_shape``
    (default ``array_shape``): how many of them hit one bank at once. 1 and
    None mean no conflict."""
    stored = tuple(array_stored_shape or array_shape)
    if len(stored) != len(array_shape):
        raise ValueError("array_shape and array_stored_shape differ in rank")
    granularity = local_memory_access_granularity(dev)
    banks = local_memory_bank_count(dev)
    items = simultaneous_work_items_on_local_access(dev)
    strides = [itemsize] * len(stored)
    for axis in range(len(stored) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * stored[axis + 1]
    worst, explanation = 1, None
    for axis, stride in enumerate(strides):
        steps = min(items, array_shape[axis])
        hits: dict[int, set[int]] = {}
        for item in range(steps):
            word = item * stride // granularity
            hits.setdefault(word % banks, set()).add(word)
        multiplicity = max(len(words) for words in hits.values())
        if multiplicity > worst:
            worst = multiplicity
            explanation = "%d-way bank conflict when work items step along axis %d (stride %d bytes, %d banks)" % (
                multiplicity,
                axis,
                stride,
                banks,
            )
    return worst, explanation


def _svm_capability(dev: Device, bit: int) -> bool:
    return dev.cl_version >= (2, 0) and bool(dev.svm_capabilities & bit)


def has_coarse_grain_buffer_svm(dev: Device) -> bool:
    """True if ``dev`` (OpenCL 2.0 or newer, as pycl uses it) has coarse-grain buffer SVM."""
    return _svm_capability(dev, _constants.device_svm_capabilities.COARSE_GRAIN_BUFFER)


def has_fine_grain_buffer_svm(dev: Device) -> bool:
    """True if ``dev`` has fine-grain buffer SVM (``fsvm_empty``)."""
    return _svm_capability(dev, _constants.device_svm_capabilities.FINE_GRAIN_BUFFER)


def has_fine_grain_system_svm(dev: Device) -> bool:
    """True if ``dev`` has fine-grain system SVM: any host memory is SVM."""
    return _svm_capability(dev, _constants.device_svm_capabilities.FINE_GRAIN_SYSTEM)


def has_fine_grain_buffer_svm_atomics(dev: Device) -> bool:
    """True if ``dev`` has fine-grain buffer SVM with atomics."""
    bits = _constants.device_svm_capabilities
    return _svm_capability(dev, bits.FINE_GRAIN_BUFFER) and _svm_capability(dev, bits.ATOMICS)


def has_fine_grain_system_svm_atomics(dev: Device) -> bool:
    """True if ``dev`` has fine-grain system SVM with atomics."""
    bits = _constants.device_svm_capabilities
    return _svm_capability(dev, bits.FINE_GRAIN_SYSTEM) and _svm_capability(dev, bits.ATOMICS)
