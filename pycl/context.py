"""Contexts and ``create_some_context``."""

import os
import sys

from pycl._lib import ffi, lib
from pycl import constants as _constants
from pycl import info as _info
from pycl.errors import check, logic_error, LogicError
from pycl.handle import Handle
from pycl.platform import Device, Platform, get_platforms

__all__ = ["Context", "create_some_context", "choose_devices"]


def _properties_array(properties):
    """``[(context_properties.PLATFORM, platform), ...]`` as a 0-terminated array."""
    flat = []
    for key, value in properties or ():
        if isinstance(value, Handle):
            value = value.int_ptr
        flat += [key, value]
    return ffi.new("cl_context_properties[]", flat + [0]) if flat else ffi.NULL


class Context(Handle):
    """``Context(devices=None, properties=None, dev_type=None)``: a context on
    ``devices``, or on the devices of ``dev_type`` of the platform named in
    ``properties`` (by default the first platform that has such devices)."""

    __slots__ = ("_devices", "_stager", "_account", "_sub_aligns", "_memo")
    _ctype = "cl_context"
    _retain = lib.pycl_context_retain
    _release = lib.pycl_context_release
    _info_kind = "context"
    _invalid_code = lib.CL_INVALID_CONTEXT

    def __init__(self, devices=None, properties=None, dev_type=None):
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

    def _adopt(self, raw):
        Handle._adopt(self, raw)
        self._devices = None
        self._stager = None  # pinned slots for staged copies (pycl.staging)
        self._account = None  # its device's collection budget (pycl.budget), found at first use
        self._sub_aligns = None  # its devices' sub-buffer alignments in bytes (Buffer), found at first use
        self._memo = {}  # what checks found out about its devices (images), by key

    def _get_cl_version(self):
        """PyOpenCL's helper: the first device's platform's ``cl_version``."""
        return self.devices[0].platform.cl_version

    @property
    def devices(self):
        """The context's devices (cached: they cannot change)."""
        self._live()
        if self._devices is None:
            self._devices = self.get_info(_constants.context_info.DEVICES)
        return self._devices


def _first_platform_with(dev_type):
    for platform in get_platforms():
        if platform.get_devices(dev_type):
            return platform
    raise LogicError(
        "clCreateContextFromType",
        lib.CL_DEVICE_NOT_FOUND,
        "no platform has devices of type %s" % _constants.device_type.to_string(dev_type, "%d"),
    )


def _pick(items, answer, what):
    """An item by index or by case-insensitive name substring."""
    answer = answer.strip()
    if answer.isdigit():
        index = int(answer)
        if index < len(items):
            return items[index]
        raise logic_error("create_some_context", "%s index %d out of range (0..%d)" % (what, index, len(items) - 1))
    for item in items:
        if answer.lower() in item.name.lower():
            return item
    raise logic_error(
        "create_some_context",
        "no %s matches %r; choices: %s" % (what, answer, ", ".join(repr(i.name) for i in items)),
    )


def choose_devices(interactive=None, answers=None):
    """The devices ``create_some_context`` would use (one platform's choice)."""
    if answers is None and os.environ.get("PYOPENCL_CTX"):
        answers = os.environ["PYOPENCL_CTX"].split(":")
    answers = list(answers or [])
    if interactive is None:
        interactive = sys.stdin is not None and sys.stdin.isatty() and not answers
    platforms = get_platforms()
    platform = _ask(platforms, answers, "platform", interactive)
    devices = platform.get_devices()
    if not devices:
        raise logic_error("create_some_context", "platform %r has no devices" % platform.name)
    return [_ask(devices, answers, "device", interactive)]


def _ask(items, answers, what, interactive):
    if answers:
        return _pick(items, answers.pop(0), what)
    if not interactive or len(items) == 1:
        return items[0]
    print("Choose %s:" % what)
    for i, item in enumerate(items):
        print("[%d] %s" % (i, item.name))
    answer = input("Choice [0]: ") or "0"
    return _pick(items, answer, what)


def create_some_context(interactive=None, answers=None):
    """A context on one device: from ``answers``, else ``PYOPENCL_CTX``
    (``"platform:device"``, each an index or a name substring), else asked
    interactively, else the first device of the first platform."""
    return Context(choose_devices(interactive, answers))


_info.register_wrapper("context", lambda raw: Context.from_int_ptr(int(ffi.cast("intptr_t", raw))))
