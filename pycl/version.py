"""pycl's version and the OpenCL version its declarations describe."""

VERSION = (0, 1, 0)
VERSION_STATUS = ""
VERSION_TEXT = ".".join(str(part) for part in VERSION) + VERSION_STATUS

# cl_shim/include/pycl/ transcribes the OpenCL 3.0 headers.
_CL_HEADER_VERSION = (3, 0)


def get_cl_header_version():
    """The OpenCL version of the declarations pycl was built with, ``(3, 0)``."""
    return _CL_HEADER_VERSION
