"""cffi API-mode builder for pycl's compiled module, ``pycl._lib``.

The declarations are the shim's own area headers, read in the order below
(types first: later files use them). They are plain C that both the C
compiler and cffi's parser accept, so the Python side and the shim can never
disagree about a prototype. No system OpenCL headers are involved.

Two uses:

- building pycl: setuptools runs the repository's top-level ``build_ffi.py``,
  which executes this file by path (``import pycl`` cannot work before
  ``pycl._lib`` exists) and hands ``ffibuilder`` to ``cffi_modules``. The C
  sources are ``cl_shim/src/*.c``, named relative to the repository root as
  setuptools wants.
- another cffi project's build script, after pycl is installed::

      import pycl
      from pycl.build_ffi import ffibuilder as pycl_ffibuilder

      ffibuilder = cffi.FFI()
      ffibuilder.include(pycl_ffibuilder)  # pycl's types, constants, struct pycl_dispatcher
      ffibuilder.set_source("mymod", '#include "pycl_shim.h"', include_dirs=[pycl.get_include()])

  The headers come from ``pycl.get_include()``'s folder; no C source is
  needed (the including module calls the shim through ``pycl.dispatcher()``).

Keep this file importable on its own (no ``pycl`` imports), cffi 1.15 and
Python 3.9.
"""

from __future__ import annotations

import os
from typing import Optional

from cffi import FFI

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(PACKAGE_DIR)
# The repository's headers and sources (a checkout or an editable install).
REPO_INCLUDE_DIR = os.path.join(ROOT, "cl_shim", "include")
SOURCE_DIR = os.path.join(ROOT, "cl_shim", "src")
# The copy setup.py ships inside the installed package (build_py).
PACKAGE_INCLUDE_DIR = os.path.join(PACKAGE_DIR, "include")


def include_dir() -> str:
    """The folder holding ``pycl_shim.h``: the repository's ``cl_shim/include``
    when this file sits in a checkout, else the installed ``pycl/include``.
    ``pycl.get_include()`` answers the same (tests/test_embed.py checks)."""
    if os.path.isfile(os.path.join(REPO_INCLUDE_DIR, "pycl_shim.h")):
        return REPO_INCLUDE_DIR
    return PACKAGE_INCLUDE_DIR


INCLUDE_DIR = include_dir()

# Order matters: each file may use the types of the files before it.
DECLARATION_FILES: list[str] = [
    "types.h",
    "constants.h",
    "loader.h",
    "runtime.h",
    "memory.h",
    "svm.h",
    "pool.h",
    "image.h",
    "staging.h",
    "scalars.h",
    "launch.h",
    "program.h",
    "embed.h",
]
SOURCE_FILES: list[str] = [
    "loader.c",
    "errors.c",
    "runtime.c",
    "callback.c",
    "memory.c",
    "sub_buffer.c",
    "svm.c",
    "pool.c",
    "image.c",
    "staging.c",
    "scalars.c",
    "launch.c",
    "embed.c",
]

# Python-side callbacks the shim's C functions can be handed.
PYTHON_CALLBACKS = """
extern "Python" void pycl_event_callback(cl_int, void *);
"""

# Shim functions whose CPython wrappers keep the GIL. cffi releases the GIL
# around every call (Py_BEGIN_ALLOW_THREADS in each wrapper it generates),
# which costs about as much as a short driver call. PyOpenCL keeps it for the
# same kinds of calls.
#
# A call may keep the GIL only if it can never wait for something that a
# Python thread must do first, since no Python thread runs meanwhile. What a
# driver call can wait for is the driver's own locks, held by other threads
# for as long as a driver call or a driver callback runs there:
#
# - the driver's callbacks never take the GIL: the one Python callback,
#   pycl_event_callback, is relayed through the shim's own thread
#   (cl_shim/src/callback.c), and the shim's C callbacks (SVM frees, staged
#   copies' relays) run no Python;
# - other threads' driver calls either keep the GIL themselves (so none runs
#   while this one does) or released it, and a driver holds no lock of its
#   own while it blocks (a blocking read waits for the device, which needs no
#   Python).
#
# So the calls below qualify because each one returns without waiting for a
# command to complete: none of them is a blocking transfer or map, a finish,
# a wait, a build, or a release that can be a queue's or a context's last
# (those may wait for the device, whose commands may wait for a user event
# that a Python thread sets). Each kind, and why it is safe:
KEEPS_GIL: list[str] = [
    # The hit path of a pool allocation (pool.c): the shim's own mutexes only,
    # which no thread holds while it waits for the GIL.
    "pycl_pool_take",
    "pycl_pool_retake",
    "pycl_pool_settle",
    # A block's return (its record's destructor): the same mutexes, and a
    # block freed past the pool's hold goes by pycl_mem_release or
    # pycl_svm_free, both below.
    "pycl_pool_return",
    # Memory objects made without host memory to copy, and references
    # dropped: a driver defers the release of memory that queued commands
    # still use (OpenCL's clReleaseMemObject). pycl_sub_buffer_new and
    # pycl_sub_buffer_release also take sub_buffer.c's lock, held only
    # around updates of its maps and lists.
    "pycl_buffer_new",
    "pycl_sub_buffer_new",
    "pycl_mem_retain",
    "pycl_mem_release",
    "pycl_sub_buffer_release",
    "pycl_event_retain",
    "pycl_event_release",
    # Samplers: made from properties alone, and released as memory objects
    # are.
    "pycl_sampler_create",
    "pycl_sampler_retain",
    "pycl_sampler_release",
    # Queries, which never wait: an event's status, the info of objects
    # (not of programs, whose build info may wait for a build), and a
    # kernel's work-group info (PyOpenCL's array layer asks for it at each
    # operation).
    "pycl_event_status",
    "pycl_event_get_info",
    "pycl_event_get_profiling_info",
    "pycl_device_get_info",
    "pycl_context_get_info",
    "pycl_queue_get_info",
    "pycl_mem_get_info",
    "pycl_image_get_info",
    "pycl_sampler_get_info",
    "pycl_kernel_get_info",
    "pycl_kernel_get_work_group_info",
    # Kernel arguments set from their cells (clSetKernelArg): no command.
    "pycl_kernel_set_marked",
    # An SVM allocation's destructor: enqueues its free or frees at once
    # (clSVMFree does not wait for commands), under svm.c's lock, which no
    # thread holds across a blocking call. (pycl_svm_alloc releases the GIL:
    # it may drop the last reference to a queue.)
    "pycl_svm_free",
    # Enqueues that have no blocking form (no host memory): they return once
    # the command is queued, whatever it waits for.
    "pycl_enqueue_copy_buffer",
    "pycl_enqueue_fill_buffer",
    "pycl_buffer_rect_copy",
    "pycl_enqueue_copy_buffer_rect",
    "pycl_enqueue_copy_image",
    "pycl_enqueue_copy_image_to_buffer",
    "pycl_enqueue_copy_buffer_to_image",
    "pycl_enqueue_fill_image",
    "pycl_enqueue_migrate",
    "pycl_enqueue_svm_migrate",
    "pycl_enqueue_svm_memfill",
    "pycl_enqueue_marker",
    "pycl_enqueue_barrier",
    # An unmap, queued after the map's event where the map has not
    # completed (pycl_mapping_unmap; the mapping keeps its references).
    "pycl_mapping_unmap",
    "pycl_launch",
    "pycl_launch_1d",
]


def _keep_gil_source(names: list[str]) -> str:
    """C for set_source, after cffi's includes and before its wrappers:
    ``Py_BEGIN_ALLOW_THREADS`` redefined to keep the GIL in the wrappers
    (``_cffi_f_<name>``) of ``names``; the compiler folds the comparison
    of ``__func__`` away once the test is inlined, which it must be in
    every wrapper (GCC 12 left it out of line in large wrappers, comparing
    strings at every call). Should cffi stop using these macros, every
    wrapper releases the GIL again, as before."""
    test = " || ".join('!strcmp(wrapper, "_cffi_f_%s")' % name for name in names)
    return "\n".join(
        [
            "#include <string.h>",
            "static inline __attribute__((always_inline)) int pycl_keeps_gil(const char *wrapper)",
            "{ return %s; }" % test,
            "#undef Py_BEGIN_ALLOW_THREADS",
            "#define Py_BEGIN_ALLOW_THREADS "
            "{ PyThreadState *_save = pycl_keeps_gil(__func__) ? NULL : PyEval_SaveThread();",
            "#undef Py_END_ALLOW_THREADS",
            "#define Py_END_ALLOW_THREADS if (_save) PyEval_RestoreThread(_save); }",
            "",
        ]
    )


def read_declarations(include: Optional[str] = None) -> str:
    """The area headers under ``include`` (default: ``INCLUDE_DIR``) as one cdef text."""
    parts = []
    for name in DECLARATION_FILES:
        with open(os.path.join(include or INCLUDE_DIR, "pycl", name)) as f:
            parts.append(f.read())
    return "\n".join(parts)


def _source_args() -> tuple[list[str], list[str]]:
    """set_source's paths: relative to the repository root when building from
    it (setuptools rejects absolute source paths); absolute and without
    sources when only the installed headers are there."""
    if INCLUDE_DIR == REPO_INCLUDE_DIR and os.path.isdir(SOURCE_DIR):
        sources = [os.path.relpath(os.path.join(SOURCE_DIR, name), ROOT) for name in SOURCE_FILES]
        return sources, [os.path.relpath(INCLUDE_DIR, ROOT)]
    return [], [INCLUDE_DIR]


_sources, _include_dirs = _source_args()
ffibuilder = FFI()
ffibuilder.cdef(read_declarations() + PYTHON_CALLBACKS)
ffibuilder.set_source(
    "pycl._lib",
    '#include "pycl_shim.h"\n' + _keep_gil_source(KEEPS_GIL),
    sources=_sources,
    include_dirs=_include_dirs,
    libraries=["dl", "pthread"],
    extra_compile_args=["-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
)


def main() -> None:
    """Compile ``pycl/_lib`` in place (the sources' paths are relative to the root)."""
    os.chdir(ROOT)
    ffibuilder.compile(verbose=True)


if __name__ == "__main__":
    main()
