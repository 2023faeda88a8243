"""Test support: run every device test on every device found.

``pytest_generate_tests_for_pyopencl`` parametrizes the ``ctx_factory``
(``ctx_getter``), ``device`` and ``platform`` arguments of a test over the
devices selected by ``PYOPENCL_TEST`` (or ``PYCL_TEST``), in PyOpenCL's
syntax (see ``get_test_platforms_and_devices``); unset means every device of
every platform. pytest is only imported when this module is.
"""

import os
import functools
import warnings

import pytest

import pycl

__all__ = [
    "ContextFactory",
    "get_test_platforms_and_devices",
    "pytest_generate_tests_for_pyopencl",
    "kernel_compile_problem",
    "require_kernel_compiler",
]


class ContextFactory:
    """Makes a fresh one-device context each call (``ctx_factory()``)."""

    def __init__(self, device):
        self.device = device

    def __call__(self):
        return pycl.Context([self.device])

    def __str__(self):
        return "<context factory for %s on %s>" % (self.device.name, self.device.platform.name)


def _matches(items, spec):
    if spec.isdigit():
        index = int(spec)
        return [items[index]] if index < len(items) else []
    return [item for item in items if spec.lower() in item.name.lower()]


def _parse_entry(entry):
    """``"platform"``, ``"platform:dev,dev"`` or ``"platform=dev,dev"``."""
    for separator in (":", "="):
        if separator in entry:
            platform_spec, _, devices = entry.partition(separator)
            return platform_spec.strip(), [d.strip() for d in devices.split(",") if d.strip()]
    return entry.strip(), []


def get_test_platforms_and_devices(spec=None):
    """``[(platform, [devices])]`` selected by ``spec`` (default: the
    environment's PYOPENCL_TEST or PYCL_TEST), in PyOpenCL's syntax:
    ``;``-separated entries ``platform[:device,device...]`` (``=`` may stand
    for ``:``), each platform or device an index or a name substring, e.g.
    ``"0:0,1;intel=i5,i7"``."""
    if spec is None:
        spec = os.environ.get("PYOPENCL_TEST") or os.environ.get("PYCL_TEST") or ""
    platforms = pycl.get_platforms()
    if not spec.strip():
        return [(p, p.get_devices()) for p in platforms]
    selected = []
    for entry in spec.split(";"):
        if not entry.strip():
            continue
        platform_spec, device_specs = _parse_entry(entry)
        for platform in _matches(platforms, platform_spec):
            devices = platform.get_devices()
            if device_specs:
                devices = [d for d_spec in device_specs for d in _matches(devices, d_spec)]
            known = [p for p, _ in selected]
            if platform in known:
                old = selected[known.index(platform)][1]
                old.extend(d for d in devices if d not in old)
            else:
                selected.append((platform, [d for i, d in enumerate(devices) if d not in devices[:i]]))
    return selected


def _device_id(device):
    return "%s|%s" % (device.platform.name.replace(" ", "_"), device.name.replace(" ", "_"))


def pytest_generate_tests_for_pyopencl(metafunc):
    """Parametrize ``ctx_factory``/``ctx_getter``, ``device`` and ``platform``."""
    names = set(metafunc.fixturenames)
    wanted = names & {"ctx_factory", "ctx_getter", "device", "platform"}
    if not wanted:
        return
    if "ctx_getter" in wanted:
        warnings.warn("The 'ctx_getter' arg is deprecated in favor of 'ctx_factory'.", DeprecationWarning, stacklevel=2)
    devices = [d for _, ds in get_test_platforms_and_devices() for d in ds]
    if not devices:
        metafunc.parametrize(sorted(wanted), [], ids=[])
        return
    arg_names = sorted(wanted)
    values = []
    for device in devices:
        by_name = {
            "ctx_factory": ContextFactory(device),
            "ctx_getter": ContextFactory(device),
            "device": device,
            "platform": device.platform,
        }
        values.append(tuple(by_name[n] for n in arg_names))
    ids = [_device_id(d) for d in devices]
    # Several devices can share a name (two PoCL builds): number them apart.
    ids = ["%s#%d" % (i, n) if ids.count(i) > 1 else i for n, i in enumerate(ids)]
    metafunc.parametrize(arg_names, values, ids=ids)


_KERNEL_PROBE = "__kernel void pycl_probe(__global int *x) { x[get_global_id(0)] += 1; }"


@functools.lru_cache(maxsize=None)
def _compile_problem_by_ptr(device_ptr):
    device = pycl.Device.from_int_ptr(device_ptr)
    context = pycl.Context([device])
    try:
        pycl.Kernel(pycl.Program(context, _KERNEL_PROBE).build(), "pycl_probe")
    except pycl.Error as error:
        return str(error)
    finally:
        context.release()
    return None


def kernel_compile_problem(device):
    """None if ``device`` builds kernels, else the compiler's message (the pip
    PoCL 3.0 cannot target some CPUs: QUIRKS.md). Checked once per device."""
    return _compile_problem_by_ptr(device.int_ptr)


def require_kernel_compiler(device):
    """Skip the calling test, with the compiler's message, if ``device``
    cannot build kernels."""
    problem = kernel_compile_problem(device)
    if problem is not None:
        pytest.skip("%s cannot compile kernels: %s" % (device.name, problem.splitlines()[0][:300]))


def __getattr__(name):
    # The hypothesis strategies of pycl.strategies, re-exported lazily so that
    # importing pycl.testing needs hypothesis only when they are used.
    from pycl import strategies

    if name == "strategies":
        return strategies
    if name in strategies.__all__:
        return getattr(strategies, name)
    raise AttributeError("module 'pycl.testing' has no attribute %r" % name)
