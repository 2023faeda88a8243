"""Programs, kernels, kernel arguments and ``enqueue_nd_range_kernel``."""

from __future__ import annotations

import os
import threading
import warnings
from typing import TYPE_CHECKING, Any, Optional, Union

from pycl import _info
from pycl import constants as _constants
from pycl._args import size_value, sizes
from pycl._capture_call import capture_kernel_call
from pycl._handle import Handle
from pycl._kernel_args import KernelArgs, LocalMemory
from pycl._launch import launch
from pycl._lib import ffi, lib
from pycl.errors import RuntimeError, UnavailableError, caller_stacklevel, check, error_for, logic_error
from pycl.platform import Device

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import overload

    from numpy.typing import DTypeLike

    from pycl._capture_call import OutputFile
    from pycl._typing import Extent, WaitList
    from pycl.context import Context
    from pycl.event import Event
    from pycl.queue import CommandQueue

__all__ = ["Program", "Kernel", "LocalMemory", "RepeatedKernelRetrieval", "enqueue_nd_range_kernel"]


def _build_options(options: Union[str, Iterable[str], None]) -> str:
    if isinstance(options, str):
        return options
    return " ".join(options or ())


def _with_arg_info(options: str) -> bytes:
    """The options a build or compile passes: the caller's, with
    ``-cl-kernel-arg-info``. Kernels then know their arguments' address
    spaces on every driver (PoCL and NVIDIA answer nothing without it), so
    that a value a driver would take as a memory object is refused
    (``KernelArgs.expected``). The option only stores the arguments'
    declarations; the driver's BUILD_OPTIONS report it."""
    if _ARG_INFO in options.split():
        return options.encode()
    return ("%s %s" % (options, _ARG_INFO) if options else _ARG_INFO).encode()


_ARG_INFO = "-cl-kernel-arg-info"


_SPIRV_MAGIC = (b"\x07\x23\x02\x03", b"\x03\x02\x23\x07")  # either byte order


def is_spirv(source: object) -> bool:
    """True if ``source`` is bytes that start with SPIR-V's magic number."""
    return isinstance(source, bytes) and source[:4] in _SPIRV_MAGIC


def _source_bytes(source: Union[str, bytes, bytearray, memoryview]) -> bytes:
    """OpenCL C source, given as text or (as PyOpenCL also takes it) bytes."""
    if isinstance(source, str):
        return source.encode()
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = bytes(source)
        if is_spirv(source):
            raise UnavailableError(
                "Program", lib.PYCL_UNAVAILABLE, "SPIR-V programs need clCreateProgramWithIL, which pycl does not wrap"
            )
        return source
    raise TypeError("Program: source must be a str or bytes, not %s" % type(source).__name__)


_BINARIES = _constants.program_info.BINARIES
_BINARY_SIZES = _constants.program_info.BINARY_SIZES


class Program(Handle):
    """``Program(context, source)`` or ``Program(context, devices, binaries)``."""

    # _built_for: the handles of the devices of pycl's last build, in the
    # order given, when they are fewer than the program's; else None (every
    # device, or not built by pycl). PoCL (the pip 3.0 and Debian's 3.1)
    # keeps only the last build's executables, still reports CL_BUILD_SUCCESS
    # for the devices an earlier build covered, lists binaries for the last
    # build's devices only, and crashes the process (3.0: a segfault; 3.1: a
    # failed assertion) when a kernel is enqueued for another device:
    # enqueue_nd_range_kernel refuses those queues, on every driver (a build
    # cannot tell pycl whether the driver kept the earlier ones), and
    # get_info aligns BINARIES/BINARY_SIZES with the program's devices.
    # _made_for: the devices pycl made it for (the context's for a source,
    # those of the binaries), None where pycl did not make it: a build without
    # devices is for these (PoCL 3.0 and 3.1 answer PROGRAM_DEVICES of a
    # program of sub-devices with other devices, as they answer
    # CONTEXT_DEVICES).
    __slots__ = ("_context", "_retrievals", "_built_for", "_made_for")
    _context: Context
    _retrievals: dict[str, int]
    _built_for: Optional[tuple[int, ...]]
    _made_for: Optional[list[Device]]
    _ctype = "cl_program"
    _retain = lib.pycl_program_retain
    _release = lib.pycl_program_release
    _info_kind = "program"
    _invalid_code = lib.CL_INVALID_PROGRAM

    if TYPE_CHECKING:
        # The two forms, for type checkers only (no code at run time).

        @overload
        def __init__(self, context: Context, arg1: Union[str, bytes, bytearray, memoryview]) -> None: ...
        @overload
        def __init__(self, context: Context, arg1: Sequence[Device], arg2: Sequence[bytes]) -> None: ...

    def __init__(self, context: Context, arg1: Any, arg2: Optional[Sequence[bytes]] = None) -> None:
        raw = ffi.new("cl_program *")
        if arg2 is None:
            source = _source_bytes(arg1)
            status = lib.pycl_program_create_with_source(context._live(), source, len(source), raw)
            check(status, "clCreateProgramWithSource")
        else:
            devices, binaries = list(arg1), [bytes(b) for b in arg2]
            if len(devices) != len(binaries):
                raise logic_error("Program", "got %d devices but %d binaries" % (len(devices), len(binaries)))
            ids = ffi.new("cl_device_id[]", [d._live() for d in devices])
            data = [ffi.from_buffer(b) for b in binaries]
            pointers = ffi.new("unsigned char *[]", [ffi.cast("unsigned char *", d) for d in data])
            lengths = ffi.new("size_t[]", [len(b) for b in binaries])
            statuses = ffi.new("cl_int[]", len(binaries))
            status = lib.pycl_program_create_with_binary(
                context._live(), len(devices), ids, lengths, pointers, statuses, raw
            )
            check(status, "clCreateProgramWithBinary", "binary statuses %s" % list(statuses))
        self._adopt(raw[0])
        self._context = context
        self._made_for = context.devices if arg2 is None else devices

    def _adopt(self, raw: Any) -> None:
        Handle._adopt(self, raw)
        self._retrievals = {}  # kernel name -> times retrieved as prg.<name>
        self._built_for = None
        self._made_for = None

    def _init_from_handle(self) -> None:
        self._context = self.get_info(_constants.program_info.CONTEXT)

    def build(
        self,
        options: Union[str, Iterable[str], None] = (),
        devices: Optional[Iterable[Device]] = None,
        cache_dir: Optional[str] = None,
    ) -> Program:
        """Build for ``devices`` (default: all of the program's, which are the
        context's unless it was made from binaries for some of them). A
        failed build raises ``pycl.RuntimeError`` whose message holds every
        device's log. ``cache_dir`` is accepted for PyOpenCL compatibility;
        the driver caches.

        Differs from PyOpenCL: a build replaces the earlier builds' devices.
        After ``build(devices=[a])``, kernels of the program run on ``a``'s
        queues only, and a queue of another device raises ``LogicError``
        (PoCL keeps only the last build's executables and crashes the
        process on such a queue; PyOpenCL passes the call on). Build once
        for every device that will run the program."""
        text = _build_options(options)
        devices = None if devices is None else list(devices)
        count, ids = _device_array(devices)
        status = lib.pycl_program_build(self._live(), count, ids, _with_arg_info(text))
        if status:
            raise error_for(status, "clBuildProgram", self._build_failure_detail(text, devices))
        if devices is None:
            devices = self._made_for if self._made_for is not None else self.devices
        self._note_built(devices)
        logs = [(device, self.get_build_info(device, _constants.program_build_info.LOG).strip()) for device in devices]
        said = "\n\n".join("build on %r succeeded, but said:\n%s" % (device.name, log) for device, log in logs if log)
        if said:
            compiler_output("Program.build succeeded with a non-empty build log:\n" + said)
        return self

    def compile(
        self,
        options: Union[str, Iterable[str], None] = (),
        devices: Optional[Iterable[Device]] = None,
        headers: Sequence[tuple[str, Program]] = (),
    ) -> Program:
        """Compile (OpenCL 1.2) for ``devices`` (default: all of the
        program's), without linking; ``headers`` are ``(include name,
        Program)`` pairs that ``#include`` finds. ``link_program`` links the
        results. A failed compile raises ``pycl.RuntimeError`` with the logs."""
        text = _build_options(options)
        devices = None if devices is None else list(devices)
        count, ids = _device_array(devices)
        headers = list(headers)
        for i, pair in enumerate(headers):
            if not (
                isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str) and isinstance(pair[1], Program)
            ):
                raise TypeError("Program.compile: headers[%d] must be a (str, Program) pair, not %r" % (i, pair))
        names = [ffi.new("char[]", name.encode()) for name, _ in headers]
        status = lib.pycl_program_compile(
            self._live(), count, ids, _with_arg_info(text), len(headers),
            ffi.new("cl_program[]", [prg._live() for _, prg in headers]) if headers else ffi.NULL,
            ffi.new("const char *[]", names) if headers else ffi.NULL,
        )  # fmt: skip
        if status:
            raise error_for(status, "clCompileProgram", self._build_failure_detail(text, devices))
        return self

    def _note_built(self, devices: Iterable[Device]) -> None:
        """Remember the devices of a successful build if they are fewer than
        the context's (a program made from binaries for some devices of its
        context counts as built for those only)."""
        built: Optional[tuple[int, ...]]
        built = tuple(d._ptr for d in devices)
        if set(built) >= set(d._ptr for d in self._context.devices):
            built = None
        self._built_for = built

    def get_info(self, param: int) -> Any:
        """A ``program_info`` value; BINARIES and BINARY_SIZES hold one entry
        per device of ``devices`` (an empty binary, size 0, for a device the
        last build left out), also where the driver lists the built ones
        only (Debian's PoCL 3.1)."""
        value = Handle.get_info(self, param)
        if self._built_for is not None and param in (_BINARIES, _BINARY_SIZES):
            devices = [d._ptr for d in self.devices]
            built = self._built_for
            if len(value) != len(devices) and len(value) == len(built):
                empty = b"" if param == _BINARIES else 0
                value = [value[built.index(d)] if d in built else empty for d in devices]
        return value

    def _build_failure_detail(self, options: str, devices: Optional[Iterable[Device]]) -> str:
        parts = ["options: %r" % options]
        for device in self.devices if devices is None else devices:
            try:
                log = self.get_build_info(device, _constants.program_build_info.LOG).strip()
            except (RuntimeError, ValueError):  # pycl.RuntimeError, pycl.LogicError
                log = "(no log)"
            parts.append("build on %r:\n%s" % (device.name, log or "(empty log)"))
        return "\n\n".join(parts)

    def get_build_info(self, device: Device, param: int) -> Any:
        """A ``program_build_info`` value for ``device``."""
        if not isinstance(device, Device):
            raise TypeError("get_build_info: device must be a pycl.Device")
        return _info.query(self, "program_build", param, (device._live(),))

    def all_kernels(self) -> list[Kernel]:
        """A Kernel for each kernel of the built program."""
        handle = self._live()
        count = ffi.new("cl_uint *")
        check(lib.pycl_kernel_create_all(handle, 0, ffi.NULL, count), "clCreateKernelsInProgram")
        if count[0] == 0:
            return []
        raws = ffi.new("cl_kernel[]", count[0])
        check(lib.pycl_kernel_create_all(handle, count[0], raws, ffi.NULL), "clCreateKernelsInProgram")
        return [Kernel._from_raw(raw, self) for raw in raws]

    def __getattr__(self, name: str) -> Any:
        # Kernels by name (info attributes such as program.source are
        # descriptors, found before this is called). As in PyOpenCL, each
        # retrieval is a new, independent kernel (no argument state shared
        # between retrievals or threads), and the second retrieval of a name
        # warns RepeatedKernelRetrieval.
        if name.startswith("_"):
            raise AttributeError(name)
        param = _info.param_for_attribute("program", name)
        if param is not None:  # an info attribute that raised AttributeError
            return self.get_info(param)
        try:
            kernel = Kernel(self, name)
            kernel.num_args  # noqa: B018 (NVIDIA creates kernels of unknown names; this query fails)
        except Exception as error:
            raise AttributeError("%r is neither a program_info attribute nor a kernel: %s" % (name, error)) from error
        count = self._retrievals[name] = self._retrievals.get(name, 0) + 1
        if count == 2:
            warnings.warn(
                "Kernel '%s' has been retrieved more than once. Each retrieval creates a new, independent kernel, "
                "at possibly considerable expense. To avoid the expense, reuse the retrieved kernel instance. "
                "To avoid this warning, use cl.Kernel(prg, name)." % name,
                RepeatedKernelRetrieval,
                stacklevel=2,
            )
        return kernel


class CompilerWarning(UserWarning):
    """A build succeeded and the compiler said something (PyOpenCL's)."""


_TRUE_WORDS = frozenset(("1", "y", "yes", "t", "true", "on"))


def compiler_output(text: str) -> None:
    """Warn ``CompilerWarning``: ``text`` itself if the environment variable
    PYOPENCL_COMPILER_OUTPUT is true (1, yes, true, on), else a hint to set it."""
    if os.environ.get("PYOPENCL_COMPILER_OUTPUT", "").strip().lower() in _TRUE_WORDS:
        message = text
    else:
        message = (
            "Non-empty compiler output encountered. "
            "Set the environment variable PYOPENCL_COMPILER_OUTPUT=1 to see more."
        )
    warnings.warn(message, CompilerWarning, stacklevel=caller_stacklevel())


class RepeatedKernelRetrieval(UserWarning):
    """``prg.<kernel name>`` was used more than once (each use makes a new kernel)."""


_making_cells = threading.Lock()


def _device_array(devices: Optional[Iterable[Device]]) -> tuple[int, Any]:
    """(count, cl_device_id[] or NULL) for a call's optional device list."""
    if devices is None:
        return 0, ffi.NULL
    handles = [d._live() for d in devices]
    return len(handles), ffi.new("cl_device_id[]", handles)


def link_program(
    context: Context,
    programs: Sequence[Program],
    options: Union[str, Iterable[str], None] = (),
    devices: Optional[Iterable[Device]] = None,
) -> Program:
    """Link compiled programs (``Program.compile``; OpenCL 1.2) into a new,
    built program of ``context`` for ``devices`` (default: the context's).
    Linked for some devices only, its kernels run on those devices' queues
    only, as after ``Program.build(devices=...)``."""
    programs = list(programs)
    for i, prg in enumerate(programs):
        if not isinstance(prg, Program):
            raise TypeError("link_program: programs[%d] must be a Program, not %s" % (i, type(prg).__name__))
    text = _build_options(options)
    devices = None if devices is None else list(devices)
    count, ids = _device_array(_devices_to_link(programs, devices))
    raw = ffi.new("cl_program *")
    status = lib.pycl_program_link(
        context._live(),
        count,
        ids,
        text.encode(),
        len(programs),
        ffi.new("cl_program[]", [p._live() for p in programs]),
        raw,
    )
    if status:
        check(status, "clLinkProgram", "options: %r" % text)
    linked = _new_program(raw[0], context)
    if devices is not None:
        # built for these only (PoCL 3.0 and 3.1 crash the process when a
        # kernel of it is enqueued for another device, as after a build)
        linked._note_built(devices)
    return linked


def _devices_to_link(programs: list[Program], devices: Optional[list[Device]]) -> Optional[list[Device]]:
    """The devices to hand clLinkProgram for ``devices``. Debian's PoCL 3.1
    fails an assertion and aborts the process (`device ==
    input_programs[i]->devices[device_i]`, pocl_driver_link_program) unless
    they are the first of the programs' devices, in order: on PoCL anything
    else is linked for every device, and runs on ``devices`` only all the
    same (link_program marks it built for them)."""
    if devices is None or not programs or "PoCL" not in devices[0].platform.version:
        return devices
    first = [d._ptr for d in programs[0].devices[: len(devices)]]
    return devices if first == [d._ptr for d in devices] else None


def create_program_with_built_in_kernels(context: Context, devices: Iterable[Device], kernel_names: str) -> Program:
    """A program of the devices' built-in kernels (``kernel_names``:
    semicolon-separated; OpenCL 1.2)."""
    count, ids = _device_array(devices)
    raw = ffi.new("cl_program *")
    status = lib.pycl_program_create_with_built_in_kernels(context._live(), count, ids, kernel_names.encode(), raw)
    if status:
        check(status, "clCreateProgramWithBuiltInKernels", "kernel_names %r" % kernel_names)
    return _new_program(raw[0], context)


def _new_program(raw: Any, context: Context) -> Program:
    """A Program owning ``raw``, a program of ``context`` that a call made."""
    prg = Program.__new__(Program)
    prg._adopt(raw)
    prg._context = context
    return prg


class Kernel(Handle):
    """``Kernel(program, name)``. Arguments: memory objects, ``LocalMemory``,
    samplers, SVM pointers, numpy scalars or buffer-protocol bytes, ``None``
    for a NULL buffer. Plain Python ints and floats are rejected unless
    ``set_scalar_arg_dtypes`` says which type they are. The arguments live in
    cells of this object (``pycl._kernel_args``) that a launch hands to the
    driver; threads that use one kernel object take turns."""

    # _arg_cells: the argument cells, made at the first argument
    # _fill: fills them from a full argument list (KernelArgs.put_all)
    # _exec_info: {param: (size, value cdata, objects kept alive)} of
    # set_kernel_exec_info, applied again to a renewed kernel
    __slots__ = ("_program", "_arg_cells", "_fill", "_exec_info")
    _program: Program
    _arg_cells: Optional[KernelArgs]
    _fill: Callable[[Kernel, Sequence[Any], str], None]
    _exec_info: dict[int, tuple[int, Any, Any]]
    _ctype = "cl_kernel"
    _retain = lib.pycl_kernel_retain
    _release = lib.pycl_kernel_release
    _info_kind = "kernel"
    _invalid_code = lib.CL_INVALID_KERNEL

    def __init__(self, program: Program, name: str) -> None:
        raw = ffi.new("cl_kernel *")
        check(lib.pycl_kernel_create(program._live(), name.encode(), raw), "clCreateKernel", "kernel %r" % name)
        self._adopt(raw[0])
        self._program = program

    @classmethod
    def _from_raw(cls, raw: Any, program: Program) -> Kernel:
        self = cls._wrap(raw)
        self._program = program
        return self

    def _adopt(self, raw: Any) -> None:
        Handle._adopt(self, raw)  # the caller sets _program
        self._arg_cells = None
        self._exec_info = {}

    def _init_from_handle(self) -> None:
        self._program = self.get_info(_constants.kernel_info.PROGRAM)

    def _cells(self) -> KernelArgs:
        """The argument cells, made at the first use."""
        with _making_cells:  # one set of cells, whichever thread comes first
            cells = self._arg_cells
            if cells is None:
                self._live()
                ki = _constants.kernel_info
                count = self.get_info(ki.NUM_ARGS)
                cells = KernelArgs(
                    count, self.function_name, self.get_info(ki.CONTEXT)._ptr, _address_spaces(self._handle, count)
                )
                self._fill = cells.put_all
                self._arg_cells = cells
        return cells

    def release(self) -> None:
        """Release the kernel now; a launch under way in another thread ends first."""
        cells = self._arg_cells
        if cells is None:
            Handle.release(self)
        else:
            with cells.lock:
                Handle.release(self)

    def set_scalar_arg_dtypes(self, arg_types: Iterable[DTypeLike]) -> None:
        """One numpy dtype (for scalar arguments) or None per argument: a
        declared argument takes Python numbers (``struct.pack``'s rules, as
        PyOpenCL: no float for an integer dtype, nothing out of range)."""
        cells = self._cells()
        with cells.lock:
            cells.declare(arg_types, "Kernel.set_scalar_arg_dtypes")
            self._fill = cells.put_all  # the kernel's own fill read the cells of before

    def set_arg(self, index: int, arg: Any) -> None:
        """Set argument ``index`` (from 0) to ``arg``, one of the kinds the
        class docstring lists."""
        cells = self._arg_cells
        if cells is None:
            cells = self._cells()
        index = cells.checked_index(index, "Kernel.set_arg")
        if arg is cells.held[index] and cells.stable[index] and cells.formats[index] is None:
            if arg._handle is not None:
                return  # the same live memory object again, as KernelArgs.put_pairs skips it
        with cells.lock:
            cells.put(self, index, arg, "Kernel.set_arg")
            cells.apply(self._live())

    def set_args(self, *args: Any) -> None:
        """Set every argument, in order: ``set_arg(i, args[i])``."""
        cells = self._cells()
        if len(args) != cells.count:
            cells.check_count(args, "Kernel.set_args")
        with cells.lock:
            self._fill(self, args, "Kernel.set_args")
            cells.apply(self._live())

    def _renew(self) -> None:
        """A fresh cl_kernel for this object, its arguments set again: an
        argument set as an SVM pointer and then as anything else fails at
        enqueue with CL_INVALID_KERNEL_ARGS on NVIDIA (CUDA 13.0, driver
        580; clearing it first does not help). PyOpenCL's ``prg.knl``
        escapes this by making a new kernel at each retrieval. Done on every
        driver, so that every device tests it; ``int_ptr`` changes."""
        program = self._program
        raw = ffi.new("cl_kernel *")
        name = self.function_name
        check(lib.pycl_kernel_create(program._live(), name.encode(), raw), "clCreateKernel", "kernel %r" % name)
        old = self._handle
        Handle._adopt(self, raw[0])
        ffi.release(old)
        self._arg_cells.remark()  # type: ignore[union-attr]  # only cells renew their kernel
        for param, (size, value, _) in self._exec_info.items():
            check(lib.pycl_kernel_set_exec_info(self._handle, param, size, value), "clSetKernelExecInfo")

    def clone(self) -> Kernel:
        """A new kernel object of the same program and function, with this
        one's arguments and exec info (OpenCL 2.1's ``clCloneKernel``; the
        clone keeps the argument objects alive as this one does)."""
        cells = self._arg_cells
        if cells is not None:
            cells.lock.acquire()
        try:
            raw = ffi.new("cl_kernel *")
            check(lib.pycl_kernel_clone(self._live(), raw), "clCloneKernel")
            clone = type(self)._from_raw(raw[0], self._program)
            if cells is not None:
                cells.copy_to(clone._cells())
            clone._exec_info = dict(self._exec_info)
        finally:
            if cells is not None:
                cells.lock.release()
        return clone

    def get_sub_group_info(self, device: Device, param: int, input_value: Any = None) -> Any:
        """A ``kernel_sub_group_info`` value for ``device`` (OpenCL 2.1):
        ``input_value`` is the local size (1 to 3 ints) for
        MAX_SUB_GROUP_SIZE_FOR_NDRANGE and SUB_GROUP_COUNT_FOR_NDRANGE, the
        sub-group count for LOCAL_SIZE_FOR_SUB_GROUP_COUNT (which answers a
        list of ints), and None for the others."""
        routine = "Kernel.get_sub_group_info"
        info = _constants.kernel_sub_group_info
        if param in (info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, info.SUB_GROUP_COUNT_FOR_NDRANGE):
            local = sizes(input_value, "input_value", routine)
            if not 1 <= len(local) <= 3:
                raise logic_error(routine, "input_value = %r must have 1 to 3 entries" % (local,))
            given = ffi.new("size_t[]", list(local))
        elif param == info.LOCAL_SIZE_FOR_SUB_GROUP_COUNT:
            given = ffi.new("size_t *", size_value(input_value, "input_value", routine))
        elif param in (info.MAX_NUM_SUB_GROUPS, info.COMPILE_NUM_SUB_GROUPS):
            if input_value is not None:
                raise logic_error(routine, "param %r takes no input_value, got %r" % (param, input_value))
            given = ffi.NULL
        else:
            raise logic_error(routine, "param = %r is no kernel_sub_group_info value" % (param,), lib.CL_INVALID_VALUE)
        kernel, dev = self._live(), device._live()
        # OpenCL 3.0: a device without sub-groups reports 0 of them, and the
        # query fails with CL_INVALID_OPERATION (PoCL 3.0 and 3.1 on the CPU)
        device.require((2, 1), routine)
        if not device.get_info(_constants.device_info.MAX_NUM_SUB_GROUPS):
            raise UnavailableError(
                routine,
                lib.PYCL_UNAVAILABLE,
                "%s needs a device with sub-groups; device %r reports max_num_sub_groups 0" % (routine, device.name),
            )
        given_size = 0 if given == ffi.NULL else ffi.sizeof(given)

        def query(size: int, value: Any, size_ret: Any) -> None:
            status = lib.pycl_kernel_get_sub_group_info(kernel, dev, param, given_size, given, size, value, size_ret)
            check(status, "clGetKernelSubGroupInfo")

        if param != info.LOCAL_SIZE_FOR_SUB_GROUP_COUNT:
            value = ffi.new("size_t *")
            query(ffi.sizeof(value), value, ffi.NULL)
            return int(value[0])
        size = ffi.new("size_t *")
        query(0, ffi.NULL, size)
        if not size[0]:
            return []
        local = ffi.new("size_t[]", size[0] // ffi.sizeof("size_t"))
        query(ffi.sizeof(local), local, ffi.NULL)
        return [int(n) for n in local]

    def get_work_group_info(self, param: int, device: Device) -> Any:
        """A ``kernel_work_group_info`` value for ``device``."""
        return _info.query(self, "kernel_work_group", param, (device._live(),))

    def get_arg_info(self, index: int, param_name: int) -> Any:
        """A ``kernel_arg_info`` value (OpenCL 1.2; the program may need
        ``-cl-kernel-arg-info``)."""
        return _info.query(self, "kernel_arg", param_name, (index,))

    def capture_call(
        self,
        output_file: OutputFile,
        queue: CommandQueue,
        global_size: Union[int, Extent],
        local_size: Optional[Union[int, Extent]],
        *args: Any,
        **kwargs: Any,
    ) -> None:
        """Write a standalone script that repeats this call with the arguments
        as they are now (``pycl._capture_call.capture_kernel_call``)."""
        return capture_kernel_call(self, output_file, queue, global_size, local_size, *args, **kwargs)

    def _scalar_bytes(self, index: int, arg: Any) -> Optional[bytes]:
        """The bytes ``arg`` passes as argument ``index`` if its dtype was
        declared, else None (``capture_call``)."""
        return self._cells().scalar_bytes(index, arg)

    def __call__(
        self,
        queue: CommandQueue,
        global_size: Union[int, Extent],
        local_size: Optional[Union[int, Extent]],
        *args: Any,
        global_offset: Optional[Union[int, Extent]] = None,
        wait_for: WaitList = None,
        g_times_l: bool = False,
        allow_empty_ndrange: bool = False,
    ) -> Event:
        """Set every argument from ``args`` and enqueue (as PyOpenCL, all of
        them, every call)."""
        cells = self._arg_cells
        if cells is None:
            cells = self._cells()
        if len(args) != cells.count:
            cells.check_count(args, "Kernel.__call__")
        # acquire/release: cheaper than a with block on CPython
        # (docs/design.md, "Enqueue routes")
        lock = cells.lock
        lock.acquire()
        try:
            self._fill(self, args, "Kernel.__call__")
            return launch(
                queue, self, cells, global_size, local_size, global_offset, wait_for, g_times_l,
                allow_empty_ndrange, _CALL_NAMES, True,
            )  # fmt: skip
        finally:
            lock.release()


def _address_spaces(kernel: Any, count: int) -> Optional[list[int]]:
    """Each argument's ``CL_KERNEL_ARG_ADDRESS_QUALIFIER``, or None where the
    driver does not tell (NVIDIA without ``-cl-kernel-arg-info``, OpenCL
    before 1.2): ``KernelArgs.put`` checks the kind of what is set."""
    cell = ffi.new("cl_uint *")  # cl_kernel_arg_address_qualifier
    spaces = []
    for index in range(count):
        if lib.pycl_kernel_get_arg_info(kernel, index, _ADDRESS_QUALIFIER, ffi.sizeof("cl_uint"), cell, ffi.NULL):
            return None
        spaces.append(cell[0])
    return spaces


_ADDRESS_QUALIFIER = lib.CL_KERNEL_ARG_ADDRESS_QUALIFIER


# The names of the work sizes in messages: those the caller used.
_CALL_NAMES = ("global_size", "local_size", "global_offset")
_ENQUEUE_NAMES = ("global_work_size", "local_work_size", "global_work_offset")


def enqueue_nd_range_kernel(
    queue: CommandQueue,
    kernel: Kernel,
    global_work_size: Union[int, Extent],
    local_work_size: Optional[Union[int, Extent]],
    global_work_offset: Optional[Union[int, Extent]] = None,
    wait_for: WaitList = None,
    g_times_l: bool = False,
    allow_empty_ndrange: bool = False,
) -> Event:
    """Enqueue ``kernel`` over an NDRange with the arguments set before;
    returns an Event. The parameters are named and ordered as PyOpenCL's
    implementation has them (its stub says ``global_offset`` and
    keyword-only flags; code written against it fails there too)."""
    try:
        cells = kernel._arg_cells
    except AttributeError:
        raise TypeError(
            "enqueue_nd_range_kernel: kernel must be a pycl.Kernel, not %s" % type(kernel).__name__
        ) from None
    if cells is None:
        cells = kernel._cells()
    lock = cells.lock
    lock.acquire()
    try:
        return launch(
            queue, kernel, cells, global_work_size, local_work_size, global_work_offset, wait_for, g_times_l,
            allow_empty_ndrange, _ENQUEUE_NAMES,
        )  # fmt: skip
    finally:
        lock.release()


def _wrap_program(raw: Any) -> Program:
    return Program.from_int_ptr(int(ffi.cast("intptr_t", raw)))


_info.register_wrapper("program", _wrap_program)
