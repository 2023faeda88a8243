"""Platforms and devices. Root devices are not reference-counted (OpenCL
does not count them); the sub-devices of ``Device.create_sub_devices`` are,
and each is released with its object."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Optional

from pycl import _info
from pycl import constants as _constants
from pycl._args import SIZE_LIMIT, bounded_value
from pycl._handle import Handle
from pycl._lib import ffi, lib
from pycl._loader import platform_handles
from pycl.errors import UnavailableError, check

__all__ = ["Platform", "Device", "get_platforms", "unload_platform_compiler"]


class Platform(Handle):
    """An OpenCL platform (one per vendor implementation)."""

    __slots__ = ()
    _ctype = "cl_platform_id"
    _info_kind = "platform"
    _invalid_code = lib.CL_INVALID_PLATFORM

    # The common info attributes, for type checkers (Handle.__getattr__
    # answers these and every other platform_info name at run time).
    name: str
    vendor: str
    version: str
    profile: str
    extensions: str

    def unload_compiler(self) -> None:
        """Let the platform free its compiler's resources (OpenCL 1.2; a
        hint: later builds load it again)."""
        check(lib.pycl_platform_unload_compiler(self._live()), "clUnloadPlatformCompiler")

    def get_devices(self, device_type: int = _constants.device_type.ALL) -> list[Device]:
        """The platform's devices of ``device_type`` (an empty list if none)."""
        handle = self._live()
        count = ffi.new("cl_uint *")
        status = lib.pycl_platform_get_devices(handle, device_type, 0, ffi.NULL, count)
        if status == lib.CL_DEVICE_NOT_FOUND:
            return []
        check(status, "clGetDeviceIDs")
        if count[0] == 0:
            return []
        ids = ffi.new("cl_device_id[]", count[0])
        check(lib.pycl_platform_get_devices(handle, device_type, count[0], ids, ffi.NULL), "clGetDeviceIDs")
        return [Device._wrap(raw) for raw in ids]

    @property
    def cl_version(self) -> tuple[int, int]:
        """The OpenCL version pycl uses for this platform, as ``(major, minor)``
        (after ``PYCL_FORCE_CL_VERSION``)."""
        version = ffi.new("cl_uint *")
        check(lib.pycl_platform_version(self._live(), version), "Platform.cl_version")
        return (version[0] // 100, version[0] % 100)

    def _get_cl_version(self) -> tuple[int, int]:
        """PyOpenCL's helper (code calls it to choose code paths): ``cl_version``."""
        return self.cl_version

    def __repr__(self) -> str:
        if self._handle is None:
            return super().__repr__()
        return "<pycl.Platform %r at 0x%x>" % (self.name, self._ptr)


class Device(Handle):
    """An OpenCL device. ``cl_version`` and feature checks are cached."""

    # __dict__: PyOpenCL's Python layer caches info on devices (pycl.pyopencl_cl)
    __slots__ = ("_version", "__dict__")
    _version: Optional[tuple[int, int]]
    _ctype = "cl_device_id"
    _info_kind = "device"
    _invalid_code = lib.CL_INVALID_DEVICE

    # The common info attributes, for type checkers (Handle.__getattr__
    # answers these and every other device_info name at run time; cl_bool
    # values are the ints 1 and 0, as in PyOpenCL).
    name: str
    vendor: str
    version: str
    driver_version: str
    opencl_c_version: str
    profile: str
    extensions: str
    platform: Platform
    type: int
    vendor_id: int
    max_compute_units: int
    max_work_group_size: int
    max_work_item_sizes: list[int]
    global_mem_size: int
    max_mem_alloc_size: int
    local_mem_size: int
    mem_base_addr_align: int
    address_bits: int
    image_support: int
    svm_capabilities: int
    queue_properties: int

    def _adopt(self, raw: Any) -> None:
        Handle._adopt(self, raw)
        self._version = None

    @property
    def cl_version(self) -> tuple[int, int]:
        """The OpenCL version pycl uses for this device, as ``(major, minor)``
        (after ``PYCL_FORCE_CL_VERSION``)."""
        if self._version is None:
            version = ffi.new("cl_uint *")
            check(lib.pycl_device_version(self._live(), version), "Device.cl_version")
            self._version = (version[0] // 100, version[0] % 100)
        return self._version

    def _get_cl_version(self) -> tuple[int, int]:
        """PyOpenCL's helper (code calls it to choose code paths): ``cl_version``."""
        return self.cl_version

    @property
    def hashable_model_and_version_identifier(self) -> tuple[str, str, int, str, str]:
        """What identifies the device's model and driver across processes
        (PyOpenCL's tuple: ``("v1", vendor, vendor_id, name, version)``)."""
        return ("v1", self.vendor, self.vendor_id, self.name, self.version)

    @property
    def persistent_unique_id(self) -> tuple[str, str, int, str, str]:
        """Deprecated (as in PyOpenCL): ``hashable_model_and_version_identifier``."""
        warnings.warn(
            "Device.persistent_unique_id is deprecated. Use Device.hashable_model_and_version_identifier instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.hashable_model_and_version_identifier

    def require(self, version: tuple[int, int], feature: str) -> None:
        """Raise ``UnavailableError`` unless the device has OpenCL ``version``."""
        have = self.cl_version
        if have >= version:
            return
        reported = tuple(int(x) for x in self.version.split()[1].split(".")[:2])
        capped = " (capped by PYCL_FORCE_CL_VERSION)" if reported > have else ""
        raise UnavailableError(
            feature,
            lib.PYCL_UNAVAILABLE,
            "%s needs OpenCL %d.%d; device %r reports OpenCL %d.%d%s"
            % (feature, version[0], version[1], self.name, have[0], have[1], capped),
        )

    def create_sub_devices(self, properties: Sequence[int]) -> list[Device]:
        """Partition the device (OpenCL 1.2): ``properties`` as
        ``clCreateSubDevices`` takes them, without the final 0, e.g.
        ``[device_partition_property.EQUALLY, 2]``. Each sub-device is
        released when its object is dropped (or at ``release()``)."""
        routine = "Device.create_sub_devices"
        if isinstance(properties, (str, bytes)) or not hasattr(properties, "__iter__"):
            raise TypeError("%s: properties must be a sequence of ints, not %s" % (routine, type(properties).__name__))
        values = [bounded_value(v, "properties[%d]" % i, routine, SIZE_LIMIT) for i, v in enumerate(properties)]
        array = ffi.new("cl_device_partition_property[]", values + [0])
        handle = self._live()
        count = ffi.new("cl_uint *")
        check(lib.pycl_device_create_sub_devices(handle, array, 0, ffi.NULL, count), "clCreateSubDevices")
        if not count[0]:  # no second call with a buffer the driver did not ask for
            return []
        made = ffi.new("cl_device_id[]", count[0])
        check(lib.pycl_device_create_sub_devices(handle, array, count[0], made, count), "clCreateSubDevices")
        return [_SubDevice._wrap(made[i]) for i in range(count[0])]

    def host_timer(self) -> int:
        """The host clock in nanoseconds, as the device's timer reads it
        (OpenCL 2.1's ``clGetHostTimer``)."""
        self._require_timers("Device.host_timer")
        host = ffi.new("cl_ulong *")
        check(lib.pycl_device_host_timer(self._live(), host), "clGetHostTimer")
        return int(host[0])

    def device_and_host_timer(self) -> tuple[int, int]:
        """``(device timestamp, host timestamp)`` in nanoseconds, read
        together (OpenCL 2.1's ``clGetDeviceAndHostTimer``)."""
        self._require_timers("Device.device_and_host_timer")
        stamps = ffi.new("cl_ulong[2]")
        check(lib.pycl_device_and_host_timer(self._live(), stamps, stamps + 1), "clGetDeviceAndHostTimer")
        return int(stamps[0]), int(stamps[1])

    def _require_timers(self, feature: str) -> None:
        # OpenCL 2.1: a platform host_timer_resolution of 0 says its devices
        # do not synchronize their timers with the host's (the calls then
        # fail with CL_INVALID_OPERATION: PoCL 3.0 and 3.1 on the CPU).
        self.require((2, 1), feature)
        platform = self.platform
        if not platform.get_info(_constants.platform_info.HOST_TIMER_RESOLUTION):
            raise UnavailableError(
                feature,
                lib.PYCL_UNAVAILABLE,
                "%s needs a platform whose device timers follow the host's; platform %r reports a "
                "host_timer_resolution of 0" % (feature, platform.name),
            )

    def __repr__(self) -> str:
        if self._handle is None:
            return super().__repr__()
        return "<pycl.Device %r on %r at 0x%x>" % (self.name, self.platform.name, self._ptr)


class _SubDevice(Device):
    """A device that ``create_sub_devices`` made: this object owns a
    reference, released with it (root devices have none to release)."""

    __slots__ = ()
    _retain = lib.pycl_device_retain
    _release = lib.pycl_device_release


def get_platforms() -> list[Platform]:
    """Every platform found (see ``python -m pycl`` for where pycl looked)."""
    return [Platform._wrap(raw) for raw in platform_handles()]


_info.register_wrapper("platform", Platform._wrap)
_info.register_wrapper("device", Device._wrap)


def unload_platform_compiler(platform: Platform) -> None:
    """``platform.unload_compiler()``, under PyOpenCL's name."""
    platform.unload_compiler()
