"""cffi API-mode builder for pycl's compiled module, ``pycl._lib``.

The declarations are the shim's own area headers, read in the order below
(types first: later files use them). They are plain C that both the C
compiler and cffi's parser accept, so the Python side and the shim can never
disagree about a prototype. No system OpenCL headers are involved.
"""

import os

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE_DIR = os.path.join(HERE, "cl_shim", "include")
SOURCE_DIR = os.path.join(HERE, "cl_shim", "src")

# Order matters: each file may use the types of the files before it.
DECLARATION_FILES = ["types.h", "constants.h", "loader.h", "runtime.h", "memory.h", "svm.h", "image.h"]
SOURCE_FILES = ["loader.c", "errors.c", "runtime.c", "memory.c", "svm.c", "image.c"]

# Python-side callbacks the shim's C functions can be handed.
PYTHON_CALLBACKS = """
extern "Python" void pycl_event_callback(cl_event, cl_int, void *);
"""


def read_declarations():
    parts = []
    for name in DECLARATION_FILES:
        with open(os.path.join(INCLUDE_DIR, "pycl", name)) as f:
            parts.append(f.read())
    return "\n".join(parts)


ffibuilder = FFI()
ffibuilder.cdef(read_declarations() + PYTHON_CALLBACKS)
ffibuilder.set_source(
    "pycl._lib",
    '#include "pycl_shim.h"',
    sources=[os.path.relpath(os.path.join(SOURCE_DIR, name), HERE) for name in SOURCE_FILES],
    include_dirs=[os.path.relpath(INCLUDE_DIR, HERE)],
    libraries=["dl", "pthread"],
    extra_compile_args=["-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
