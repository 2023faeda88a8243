"""pycl: PyOpenCL's memory API as a cffi binding over a small C shim.

``import pycl as cl`` runs code written for PyOpenCL's memory API. This module
only re-exports; each concept lives in its own module.

``import pycl`` loads the core (platforms, contexts, queues, events, buffers,
maps, transfers, constants, errors). The other families (programs and
kernels, images, SVM, pipes, samplers, pools and tools ...) are imported on
first use of one of their names (PEP 562, ``_LAZY`` below), which then stays
in this module's globals: ``pycl.Kernel``, ``from pycl import Image``,
``dir(pycl)`` and ``__all__`` work as if everything were imported eagerly.
"""

from importlib import import_module as _import_module
from typing import TYPE_CHECKING

from pycl.constants import *  # noqa: F401,F403
from pycl.constants import __all__ as _constant_names
from pycl.context import Context, choose_devices, create_some_context
from pycl.errors import Error, LogicError, MemoryError, RuntimeError, UnavailableError
from pycl.event import Event, NannyEvent, UserEvent, enqueue_barrier, enqueue_marker, wait_for_events
from pycl.mapping import MemoryMap, enqueue_map_buffer
from pycl.memory import Buffer, MemoryObject
from pycl.platform import Device, Platform, get_platforms, unload_platform_compiler
from pycl.queue import CommandQueue, CommandQueueUsedAfterExit
from pycl.transfer import (
    enqueue_copy,
    enqueue_copy_buffer_p2p_amd,
    enqueue_fill,
    enqueue_fill_buffer,
    enqueue_migrate_mem_objects,
)
from pycl.version import VERSION, VERSION_STATUS, VERSION_TEXT, get_cl_header_version

# The families imported on first use: module -> the names this module
# re-exports from it. The same imports appear under TYPE_CHECKING below, for
# type checkers and the import graph (tests/test_lazy_import.py checks that
# both agree).
_LAZY_FAMILIES = {
    "pycl.between": ("enqueue_copy_between",),
    "pycl.embed": ("dispatcher", "dispatcher_address", "get_include"),
    "pycl.image": (
        "DTYPE_TO_CHANNEL_TYPE",
        "DTYPE_TO_CHANNEL_TYPE_NORM",
        "Image",
        "ImageFormat",
        "create_image",
        "enqueue_fill_image",
        "enqueue_map_image",
        "get_supported_image_formats",
        "image_from_array",
    ),
    "pycl.pipe": ("Pipe",),
    "pycl.program": (
        "CompilerWarning",
        "Kernel",
        "LocalMemory",
        "Program",
        "RepeatedKernelRetrieval",
        "compiler_output",
        "create_program_with_built_in_kernels",
        "enqueue_nd_range_kernel",
        "link_program",
    ),
    "pycl.sampler": ("Sampler",),
    "pycl.svm": (
        "SVM",
        "SVMAllocation",
        "SVMMap",
        "SVMPointer",
        "csvm_empty",
        "csvm_empty_like",
        "enqueue_svm_memfill",
        "enqueue_svm_migrate_mem",
        "enqueue_svm_migratemem",
        "fsvm_empty",
        "fsvm_empty_like",
        "set_kernel_exec_info",
        "svm_empty",
        "svm_empty_like",
    ),
}
# Submodules that are attributes of pycl without their own import: the public
# ones ``__all__`` names, and those an eager import used to bind here
# (``pycl.pool.bin_number``).
_LAZY_SUBMODULES = (
    "allocator",
    "between",
    "characterize",
    "cltypes",
    "embed",
    "image",
    "pipe",
    "pool",
    "program",
    "sampler",
    "svm",
    "tools",
)
# name -> the module that holds it (for a submodule, the submodule itself).
_LAZY = {name: module for module, names in _LAZY_FAMILIES.items() for name in names}
_LAZY.update((name, "pycl." + name) for name in _LAZY_SUBMODULES)

if TYPE_CHECKING:
    from pycl import (  # noqa: F401 (attributes, only some of them in __all__)
        allocator,
        between,
        characterize,
        cltypes,
        embed,
        image,
        pipe,
        pool,
        program,
        sampler,
        svm,
        tools,
    )
    from pycl.between import enqueue_copy_between
    from pycl.embed import dispatcher, dispatcher_address, get_include
    from pycl.image import (
        DTYPE_TO_CHANNEL_TYPE,
        DTYPE_TO_CHANNEL_TYPE_NORM,
        Image,
        ImageFormat,
        create_image,
        enqueue_fill_image,
        enqueue_map_image,
        get_supported_image_formats,
        image_from_array,
    )
    from pycl.pipe import Pipe
    from pycl.program import (
        CompilerWarning,
        Kernel,
        LocalMemory,
        Program,
        RepeatedKernelRetrieval,
        compiler_output,
        create_program_with_built_in_kernels,
        enqueue_nd_range_kernel,
        link_program,
    )
    from pycl.sampler import Sampler
    from pycl.svm import (
        SVM,
        SVMAllocation,
        SVMMap,
        SVMPointer,
        csvm_empty,
        csvm_empty_like,
        enqueue_svm_memfill,
        enqueue_svm_migrate_mem,
        enqueue_svm_migratemem,
        fsvm_empty,
        fsvm_empty_like,
        set_kernel_exec_info,
        svm_empty,
        svm_empty_like,
    )
else:

    def __getattr__(name: str) -> object:
        """A lazy family's name: imports its module once, then keeps the name
        in this module's globals, where later look-ups find it directly."""
        module_name = _LAZY.get(name)
        if module_name is None:
            raise AttributeError(f"module 'pycl' has no attribute {name!r}")
        try:
            module = _import_module(module_name)
        except AttributeError as error:
            # Raised as it is, it would read as "pycl has no attribute", and
            # ``from pycl import X`` would drop it for "cannot import name".
            raise ImportError(f"pycl.{name}: importing {module_name} failed: {error}") from error
        value = module if module_name == "pycl." + name else getattr(module, name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *_LAZY})


# PyOpenCL's name for the common base of buffers and its pooled buffers; in
# pycl a PooledBuffer is a Buffer, so MemoryObject is that base.
MemoryObjectHolder = MemoryObject


def have_gl() -> bool:
    """False: pycl has no OpenGL interop."""
    return False


__all__ = [
    "Error",
    "LogicError",
    "MemoryError",
    "RuntimeError",
    "UnavailableError",
    "VERSION",
    "VERSION_STATUS",
    "VERSION_TEXT",
    "get_cl_header_version",
    "Platform",
    "Device",
    "get_platforms",
    "unload_platform_compiler",
    "Context",
    "choose_devices",
    "create_some_context",
    "CommandQueue",
    "CommandQueueUsedAfterExit",
    "Event",
    "NannyEvent",
    "UserEvent",
    "enqueue_barrier",
    "enqueue_marker",
    "wait_for_events",
    "Program",
    "RepeatedKernelRetrieval",
    "CompilerWarning",
    "compiler_output",
    "Kernel",
    "LocalMemory",
    "enqueue_nd_range_kernel",
    "link_program",
    "create_program_with_built_in_kernels",
    "characterize",
    "cltypes",
    "tools",
    "MemoryObject",
    "MemoryObjectHolder",
    "have_gl",
    "Buffer",
    "enqueue_copy",
    "enqueue_copy_buffer_p2p_amd",
    "enqueue_copy_between",
    "enqueue_fill",
    "enqueue_fill_buffer",
    "enqueue_migrate_mem_objects",
    "MemoryMap",
    "enqueue_map_buffer",
    "ImageFormat",
    "Image",
    "create_image",
    "get_supported_image_formats",
    "image_from_array",
    "enqueue_fill_image",
    "enqueue_map_image",
    "DTYPE_TO_CHANNEL_TYPE",
    "DTYPE_TO_CHANNEL_TYPE_NORM",
    "Sampler",
    "Pipe",
    "SVM",
    "SVMAllocation",
    "SVMMap",
    "SVMPointer",
    "csvm_empty",
    "csvm_empty_like",
    "enqueue_svm_memfill",
    "enqueue_svm_migrate_mem",
    "enqueue_svm_migratemem",
    "fsvm_empty",
    "fsvm_empty_like",
    "set_kernel_exec_info",
    "svm_empty",
    "svm_empty_like",
    "get_include",
    "dispatcher",
    "dispatcher_address",
] + list(_constant_names)
