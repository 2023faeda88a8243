"""Test support: run every device test on every device found.

``pytest_generate_tests_for_pyopencl`` parametrizes the ``ctx_factory``
(``ctx_getter``), ``device`` and ``platform`` arguments of a test over the
devices selected by ``PYOPENCL_TEST`` (or ``PYCL_TEST``), in PyOpenCL's
syntax (see ``get_test_platforms_and_devices``); unset means every device of
every platform. pycl adds ``multi_ctx_factory``: one parameter per selected
platform, a factory of contexts over its selected devices, skipped with the
reason where they are fewer than two (``POCL_DEVICES="pthread pthread"``
gives PoCL two CPU devices); tests that take it are marked ``multi_device``.
pytest is only imported when this module is.
"""

from __future__ import annotations

import os
import warnings
from typing import TYPE_CHECKING, Any, Optional

import pytest

from pycl._compiler_probe import kernel_compile_problem
from pycl.context import Context, get_test_platforms_and_devices
from pycl.platform import Device, get_platforms

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    # What the module __getattr__ below re-exports, for type checkers.
    from pycl import strategies as strategies
    from pycl.platform import Platform
    from pycl.strategies import (
        PATTERN_SIZES as PATTERN_SIZES,
    )
    from pycl.strategies import (
        ImageRegion as ImageRegion,
    )
    from pycl.strategies import (
        Invalid as Invalid,
    )
    from pycl.strategies import (
        Rect as Rect,
    )
    from pycl.strategies import (
        SVMCopy as SVMCopy,
    )
    from pycl.strategies import (
        SVMFill as SVMFill,
    )
    from pycl.strategies import (
        buffer_rect_kwargs as buffer_rect_kwargs,
    )
    from pycl.strategies import (
        fill_args as fill_args,
    )
    from pycl.strategies import (
        host_rect_kwargs as host_rect_kwargs,
    )
    from pycl.strategies import (
        image_boxes as image_boxes,
    )
    from pycl.strategies import (
        image_buffer_kwargs as image_buffer_kwargs,
    )
    from pycl.strategies import (
        image_copy_kwargs as image_copy_kwargs,
    )
    from pycl.strategies import (
        image_host_kwargs as image_host_kwargs,
    )
    from pycl.strategies import (
        image_regions as image_regions,
    )
    from pycl.strategies import (
        image_shapes as image_shapes,
    )
    from pycl.strategies import (
        invalid_buffer_rect_kwargs as invalid_buffer_rect_kwargs,
    )
    from pycl.strategies import (
        invalid_fill_args as invalid_fill_args,
    )
    from pycl.strategies import (
        invalid_host_rect_kwargs as invalid_host_rect_kwargs,
    )
    from pycl.strategies import (
        invalid_image_boxes as invalid_image_boxes,
    )
    from pycl.strategies import (
        invalid_image_buffer_kwargs as invalid_image_buffer_kwargs,
    )
    from pycl.strategies import (
        invalid_image_copy_kwargs as invalid_image_copy_kwargs,
    )
    from pycl.strategies import (
        invalid_image_host_kwargs as invalid_image_host_kwargs,
    )
    from pycl.strategies import (
        invalid_linear_copy_kwargs as invalid_linear_copy_kwargs,
    )
    from pycl.strategies import (
        invalid_map_args as invalid_map_args,
    )
    from pycl.strategies import (
        invalid_rects as invalid_rects,
    )
    from pycl.strategies import (
        invalid_svm_copy_args as invalid_svm_copy_args,
    )
    from pycl.strategies import (
        invalid_svm_fill_args as invalid_svm_fill_args,
    )
    from pycl.strategies import (
        invalid_svm_map_args as invalid_svm_map_args,
    )
    from pycl.strategies import (
        linear_copy_kwargs as linear_copy_kwargs,
    )
    from pycl.strategies import (
        map_args as map_args,
    )
    from pycl.strategies import (
        rects as rects,
    )
    from pycl.strategies import (
        svm_copy_args as svm_copy_args,
    )
    from pycl.strategies import (
        svm_fill_args as svm_fill_args,
    )
    from pycl.strategies import (
        svm_map_args as svm_map_args,
    )

__all__ = [
    "ContextFactory",
    "MultiContextFactory",
    "get_test_platforms_and_devices",
    "pytest_generate_tests_for_pyopencl",
    "kernel_compile_problem",
    "require_kernel_compiler",
]


class ContextFactory:
    """Makes a fresh one-device context each call (``ctx_factory()``)."""

    device: Device  #: the device of the contexts made

    def __init__(self, device: Device) -> None:
        self.device = device

    def __call__(self) -> Context:
        return Context([self.device])

    def __str__(self) -> str:
        return "<context factory for %s on %s>" % (self.device.name, self.device.platform.name)


class MultiContextFactory:
    """Makes a fresh context over several devices of one platform each call
    (``multi_ctx_factory()``); ``devices`` lists them, ``platform`` is theirs."""

    platform: Platform  #: the platform of ``devices``
    devices: list[Device]  #: the devices of the contexts made

    def __init__(self, platform: Platform, devices: Iterable[Device]) -> None:
        self.platform = platform
        self.devices = list(devices)

    def __call__(self) -> Context:
        return Context(self.devices)

    def __str__(self) -> str:
        return "<context factory for %d devices of %s>" % (len(self.devices), self.platform.name)


MULTI_DEVICE_MARKER = "multi_device: the test runs on a context over several devices of one platform"
HOW_TO_GET_TWO = "POCL_DEVICES='pthread pthread' gives each PoCL two CPU devices"


def _multi_device_mark(config: Optional[pytest.Config]) -> pytest.MarkDecorator:
    """``pytest.mark.multi_device``, registered first where the project has
    not (so that it raises no PytestUnknownMarkWarning)."""
    if config is not None:
        names = [line.split(":")[0].split("(")[0].strip() for line in config.getini("markers")]
        if "multi_device" not in names:
            config.addinivalue_line("markers", MULTI_DEVICE_MARKER)
    return pytest.mark.multi_device


def _selection_spec() -> Optional[str]:
    return os.environ.get("PYOPENCL_TEST") or os.environ.get("PYCL_TEST")


def _too_few_reason(platform: Platform, devices: Sequence[Device]) -> str:
    """Why a selected platform gets no multi-device context."""
    total = len(platform.get_devices())
    if total >= 2:
        return "%r: PYOPENCL_TEST/PYCL_TEST=%r selects %d of its %d devices; a multi-device test needs two" % (
            platform.name,
            _selection_spec(),
            len(devices),
            total,
        )
    return "%r has %d device%s; a multi-device test needs two or more of one platform (%s)" % (
        platform.name,
        total,
        "" if total == 1 else "s",
        HOW_TO_GET_TWO,
    )


def _parametrize_multi(metafunc: pytest.Metafunc, selection: Sequence[tuple[Platform, list[Device]]]) -> None:
    """``multi_ctx_factory``: one parameter per selected platform (id: its
    name, numbered apart by its index in ``get_platforms()`` where two
    platforms share a name): a ``MultiContextFactory`` over its selected
    devices where there are two or more, else skipped with the reason; a
    single skipped parameter when nothing is selected."""
    mark = _multi_device_mark(metafunc.config)
    if not selection:
        reason = (
            "no platform selected (PYOPENCL_TEST/PYCL_TEST=%r); a multi-device test needs one with two or more "
            "devices (%s)" % (_selection_spec(), HOW_TO_GET_TWO)
        )
        metafunc.parametrize(
            "multi_ctx_factory",
            [pytest.param(None, marks=[mark, pytest.mark.skip(reason=reason)])],
            ids=["no-platform"],
        )
        return
    platforms = get_platforms()
    names = [p.name.replace(" ", "_") for p, _ in selection]
    ids = [
        "%s#%d" % (name, platforms.index(p)) if names.count(name) > 1 else name
        for name, (p, _) in zip(names, selection)
    ]
    values = [
        pytest.param(MultiContextFactory(p, ds), marks=[mark])
        if len(ds) >= 2
        else pytest.param(None, marks=[mark, pytest.mark.skip(reason=_too_few_reason(p, ds))])
        for p, ds in selection
    ]
    metafunc.parametrize("multi_ctx_factory", values, ids=ids)


def _device_id(device: Device) -> str:
    return "%s|%s" % (device.platform.name.replace(" ", "_"), device.name.replace(" ", "_"))


def pytest_generate_tests_for_pyopencl(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``ctx_factory``/``ctx_getter``, ``device`` and ``platform``
    over the selected devices, and ``multi_ctx_factory`` over the platforms
    with two or more selected devices."""
    names = set(metafunc.fixturenames)
    wanted = names & {"ctx_factory", "ctx_getter", "device", "platform"}
    if not wanted and "multi_ctx_factory" not in names:
        return
    selection = get_test_platforms_and_devices()
    if "multi_ctx_factory" in names:
        _parametrize_multi(metafunc, selection)
    if not wanted:
        return
    if "ctx_getter" in wanted:
        warnings.warn("The 'ctx_getter' arg is deprecated in favor of 'ctx_factory'.", DeprecationWarning, stacklevel=2)
    devices = [d for _, ds in selection for d in ds]
    if not devices:
        metafunc.parametrize(sorted(wanted), [], ids=[])
        return
    arg_names = sorted(wanted)
    values: list[tuple[Any, ...]] = []
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


def require_kernel_compiler(device: Device) -> None:
    """Skip the calling test, with the compiler's message, if ``device``
    cannot build kernels."""
    problem = kernel_compile_problem(device)
    if problem is not None:
        pytest.skip("%s cannot compile kernels: %s" % (device.name, problem.splitlines()[0][:300]))


def __getattr__(name: str) -> Any:
    # The hypothesis strategies of pycl.strategies, re-exported lazily so that
    # importing pycl.testing needs hypothesis only when they are used. What
    # asks for other names (PyPy's import machinery asks for __path__) gets
    # an AttributeError, also without hypothesis.
    if name.startswith("__"):
        raise AttributeError("module 'pycl.testing' has no attribute %r" % name)
    try:
        from pycl import strategies
    except ImportError as error:
        raise AttributeError(
            "module 'pycl.testing' has no attribute %r (its hypothesis strategies need hypothesis: %s)" % (name, error)
        ) from None
    if name == "strategies":
        return strategies
    if name in strategies.__all__:
        return getattr(strategies, name)
    raise AttributeError("module 'pycl.testing' has no attribute %r" % name)
