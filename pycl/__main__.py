"""``python -m pycl``: every OpenCL platform and device pycl finds, what each
can do (for a platform with several devices, whether one context takes them
all and moves data between them), and where pycl looked for vendors.

How pycl covers PyOpenCL's memory API, name by name, is a page of the API
reference (docs/api_status, made by tools/api_report.py)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import TYPE_CHECKING, Optional

import pycl
from pycl import _loader as loader
from pycl._compiler_probe import kernel_compile_problem

if TYPE_CHECKING:
    from collections.abc import Sequence

    from _typeshed import SupportsWrite

    from pycl.platform import Device


def _size(nbytes: float) -> str:  # type: ignore[return]  # the loop returns at "TiB"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if nbytes < 1024 or unit == "TiB":
            return "%d %s" % (nbytes, unit) if unit == "B" else "%.1f %s" % (nbytes, unit)
        nbytes /= 1024.0


def _svm(device: Device) -> str:
    if device.cl_version < (2, 0):
        return "none (needs OpenCL 2.0)"
    caps = device.svm_capabilities
    return pycl.device_svm_capabilities.to_string(caps) if caps else "none"


def _kernels(device: Device) -> str:
    problem = kernel_compile_problem(device)
    return "yes" if problem is None else "no (%s)" % problem.splitlines()[0][:200]


def _multi_device(p_index: int, devices: list[Device]) -> str:
    """Whether one context takes all ``devices`` (of platform ``p_index``)
    and a buffer written from the first one's queue reads back from the
    last one's: the line ``describe`` prints for a platform with several."""
    first, last = "[%d:0]" % p_index, "[%d:%d]" % (p_index, len(devices) - 1)
    ctx_spec = "PYOPENCL_CTX='%d:%s'" % (p_index, ",".join(str(i) for i in range(len(devices))))
    head = "one context over its %d devices:" % len(devices)
    try:
        ctx = pycl.Context(devices)
    except pycl.Error as error:
        return "%s no (%s)" % (head, error)
    try:
        data = bytes(range(256)) * 16
        back = bytearray(len(data))
        buf = pycl.Buffer(ctx, pycl.mem_flags.READ_WRITE, len(data))
        pycl.enqueue_copy(pycl.CommandQueue(ctx, devices[0]), buf, data)
        pycl.enqueue_copy(pycl.CommandQueue(ctx, devices[-1]), back, buf)
    except pycl.Error as error:
        return "%s yes, but moving data from %s to %s failed (%s)" % (head, first, last, error)
    if bytes(back) != data:
        return "%s yes, but data written on %s reads back differently on %s" % (head, first, last)
    return "%s yes, data written on %s reads back on %s (%s)" % (head, first, last, ctx_spec)


def describe(out: SupportsWrite[str] = sys.stdout) -> None:
    """Every platform and device, what each can do, and for a platform with
    several devices whether one context takes them all."""
    platforms = pycl.get_platforms()
    for p_index, platform in enumerate(platforms):
        print("[%d] %s — %s" % (p_index, platform.name, platform.vendor), file=out)
        print("    %s" % platform.version, file=out)
        devices = platform.get_devices()
        if len(devices) > 1:
            print("    %s" % _multi_device(p_index, devices), file=out)
        for d_index, device in enumerate(devices):
            print("    [%d:%d] %s" % (p_index, d_index, device.name), file=out)
            rows = [
                ("type", pycl.device_type.to_string(device.type, "%d")),
                ("version", device.version),
                ("pycl uses", "OpenCL %d.%d" % device.cl_version),
                ("SVM", _svm(device)),
                ("images", "yes" if device.image_support else "no"),
                ("global memory", _size(device.global_mem_size)),
                ("max allocation", _size(device.max_mem_alloc_size)),
                ("local memory", _size(device.local_mem_size)),
                ("compiles kernels", _kernels(device)),
            ]
            for key, value in rows:
                print("        %-17s %s" % (key + ":", value), file=out)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pycl", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.parse_args(argv)
    os.environ.setdefault("POCL_CACHE_DIR", tempfile.mkdtemp(prefix="pycl-pocl-cache-"))
    print("pycl %s (OpenCL %d.%d declarations)" % ((pycl.VERSION_TEXT,) + pycl.get_cl_header_version()))
    try:
        describe()
    except pycl.Error as error:
        print(error)
        return 1
    finally:
        print("\nWhere pycl looked:")
        print("    " + loader.report().rstrip("\n").replace("\n", "\n    "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
