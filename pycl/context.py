"""Contexts and ``create_some_context``."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Optional

from pycl import _info
from pycl import constants as _constants
from pycl._args import SIZE_LIMIT, property_list
from pycl._handle import Handle
from pycl._lib import ffi, lib
from pycl.errors import LogicError, RuntimeError, UnavailableError, check, logic_error
from pycl.platform import Device, Platform, get_platforms

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import TypeVar

    from pycl.budget import DeviceAccount

    # Platforms or devices, by name.
    _Named = TypeVar("_Named", Platform, Device)

__all__ = ["Context", "create_some_context", "choose_devices", "get_test_platforms_and_devices"]


def _properties_array(properties: Optional[Iterable[tuple[int, Any]]]) -> Any:
    """``[(context_properties.PLATFORM, platform), ...]`` as a 0-terminated array."""
    pairs = [(key, value.int_ptr if isinstance(value, Handle) else value) for key, value in properties or ()]
    # cl_context_properties is an intptr_t: keys and handles below 2**63.
    flat = property_list(pairs, "Context", SIZE_LIMIT)
    return ffi.new("cl_context_properties[]", flat + [0]) if flat else ffi.NULL


class Context(Handle):
    """``Context(devices=None, properties=None, dev_type=None)``: a context on
    ``devices``, or on the devices of ``dev_type`` of the platform named in
    ``properties`` (by default the first platform that has such devices)."""

    # __dict__: PyOpenCL's Python layer memoizes on contexts (pycl.pyopencl_cl)
    __slots__ = (
        "_devices",
        "_stager",
        "_between_stager",
        "_own_queues",
        "_account",
        "_sub_aligns",
        "_svm_flags",
        "_memo",
        "__dict__",
    )
    _devices: Optional[list[Device]]
    _stager: Any
    _between_stager: Any
    _own_queues: dict[int, Any]
    _account: Optional[DeviceAccount]
    _sub_aligns: Optional[tuple[int, ...]]
    _svm_flags: set[int]
    _memo: dict[Any, Any]
    _ctype = "cl_context"
    _retain = lib.pycl_context_retain
    _release = lib.pycl_context_release
    _info_kind = "context"
    _invalid_code = lib.CL_INVALID_CONTEXT

    def __init__(
        self,
        devices: Optional[Iterable[Device]] = None,
        properties: Optional[Sequence[tuple[int, Any]]] = None,
        dev_type: Optional[int] = None,
    ) -> None:
        if devices is not None and dev_type is not None:
            raise logic_error("Context", "pass devices or dev_type, not both")
        raw = ffi.new("cl_context *")
        if devices is not None:
            devices = list(devices)
            if not devices or not all(isinstance(d, Device) for d in devices):
                raise logic_error("Context", "devices must be a non-empty list of pycl.Device")
            ids = ffi.new("cl_device_id[]", [d._live() for d in devices])
            status = lib.pycl_context_create(_properties_array(properties), len(devices), ids, raw)
            check(status, "clCreateContext")
            self._adopt(raw[0])
            # The devices as given: PoCL 3.0 and 3.1 answer CL_CONTEXT_DEVICES
            # of a context of sub-devices with other devices (no parent, every
            # compute unit), which PyOpenCL passes on.
            self._devices = devices
            return
        else:
            if dev_type is None:
                dev_type = _constants.device_type.DEFAULT
            platform = dict(properties or ()).get(_constants.context_properties.PLATFORM)
            if platform is None:
                platform = _first_platform_with(dev_type)
                properties = [(_constants.context_properties.PLATFORM, platform)] + list(properties or ())
            if not isinstance(platform, Platform):
                platform = Platform._wrap(ffi.cast("cl_platform_id", platform))
            status = lib.pycl_context_create_from_type(platform._live(), _properties_array(properties), dev_type, raw)
            check(status, "clCreateContextFromType")
        self._adopt(raw[0])

    def _adopt(self, raw: Any) -> None:
        Handle._adopt(self, raw)
        self._devices = None
        self._stager = None  # pinned slots for staged copies (pycl.staging)
        self._between_stager = None  # pinned slots for copies to other devices and contexts (pycl.staging)
        self._own_queues = {}  # device handle -> pycl's own queue on it (pycl.staging)
        self._account = None  # its device's collection budget (pycl.budget), found at first use
        self._sub_aligns = None  # its devices' sub-buffer alignments in bytes (Buffer), found at first use
        self._svm_flags = set()  # the svm_mem_flags found usable on its devices (SVMAllocation)
        self._memo = {}  # what checks found out about its devices (images), by key

    def _get_cl_version(self) -> tuple[int, int]:
        """PyOpenCL's helper: the first device's platform's ``cl_version``."""
        return self.devices[0].platform.cl_version

    def set_default_device_command_queue(self, device: Device, queue: Handle) -> None:
        """Make ``queue`` (a device queue: ON_DEVICE | ON_DEVICE_DEFAULT
        properties) the default device queue of ``device`` in this context
        (OpenCL 2.1's ``clSetDefaultDeviceCommandQueue``)."""
        routine = "Context.set_default_device_command_queue"
        if not isinstance(device, Device):
            raise TypeError("%s: device must be a pycl.Device, not %s" % (routine, type(device).__name__))
        device.require((2, 1), routine)
        # OpenCL 3.0: no device-side enqueue capabilities, no device queues
        # (PoCL 3.0 and 3.1 on the CPU; NVIDIA's CUDA 13.0)
        if device.cl_version >= (3, 0) and not device.get_info(_constants.device_info.DEVICE_ENQUEUE_CAPABILITIES):
            raise UnavailableError(
                routine,
                lib.PYCL_UNAVAILABLE,
                "%s needs a device with device-side enqueue; device %r reports no device_enqueue_capabilities"
                % (routine, device.name),
            )
        # a queue by its kind, as pycl.queue (which imports this module) is not imported here
        if not isinstance(queue, Handle) or queue._info_kind != "queue":
            raise TypeError("%s: queue must be a pycl.CommandQueue, not %s" % (routine, type(queue).__name__))
        status = lib.pycl_context_set_default_device_queue(self._live(), device._live(), queue._live())
        check(status, "clSetDefaultDeviceCommandQueue")

    @property
    def devices(self) -> list[Device]:
        """The context's devices (cached: they cannot change)."""
        self._live()
        if self._devices is None:
            self._devices = self.get_info(_constants.context_info.DEVICES)
        return self._devices


def _first_platform_with(dev_type: int) -> Platform:
    for platform in get_platforms():
        if platform.get_devices(dev_type):
            return platform
    raise LogicError(
        "clCreateContextFromType",
        lib.CL_DEVICE_NOT_FOUND,
        "no platform has devices of type %s" % _constants.device_type.to_string(dev_type, "%d"),
    )


def _not_found(routine: str, what: str, answer: str, items: Sequence[Handle]) -> RuntimeError:
    return RuntimeError(
        routine,
        lib.CL_DEVICE_NOT_FOUND,
        "no %s matches %r; choices: %s"
        % (what, answer, ", ".join("[%d] %r" % (i, x.name) for i, x in enumerate(items))),
    )


def _pick(items: Sequence[_Named], answer: str, what: str, last: bool) -> _Named:
    """PyOpenCL's rule: an index in range, else the first item whose name
    holds ``answer`` (case-insensitive), or the last one if ``last`` (its
    rule for platforms)."""
    try:
        index = int(answer)
    except ValueError:
        pass
    else:
        if 0 <= index < len(items):
            return items[index]
    matches = [item for item in items if answer.lower() in item.name.lower()]
    if not matches:
        raise _not_found("choose_devices", what, answer, items)
    return matches[-1] if last else matches[0]


def choose_devices(interactive: Optional[bool] = None, answers: Optional[Sequence[str]] = None) -> list[Device]:
    """The devices ``create_some_context`` uses, as PyOpenCL 2026.1.4 chooses
    them: from ``answers`` (a list of strings: the platform, then the devices
    comma-separated), else from ``PYOPENCL_CTX`` (``"0:1"``, ``"0:0,1"`` for a
    context over two devices, ``"portable:pthread"``), each platform or
    device an index or a case-insensitive name substring (for a platform
    the last match wins, for a device the first: PyOpenCL's rules). With
    neither, and ``PYOPENCL_TEST`` (or ``PYCL_TEST``) set, the first device
    that selects (``get_test_platforms_and_devices``). Choices the answers
    leave open are asked on a terminal (``interactive`` None: when stdin is
    one), else the first platform and its first device are taken. A choice
    that matches nothing, or answers left over, raise ``pycl.RuntimeError``
    (PyOpenCL raises ``RuntimeError``) naming the choices."""
    if answers is None:
        if "PYOPENCL_CTX" in os.environ:
            answers = os.environ["PYOPENCL_CTX"].split(":")
        if "PYOPENCL_TEST" in os.environ or "PYCL_TEST" in os.environ:
            for _platform, devices in get_test_platforms_and_devices():
                if devices:
                    return [devices[0]]
    given: Optional[list[str]]
    if answers is not None:
        if isinstance(answers, str):
            raise TypeError("choose_devices: answers must be a list of strings, not a str")
        given = [str(a) for a in answers]
        answers = list(given)
    else:
        given = None
    if interactive is None:
        try:
            interactive = bool(sys.stdin is not None and sys.stdin.isatty())
        except Exception:  # a closed or replaced stdin
            interactive = False
    typed: list[str] = []

    def say(text: str) -> None:
        if interactive:
            print(text)

    def ask(prompt: str) -> str:
        if answers:
            return answers.pop(0)
        if not interactive:
            return ""
        text = input(prompt)
        typed.append(text)
        return text

    platforms = get_platforms()
    if not answers:
        say("Choose platform:")
        for i, platform in enumerate(platforms):
            say("[%d] %s" % (i, platform.name))
    answer = ask("Choice [0]:")
    platform = _pick(platforms, answer, "platform", last=True) if answer else platforms[0]

    devices = platform.get_devices()
    if not devices:
        raise RuntimeError("choose_devices", lib.CL_DEVICE_NOT_FOUND, "platform %r has no devices" % platform.name)
    if len(devices) == 1 and not answers:
        say("Choosing only available device: %s" % devices[0].name)
    else:
        if not answers:
            say("Choose device(s):")
            for i, device in enumerate(devices):
                say("[%d] %s" % (i, device.name))
        answer = ask("Choice, comma-separated [0]:")
        devices = (
            [devices[0]] if not answer else [_pick(devices, part, "device", last=False) for part in answer.split(",")]
        )

    if typed:
        say(
            "Set the environment variable PYOPENCL_CTX='%s' to avoid being asked again."
            % ":".join((given or []) + typed)
        )
    if answers:
        raise RuntimeError(
            "choose_devices",
            lib.CL_INVALID_VALUE,
            "not all provided choices were used (left over: %r)" % ":".join(answers),
        )
    return devices


def create_some_context(interactive: Optional[bool] = None, answers: Optional[Sequence[str]] = None) -> Context:
    """A context on the devices ``choose_devices(interactive, answers)``
    gives: ``answers``, else ``PYOPENCL_CTX`` (``"platform:device,device"``,
    each an index or a name substring; several devices make a context over
    all of them), else ``PYOPENCL_TEST``'s first device, else asked
    interactively, else the first device of the first platform."""
    return Context(choose_devices(interactive, answers))


# {{{ PYOPENCL_TEST


def _find_cl_obj(items: Sequence[_Named], identifier: str, what: str, spec: str) -> _Named:
    """PyOpenCL's rule for PYOPENCL_TEST: an index (negative ones count from
    the end), else the first item whose name and vendor hold
    ``identifier`` (case-insensitive)."""
    try:
        index = int(identifier)
    except ValueError:
        pass
    else:
        if -len(items) <= index < len(items):
            return items[index]
        raise RuntimeError(
            "get_test_platforms_and_devices",
            lib.CL_DEVICE_NOT_FOUND,
            "%s index %d in %r is out of range: there are %d" % (what, index, spec, len(items)),
        )
    for item in items:
        if identifier.lower() in (item.name + " " + item.vendor).lower():
            return item
    raise RuntimeError(
        "get_test_platforms_and_devices",
        lib.CL_DEVICE_NOT_FOUND,
        "no %s matches %r (of %r) by name or vendor; choices: %s"
        % (what, identifier, spec, ", ".join("[%d] %r" % (i, x.name) for i, x in enumerate(items))),
    )


def get_test_platforms_and_devices(plat_dev_string: Optional[str] = None) -> list[tuple[Platform, list[Device]]]:
    """``[(platform, [device, ...])]`` selected by ``plat_dev_string``
    (default: the environment's PYOPENCL_TEST, else PYCL_TEST), in the syntax
    of PyOpenCL 2026.1.4: ``;``-separated entries ``platform`` (all its
    devices) or ``platform:device,device``, each an index (negative from the
    end) or a case-insensitive substring of the name and vendor (the first
    match), e.g. ``"0:0,1;intel:i5"`` or ``"pocl;oclgrind"``. Unset or empty
    means every device of every platform. Beyond PyOpenCL: ``=`` may stand
    for ``:`` (PyOpenCL's docstring shows ``intel=i5,i7``, its code does not
    take it), empty entries are skipped, and a platform or device named
    twice is listed once. A name or index that selects nothing, or an entry
    with two ``:``, raises ``pycl.RuntimeError`` (PyOpenCL: RuntimeError,
    IndexError for an index out of range)."""
    spec = plat_dev_string
    if spec is None:
        spec = os.environ.get("PYOPENCL_TEST") or os.environ.get("PYCL_TEST") or ""
    if not isinstance(spec, str):
        raise TypeError("get_test_platforms_and_devices: expected a str, not %s" % type(spec).__name__)
    platforms = get_platforms()
    if not spec.strip():
        return [(p, p.get_devices()) for p in platforms]
    selected: list[tuple[Platform, list[Device]]] = []
    for entry in spec.split(";"):
        if not entry.strip():
            continue
        parts = entry.replace("=", ":").split(":")
        if len(parts) > 2:
            raise RuntimeError(
                "get_test_platforms_and_devices",
                lib.CL_INVALID_VALUE,
                "invalid syntax of PYOPENCL_TEST: entry %r has more than one ':' (expected "
                "'platform' or 'platform:device,device')" % entry,
            )
        platform = _find_cl_obj(platforms, parts[0], "platform", spec)
        all_devices = platform.get_devices()
        if len(parts) == 1:
            devices = all_devices
        else:
            devices = [_find_cl_obj(all_devices, d, "device", spec) for d in parts[1].split(",")]
        known = [p for p, _ in selected]
        if platform in known:
            old = selected[known.index(platform)][1]
            old.extend(d for d in devices if d not in old)
        else:
            selected.append((platform, [d for i, d in enumerate(devices) if d not in devices[:i]]))
    return selected


# }}}


_info.register_wrapper("context", lambda raw: Context.from_int_ptr(int(ffi.cast("intptr_t", raw))))
