"""Embedding pycl in other cffi projects: the shim's headers and its C
dispatcher table.

A downstream cffi module's build script includes pycl's declarations::

    import pycl
    from pycl.build_ffi import ffibuilder as pycl_ffibuilder

    ffibuilder.include(pycl_ffibuilder)
    ffibuilder.set_source("mymod", '#include "pycl_shim.h"', sources=[...], include_dirs=[pycl.get_include()])

and its C code takes a ``const struct pycl_dispatcher *`` (``pycl.dispatcher()``)
with handles from pycl objects (``int_ptr``), calling OpenCL through pycl's
loader without linking libOpenCL. ``examples/embed/`` is a complete example.
"""

from __future__ import annotations

import os
from typing import Any

from pycl._lib import ffi, lib

__all__ = ["get_include", "dispatcher", "dispatcher_address"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
# The same choice as pycl/build_ffi.include_dir(), which cannot import pycl:
# the repository's headers in a checkout (editable install), else the copy
# setup.py ships inside the package.
_REPO_INCLUDE_DIR = os.path.join(os.path.dirname(_PACKAGE_DIR), "cl_shim", "include")
_PACKAGE_INCLUDE_DIR = os.path.join(_PACKAGE_DIR, "include")


def get_include() -> str:
    """The folder holding ``pycl_shim.h`` (and its ``pycl/`` area headers),
    for a downstream build's ``include_dirs``."""
    if os.path.isfile(os.path.join(_REPO_INCLUDE_DIR, "pycl_shim.h")):
        return _REPO_INCLUDE_DIR
    return _PACKAGE_INCLUDE_DIR


def dispatcher() -> Any:
    """The shim's ``const struct pycl_dispatcher *`` (a cdata of pycl's ffi),
    for a cffi module that includes pycl's declarations. The table is static:
    valid as long as the process runs."""
    return lib.pycl_dispatcher()


def dispatcher_address() -> int:
    """The address of the dispatcher table as an int, for C code that is not
    cffi (ctypes, another extension): cast it to
    ``const struct pycl_dispatcher *``."""
    return int(ffi.cast("uintptr_t", lib.pycl_dispatcher()))
