"""Info queries: which shim getter serves each kind of object, and how each
parameter's bytes decode into Python values (ints, strings, lists, objects).

Objects are decoded through wrappers that their modules register here, so this
module imports none of them.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Callable, Optional

from pycl import constants as _constants
from pycl._lib import ffi, lib
from pycl.errors import check, logic_error

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Protocol

    from pycl._constant_class import ConstantClass

    class _Queryable(Protocol):
        """A pycl object with info queries (``pycl._handle.Handle``, which
        imports this module)."""

        def _live(self) -> Any: ...

    # A shim getter: (handle, *extra, param, size, value, size_ret) -> status.
    _Getter = Callable[..., int]
    # Decodes an info value: (buffer cdata, size in bytes) -> Python value.
    _Decoder = Callable[[Any, int], Any]

__all__ = ["NameVersion", "InfoAttribute", "add_attributes", "query", "param_for_attribute", "register_wrapper"]


class NameVersion:
    """A ``cl_name_version``: ``name`` and packed ``version`` (OpenCL 3.0)."""

    __slots__ = ("name", "version")

    name: str
    version: int

    def __init__(self, version: int, name: str) -> None:
        self.version = version
        self.name = name

    def __repr__(self) -> str:
        v = self.version
        return "NameVersion(%r, %d.%d.%d)" % (self.name, v >> 22, (v >> 12) & 0x3FF, v & 0xFFF)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NameVersion) and (self.name, self.version) == (other.name, other.version)

    def __hash__(self) -> int:
        return hash((self.name, self.version))


# kind -> (shim getter, constant class, CL entry point for messages)
_GETTERS: dict[Optional[str], tuple[_Getter, type[ConstantClass], str]] = {
    "platform": (lib.pycl_platform_get_info, _constants.platform_info, "clGetPlatformInfo"),
    "device": (lib.pycl_device_get_info, _constants.device_info, "clGetDeviceInfo"),
    "context": (lib.pycl_context_get_info, _constants.context_info, "clGetContextInfo"),
    "queue": (lib.pycl_queue_get_info, _constants.command_queue_info, "clGetCommandQueueInfo"),
    "event": (lib.pycl_event_get_info, _constants.event_info, "clGetEventInfo"),
    "profiling": (lib.pycl_event_get_profiling_info, _constants.profiling_info, "clGetEventProfilingInfo"),
    "program": (lib.pycl_program_get_info, _constants.program_info, "clGetProgramInfo"),
    "program_build": (lib.pycl_program_get_build_info, _constants.program_build_info, "clGetProgramBuildInfo"),
    "kernel": (lib.pycl_kernel_get_info, _constants.kernel_info, "clGetKernelInfo"),
    "kernel_work_group": (
        lib.pycl_kernel_get_work_group_info,
        _constants.kernel_work_group_info,
        "clGetKernelWorkGroupInfo",
    ),
    "kernel_arg": (lib.pycl_kernel_get_arg_info, _constants.kernel_arg_info, "clGetKernelArgInfo"),
    "mem": (lib.pycl_mem_get_info, _constants.mem_info, "clGetMemObjectInfo"),
}

# kind -> {decoder name: "PARAM NAMES ..."}; names are the constant class's.
_LAYOUT: dict[str, dict[str, str]] = {
    "platform": {
        "str": "NAME VENDOR VERSION PROFILE EXTENSIONS",
        "ulong": "HOST_TIMER_RESOLUTION",
        "uint": "NUMERIC_VERSION",
        "name_versions": "EXTENSIONS_WITH_VERSION",
    },
    "device": {
        "str": "NAME VENDOR DRIVER_VERSION PROFILE VERSION OPENCL_C_VERSION EXTENSIONS BUILT_IN_KERNELS"
        " IL_VERSION SPIR_VERSIONS BOARD_NAME_AMD",
        "uint": "ADDRESS_BITS VENDOR_ID MAX_COMPUTE_UNITS MAX_WORK_ITEM_DIMENSIONS"
        " PREFERRED_VECTOR_WIDTH_CHAR PREFERRED_VECTOR_WIDTH_SHORT PREFERRED_VECTOR_WIDTH_INT"
        " PREFERRED_VECTOR_WIDTH_LONG PREFERRED_VECTOR_WIDTH_FLOAT PREFERRED_VECTOR_WIDTH_DOUBLE"
        " PREFERRED_VECTOR_WIDTH_HALF NATIVE_VECTOR_WIDTH_CHAR NATIVE_VECTOR_WIDTH_SHORT"
        " NATIVE_VECTOR_WIDTH_INT NATIVE_VECTOR_WIDTH_LONG NATIVE_VECTOR_WIDTH_FLOAT"
        " NATIVE_VECTOR_WIDTH_DOUBLE NATIVE_VECTOR_WIDTH_HALF MAX_CLOCK_FREQUENCY MAX_READ_IMAGE_ARGS"
        " MAX_WRITE_IMAGE_ARGS MAX_READ_WRITE_IMAGE_ARGS MAX_SAMPLERS MEM_BASE_ADDR_ALIGN"
        " MIN_DATA_TYPE_ALIGN_SIZE GLOBAL_MEM_CACHELINE_SIZE GLOBAL_MEM_CACHE_TYPE LOCAL_MEM_TYPE"
        " MAX_CONSTANT_ARGS PARTITION_MAX_SUB_DEVICES REFERENCE_COUNT MAX_ON_DEVICE_EVENTS"
        " MAX_ON_DEVICE_QUEUES MAX_PIPE_ARGS PIPE_MAX_ACTIVE_RESERVATIONS PIPE_MAX_PACKET_SIZE"
        " PREFERRED_PLATFORM_ATOMIC_ALIGNMENT PREFERRED_GLOBAL_ATOMIC_ALIGNMENT"
        " PREFERRED_LOCAL_ATOMIC_ALIGNMENT QUEUE_ON_DEVICE_MAX_SIZE QUEUE_ON_DEVICE_PREFERRED_SIZE"
        " MAX_NUM_SUB_GROUPS NUMERIC_VERSION COMPUTE_CAPABILITY_MAJOR_NV COMPUTE_CAPABILITY_MINOR_NV"
        " REGISTERS_PER_BLOCK_NV WARP_SIZE_NV ATTRIBUTE_ASYNC_ENGINE_COUNT_NV PCI_BUS_ID_NV"
        " PCI_SLOT_ID_NV PCI_DOMAIN_ID_NV SIMD_PER_COMPUTE_UNIT_AMD SIMD_WIDTH_AMD"
        " SIMD_INSTRUCTION_WIDTH_AMD WAVEFRONT_WIDTH_AMD GLOBAL_MEM_CHANNELS_AMD"
        " GLOBAL_MEM_CHANNEL_BANKS_AMD GLOBAL_MEM_CHANNEL_BANK_WIDTH_AMD"
        " LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD LOCAL_MEM_BANKS_AMD GFXIP_MAJOR_AMD GFXIP_MINOR_AMD"
        " AVAILABLE_ASYNC_QUEUES_AMD PCIE_ID_AMD ME_VERSION_INTEL NUM_SIMULTANEOUS_INTEROPS_INTEL"
        " IMAGE_PITCH_ALIGNMENT IMAGE_BASE_ADDRESS_ALIGNMENT",
        "bool": "AVAILABLE COMPILER_AVAILABLE LINKER_AVAILABLE ENDIAN_LITTLE ERROR_CORRECTION_SUPPORT"
        " HOST_UNIFIED_MEMORY IMAGE_SUPPORT PREFERRED_INTEROP_USER_SYNC GENERIC_ADDRESS_SPACE_SUPPORT"
        " NON_UNIFORM_WORK_GROUP_SUPPORT PIPE_SUPPORT SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS"
        " WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT KERNEL_EXEC_TIMEOUT_NV GPU_OVERLAP_NV"
        " INTEGRATED_MEMORY_NV THREAD_TRACE_SUPPORTED_AMD",
        "ulong": "GLOBAL_MEM_CACHE_SIZE GLOBAL_MEM_SIZE LOCAL_MEM_SIZE MAX_CONSTANT_BUFFER_SIZE"
        " MAX_MEM_ALLOC_SIZE TYPE SINGLE_FP_CONFIG DOUBLE_FP_CONFIG HALF_FP_CONFIG EXECUTION_CAPABILITIES"
        " QUEUE_PROPERTIES QUEUE_ON_HOST_PROPERTIES QUEUE_ON_DEVICE_PROPERTIES SVM_CAPABILITIES"
        " PARTITION_AFFINITY_DOMAIN ATOMIC_MEMORY_CAPABILITIES ATOMIC_FENCE_CAPABILITIES"
        " DEVICE_ENQUEUE_CAPABILITIES PROFILING_TIMER_OFFSET_AMD",
        "size": "IMAGE2D_MAX_WIDTH IMAGE2D_MAX_HEIGHT IMAGE3D_MAX_WIDTH IMAGE3D_MAX_HEIGHT IMAGE3D_MAX_DEPTH"
        " IMAGE_MAX_ARRAY_SIZE IMAGE_MAX_BUFFER_SIZE MAX_PARAMETER_SIZE MAX_WORK_GROUP_SIZE"
        " PROFILING_TIMER_RESOLUTION PRINTF_BUFFER_SIZE MAX_GLOBAL_VARIABLE_SIZE"
        " GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE PREFERRED_WORK_GROUP_SIZE_MULTIPLE"
        " EXT_MEM_PADDING_IN_BYTES_QCOM PAGE_SIZE_QCOM MAX_WORK_GROUP_SIZE_AMD"
        " PREFERRED_WORK_GROUP_SIZE_AMD PREFERRED_CONSTANT_BUFFER_SIZE_AMD",
        "sizes": "MAX_WORK_ITEM_SIZES GLOBAL_FREE_MEMORY_AMD",
        "uints": "SIMULTANEOUS_INTEROPS_INTEL",
        "name_versions": "EXTENSIONS_WITH_VERSION ILS_WITH_VERSION BUILT_IN_KERNELS_WITH_VERSION"
        " OPENCL_C_ALL_VERSIONS OPENCL_C_FEATURES",
        "platform": "PLATFORM",
        "device": "PARENT_DEVICE",
        "intptrs": "PARTITION_PROPERTIES PARTITION_TYPE",
        "bytes": "TOPOLOGY_AMD",
    },
    "context": {
        "devices": "DEVICES",
        "uint": "NUM_DEVICES REFERENCE_COUNT",
        "intptrs": "PROPERTIES",
        "bool": "INTEROP_USER_SYNC",
    },
    "queue": {
        "context": "CONTEXT",
        "device": "DEVICE",
        "ulong": "PROPERTIES",
        "ulongs": "PROPERTIES_ARRAY",
        "uint": "REFERENCE_COUNT",
    },
    "event": {
        "queue": "COMMAND_QUEUE",
        "context": "CONTEXT",
        "uint": "COMMAND_TYPE REFERENCE_COUNT",
        "int": "COMMAND_EXECUTION_STATUS",
    },
    "profiling": {"ulong": "QUEUED SUBMIT START END COMPLETE"},
    "program": {
        "context": "CONTEXT",
        "devices": "DEVICES",
        "uint": "NUM_DEVICES REFERENCE_COUNT",
        "size": "NUM_KERNELS",
        "sizes": "BINARY_SIZES",
        "str": "SOURCE KERNEL_NAMES",
        "bytes": "IL",
        "bool": "SCOPE_GLOBAL_CTORS_PRESENT SCOPE_GLOBAL_DTORS_PRESENT",
        "binaries": "BINARIES",
    },
    "program_build": {
        "int": "STATUS",
        "str": "OPTIONS LOG",
        "uint": "BINARY_TYPE",
        "size": "GLOBAL_VARIABLE_TOTAL_SIZE",
    },
    "kernel": {
        "str": "FUNCTION_NAME ATTRIBUTES",
        "uint": "NUM_ARGS REFERENCE_COUNT",
        "context": "CONTEXT",
        "program": "PROGRAM",
    },
    "kernel_work_group": {
        "size": "WORK_GROUP_SIZE PREFERRED_WORK_GROUP_SIZE_MULTIPLE",
        "sizes": "COMPILE_WORK_GROUP_SIZE GLOBAL_WORK_SIZE",
        "ulong": "LOCAL_MEM_SIZE PRIVATE_MEM_SIZE",
    },
    "kernel_arg": {
        "uint": "ADDRESS_QUALIFIER ACCESS_QUALIFIER",
        "ulong": "TYPE_QUALIFIER",
        "str": "TYPE_NAME NAME",
    },
    "mem": {
        "uint": "TYPE MAP_COUNT REFERENCE_COUNT",
        "ulong": "FLAGS",
        "size": "SIZE OFFSET",
        "pointer": "HOST_PTR",
        "context": "CONTEXT",
        "mem": "ASSOCIATED_MEMOBJECT",
        "bool": "USES_SVM_POINTER",
        "ulongs": "PROPERTIES",
    },
}

_wrappers: dict[str, Callable[[Any], Any]] = {}  # "device" -> a function turning a non-NULL raw handle into an object


def register_wrapper(kind: str, wrap: Callable[[Any], Any]) -> None:
    """Let info queries return objects of ``kind`` ("context", "mem", ...)."""
    _wrappers[kind] = wrap


def _read_scalar(ctype: str, buf: Any, size: int) -> Any:
    """The ``ctype`` value of an answer of ``size`` bytes: None when empty;
    an answer shorter than its type (a driver that answers 4 bytes for a
    size_t parameter) is zero-extended, never read past its end."""
    if size >= ffi.sizeof(ctype):
        return ffi.cast(ctype + " *", buf)[0]
    if size == 0:
        return None
    value = ffi.new(ctype + " *")
    ffi.memmove(value, buf, size)
    return value[0]


def _scalar(ctype: str) -> _Decoder:
    width, pointer = ffi.sizeof(ctype), ffi.typeof(ctype + " *")

    def decode(buf: Any, size: int) -> Any:
        if size >= width:  # _read_scalar's common case, with the types looked up once
            return ffi.cast(pointer, buf)[0]
        return _read_scalar(ctype, buf, size)

    return decode


def _bool(buf: Any, size: int) -> Optional[int]:
    # cl_bool values are the ints 1 and 0, as PyOpenCL returns them (they
    # show in printed reports and serialized output).
    value = _read_scalar("cl_bool", buf, size)
    return None if value is None else 1 if value else 0


def _pointer(buf: Any, size: int) -> Optional[int]:
    return _read_scalar("intptr_t", buf, size) or None


def _array(ctype: str) -> _Decoder:
    width = ffi.sizeof(ctype)

    def decode(buf: Any, size: int) -> list[Any]:
        return list(ffi.unpack(ffi.cast(ctype + " *", buf), size // width)) if size >= width else []

    return decode


def _handle(kind: str, ctype: str) -> _Decoder:
    width = ffi.sizeof(ctype)

    def decode(buf: Any, size: int) -> Any:
        if size < width:
            return None
        raw = ffi.cast(ctype + " *", buf)[0]
        return _wrappers[kind](raw) if raw != ffi.NULL else None

    return decode


def _handles(kind: str, ctype: str) -> _Decoder:
    raw_array = _array(ctype)

    def decode(buf: Any, size: int) -> list[Any]:
        return [_wrappers[kind](raw) for raw in raw_array(buf, size)]

    return decode


def _string(buf: Any, size: int) -> str:
    if size == 0:
        return ""
    return ffi.string(ffi.cast("char *", buf), size).decode("utf-8", "replace")


def _name_versions(buf: Any, size: int) -> list[NameVersion]:
    items = ffi.cast("cl_name_version *", buf)
    count = size // ffi.sizeof("cl_name_version")
    name_size = ffi.sizeof(items[0].name) if count else 0
    return [
        NameVersion(items[i].version, ffi.string(items[i].name, name_size).decode("utf-8", "replace"))
        for i in range(count)
    ]


_DECODERS: dict[str, _Decoder] = {
    "str": _string,
    "bytes": lambda buf, size: ffi.buffer(buf, size)[:] if size else b"",
    "int": _scalar("cl_int"),
    "uint": _scalar("cl_uint"),
    "ulong": _scalar("cl_ulong"),
    "float": _scalar("cl_float"),
    "size": _scalar("size_t"),
    "bool": _bool,
    "pointer": _pointer,
    "uints": _array("cl_uint"),
    "ulongs": _array("cl_ulong"),
    "sizes": _array("size_t"),
    "intptrs": _array("intptr_t"),
    "name_versions": _name_versions,
    "platform": _handle("platform", "cl_platform_id"),
    "device": _handle("device", "cl_device_id"),
    "devices": _handles("device", "cl_device_id"),
    "context": _handle("context", "cl_context"),
    "queue": _handle("queue", "cl_command_queue"),
    "program": _handle("program", "cl_program"),
    "mem": _handle("mem", "cl_mem"),
    # A cl_image_format, decoded by the wrapper pycl.image registers.
    "image_format": lambda buf, size: (
        _wrappers["image_format"](ffi.cast("cl_image_format *", buf)[0])
        if size >= ffi.sizeof("cl_image_format")
        else None
    ),
}


def _build_tables() -> tuple[dict[Optional[str], dict[int, str]], dict[Optional[str], dict[str, int]]]:
    decoders: dict[Optional[str], dict[int, str]]
    attributes: dict[Optional[str], dict[str, int]]
    decoders, attributes = {}, {}
    for kind, layout in _LAYOUT.items():
        info_class = _GETTERS[kind][1]
        decoders[kind], attributes[kind] = {}, {}
        for decoder, names in layout.items():
            for name in names.split():
                value = getattr(info_class, name)
                decoders[kind][value] = decoder
                attributes[kind][name.lower()] = value
    return decoders, attributes


_decoder_names, _attributes = _build_tables()


def add_kind(kind: str, getter: _Getter, info_class: type[ConstantClass], routine: str, layout: dict[str, str]) -> None:
    """Add an info kind (images, samplers, pipes) from the module that owns it."""
    _GETTERS[kind] = (getter, info_class, routine)
    _LAYOUT[kind] = layout
    global _decoder_names, _attributes
    _decoder_names, _attributes = _build_tables()
    for cls, owner_kind, method in _attribute_owners:
        if owner_kind == kind:
            _install(cls, kind, method)


class InfoAttribute:
    """A lower-case info attribute (``device.name``): reading it on an object
    calls the object's ``method`` (``get_info``, ``get_image_info`` ...) with
    the parameter, a driver query at each read.

    Info attributes are descriptors on the class rather than answers of a
    ``__getattr__``: on CPython 3.11+ a class with ``__getattr__`` loses the
    specialized attribute reads, which made every ``self._handle`` of every
    pycl object slower."""

    param: int
    method: str

    def __init__(self, param: int, method: str, doc: str) -> None:
        self.param = param
        self.method = method
        self.__doc__ = doc

    def __get__(self, obj: Any, owner: Optional[type] = None) -> Any:
        if obj is None:
            return self
        return getattr(obj, self.method)(self.param)


# (class, kind, method) for every class given info attributes, in order.
_attribute_owners: list[tuple[type, str, str]] = []


def add_attributes(cls: type, kind: str, method: str = "get_info") -> None:
    """Give ``cls`` an ``InfoAttribute`` for each parameter of ``kind``, now
    or when the kind is added. A name the class or a base defines otherwise
    (a cached ``size``, a method) keeps its definition; one that is only an
    info attribute of a base (``mem`` under ``image``) is replaced, so the
    kind added last to a class answers first."""
    _attribute_owners.append((cls, kind, method))
    _install(cls, kind, method)


def _install(cls: type, kind: str, method: str) -> None:
    if kind not in _GETTERS:
        return  # added later (add_kind installs it then)
    info_class = _GETTERS[kind][1].__name__
    for name, param in _attributes[kind].items():
        defined = next((vars(klass)[name] for klass in cls.__mro__ if name in vars(klass)), None)
        if defined is None or isinstance(defined, InfoAttribute):
            doc = "``%s.%s``, queried at each read." % (info_class, name.upper())
            setattr(cls, name, InfoAttribute(param, method, doc))


def param_for_attribute(kind: Optional[str], name: str) -> Optional[int]:
    """The info parameter a lower-case attribute name stands for, or None."""
    table = _attributes.get(kind)
    return table.get(name) if table else None


def query_raw(kind: Optional[str], handle: Any, param: int, extra: Sequence[Any] = ()) -> tuple[Any, int]:
    """The raw bytes of an info query: ``(buffer cdata, size)``.

    The value buffer has exactly the size the driver announces, and an
    announced size of 0 is answered with no second call (``(NULL, 0)``):
    PoCL 3.0 and 3.1 write CONTEXT_PROPERTIES into a non-NULL pointer even
    when they announce 0 bytes and are passed 0.
    """
    getter, info_class, routine = _GETTERS[kind]
    size = ffi.new("size_t *")
    status = getter(handle, *extra, param, 0, ffi.NULL, size)
    if status:
        check(status, routine, "param %s" % info_class.to_string(param, "%d"))
    if size[0] == 0:
        return ffi.NULL, 0
    buf = ffi.new("char[]", size[0])
    status = getter(handle, *extra, param, size[0], buf, ffi.NULL)
    if status:
        check(status, routine, "param %s" % info_class.to_string(param, "%d"))
    return buf, size[0]


def query(obj: _Queryable, kind: Optional[str], param: int, extra: Sequence[Any] = ()) -> Any:
    """Query and decode ``param`` of ``obj`` (a pycl object of ``kind``).

    One call into this thread's cell of ``_CELL_BYTES`` answers nearly every
    parameter (a scalar, a handle, a short string): query_raw's two calls
    (the size, then the value) cost an info attribute about 0.8 us more on
    CPython 3.11. A longer value, or any failure, takes query_raw, which
    names the error. The decoders copy what they read before anything
    else can query on this thread."""
    decoder = _decoder_names.get(kind, {}).get(param)
    if decoder is None:
        getter, info_class, routine = _GETTERS[kind]
        raise logic_error(
            type(obj).__name__ + ".get_info",
            "%s has no parameter %s known to pycl" % (info_class.__name__, info_class.to_string(param, "%r")),
        )
    if decoder == "binaries":
        return _binaries(obj, kind)
    handle = obj._live()
    try:
        cell, size = _cells.value
    except AttributeError:
        cell, size = _cells.value = (ffi.new("char[%d]" % _CELL_BYTES), ffi.new("size_t *"))
    if not _GETTERS[kind][0](handle, *extra, param, _CELL_BYTES, cell, size):
        n = size[0]
        if n <= _CELL_BYTES:
            return _DECODERS[decoder](cell if n else ffi.NULL, n)
    buf, n = query_raw(kind, handle, param, extra)
    return _DECODERS[decoder](buf, n)


# This thread's (value cell, size cell) of query's one-call answer.
_cells = threading.local()
_CELL_BYTES = 256


def _binaries(program: _Queryable, kind: Optional[str]) -> list[bytes]:
    """PROGRAM_BINARIES: the caller supplies one buffer per device."""
    sizes = query(program, kind, _constants.program_info.BINARY_SIZES)
    if not sizes:
        return []
    # A NULL entry asks for no binary of that device (the specification
    # skips it), so a device without a binary gets no buffer to write into.
    buffers = [ffi.new("unsigned char[]", n) if n else ffi.NULL for n in sizes]
    pointers = ffi.new("unsigned char *[]", buffers)
    status = lib.pycl_program_get_info(
        program._live(), _constants.program_info.BINARIES, ffi.sizeof(pointers), pointers, ffi.NULL
    )
    check(status, "clGetProgramInfo", "param BINARIES")
    return [ffi.buffer(b, n)[:] if n else b"" for b, n in zip(buffers, sizes)]
