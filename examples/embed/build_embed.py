"""Build script of a downstream cffi module, ``pycl_embed_example``, whose C
code (fill.c) fills pycl buffers through pycl's dispatcher table.

    python examples/embed/build_embed.py    # builds pycl_embed_example next to this file

The module links no OpenCL library: its ``ffibuilder`` includes pycl's FFI (the
OpenCL types and ``struct pycl_dispatcher`` are pycl's, so pycl's cdata pass
straight in) and compiles against the headers in ``pycl.get_include()``.
"""

import os

import cffi

import pycl
from pycl.build_ffi import ffibuilder as pycl_ffibuilder

HERE = os.path.dirname(os.path.abspath(__file__))

ffibuilder = cffi.FFI()
ffibuilder.include(pycl_ffibuilder)
ffibuilder.cdef(
    """
    cl_int embed_fill(const struct pycl_dispatcher *cl, cl_command_queue queue, cl_mem buffer, cl_uint value,
                      size_t first, size_t count);
    cl_int embed_write_ramp(const struct pycl_dispatcher *cl, cl_command_queue queue, cl_mem buffer, cl_uint start,
                            cl_uint step, size_t count);
    """
)
ffibuilder.set_source(
    "pycl_embed_example",
    '#include "fill.h"',
    sources=[os.path.join(HERE, "fill.c")],
    include_dirs=[pycl.get_include(), HERE],
    extra_compile_args=["-std=c99", "-Wall", "-Wextra"],
)

if __name__ == "__main__":
    ffibuilder.compile(tmpdir=HERE, verbose=True)
