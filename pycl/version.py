"""pycl's version and the OpenCL version its declarations describe."""

from __future__ import annotations

VERSION: tuple[int, int, int] = (0, 1, 0)
VERSION_STATUS: str = ""
VERSION_TEXT: str = ".".join(str(part) for part in VERSION) + VERSION_STATUS

# cl_shim/include/pycl/ transcribes the OpenCL 3.0 headers.
_CL_HEADER_VERSION: tuple[int, int] = (3, 0)


def get_cl_header_version() -> tuple[int, int]:
    """The OpenCL version of the declarations pycl was built with, ``(3, 0)``."""
    return _CL_HEADER_VERSION
