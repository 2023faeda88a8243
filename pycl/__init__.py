"""pycl: PyOpenCL's memory API as a cffi binding over a small C shim.

``import pycl as cl`` runs code written for PyOpenCL's memory API. This module
only re-exports; each concept lives in its own module.
"""

from pycl import characterize, cltypes, tools
from pycl.between import enqueue_copy_between
from pycl.constants import *  # noqa: F401,F403
from pycl.constants import __all__ as _constant_names
from pycl.context import Context, choose_devices, create_some_context
from pycl.embed import dispatcher, dispatcher_address, get_include
from pycl.errors import Error, LogicError, MemoryError, RuntimeError, UnavailableError
from pycl.event import Event, NannyEvent, UserEvent, enqueue_barrier, enqueue_marker, wait_for_events
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
from pycl.mapping import MemoryMap, enqueue_map_buffer
from pycl.memory import Buffer, MemoryObject
from pycl.pipe import Pipe
from pycl.platform import Device, Platform, get_platforms, unload_platform_compiler
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
from pycl.queue import CommandQueue, CommandQueueUsedAfterExit
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
from pycl.transfer import (
    enqueue_copy,
    enqueue_copy_buffer_p2p_amd,
    enqueue_fill,
    enqueue_fill_buffer,
    enqueue_migrate_mem_objects,
)
from pycl.version import VERSION, VERSION_STATUS, VERSION_TEXT, get_cl_header_version

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
