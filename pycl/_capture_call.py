"""``capture_kernel_call``: write a standalone Python script that repeats one
kernel call (``Kernel.capture_call`` in PyOpenCL).

The script holds the program source, the build options, the name of the
platform and device of the queue, the global and local sizes and every
argument: buffer and SVM contents as they are just before the call (read
back from the device, compressed and base64-encoded), scalars as numpy
scalars of their dtype, ``None``, ``LocalMemory`` sizes and raw bytes. It
uses only API that pycl and PyOpenCL share, so it runs with either.
"""

from __future__ import annotations

import ast
import base64
import os
import zlib
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from pycl import constants as _constants
from pycl._kernel_args import LocalMemory
from pycl._launch import work_sizes
from pycl.errors import Error, logic_error
from pycl.memory import Buffer, MemoryObject
from pycl.transfer import enqueue_copy

if TYPE_CHECKING:
    from typing import Protocol

    from _typeshed import SupportsWrite

    from pycl._typing import Extent, WaitList
    from pycl.platform import Device
    from pycl.queue import CommandQueue

    # Where the script goes: a path, or a text file object (anything with
    # ``write(str)``).
    OutputFile = Union[str, os.PathLike[str], SupportsWrite[str]]

    class _Kernel(Protocol):
        """What is read of a ``pycl.Kernel`` (pycl.program imports this
        module, so it is not imported here)."""

        def _scalar_bytes(self, index: int, arg: Any) -> Optional[bytes]: ...

        @property
        def function_name(self) -> str: ...
        @property
        def program(self) -> Any: ...


__all__ = ["capture_kernel_call"]

_ROUTINE = "capture_kernel_call"
_mf = _constants.mem_flags
_ACCESS_FLAGS = (("READ_WRITE", _mf.READ_WRITE), ("READ_ONLY", _mf.READ_ONLY), ("WRITE_ONLY", _mf.WRITE_ONLY))
# Up to this many bytes an argument is written as bytes.fromhex(...) inline;
# above, as compressed base64 data at the end of the script.
_INLINE_BYTES = 64
_DATA_LINE = 76


def capture_kernel_call(
    kernel: _Kernel,
    output_file: OutputFile,
    queue: CommandQueue,
    global_size: Union[int, Extent],
    local_size: Optional[Union[int, Extent]],
    *args: Any,
    **kwargs: Any,
) -> None:
    """Write a Python script to ``output_file`` (a path or a text file object)
    that builds ``kernel``'s program and calls ``kernel(queue, global_size,
    local_size, *args, **kwargs)`` once, with the arguments as they are now.
    Nothing is enqueued on ``queue`` except the reads of buffer and SVM
    arguments, which wait for ``wait_for``.

    The script imports ``pycl as cl`` and falls back on ``pyopencl as cl``: it
    uses only API that both share, so it runs with either (change its import
    line to choose PyOpenCL). ``python script.py [RESULT.npz]`` picks the
    recorded device (or, if ``PYOPENCL_CTX`` is set or the device is absent,
    ``cl.create_some_context(interactive=False)``), repeats the call and,
    given a path, saves the contents of every buffer and SVM argument after
    the call with ``numpy.savez`` as uint8 arrays named ``arg<index>``.

    Captured: ``Buffer`` (its access flags and contents; a sub-buffer becomes
    a buffer of its own, so only arguments that are the same memory object
    or the same SVM range share memory in the script), SVM pointers of known
    size (as coarse-grain SVM), ``LocalMemory``, ``None``, numpy scalars,
    buffer-protocol objects (raw bytes) and arguments converted by
    ``set_scalar_arg_dtypes`` (as their bytes). Images, pipes, samplers and
    Python scalars without a declared dtype raise ``TypeError`` naming the
    argument; a program without source (built from binaries) raises
    ``LogicError``.
    """
    unknown = set(kwargs) - {"wait_for", "g_times_l", "allow_empty_ndrange", "global_offset"}
    if unknown:
        raise TypeError("%s: unexpected keyword argument(s) %s" % (_ROUTINE, ", ".join(sorted(unknown))))
    wait_for = kwargs.get("wait_for")
    global_size = work_sizes(global_size, "global_size")
    local_size = None if local_size is None else work_sizes(local_size, "local_size", len(global_size), "global_size")
    if kwargs.get("g_times_l"):
        if local_size is None:
            raise logic_error(_ROUTINE, "g_times_l needs a local_size")
        global_size = tuple(g * n for g, n in zip(global_size, local_size))
    offset = kwargs.get("global_offset")
    offset = None if offset is None else work_sizes(offset, "global_offset", len(global_size), "global_size")

    device = queue.device
    program = kernel.program
    source = program.source
    if not source:
        raise logic_error(
            _ROUTINE, "the program of kernel %r has no source (built from binaries?)" % kernel.function_name
        )
    options = program.get_build_info(device, _constants.program_build_info.OPTIONS)

    capture = _Capture(queue, wait_for)
    names = [capture.argument(index, arg, kernel._scalar_bytes(index, arg)) for index, arg in enumerate(args)]

    text = _script(
        kernel.function_name,
        source,
        options,
        device,
        global_size,
        local_size,
        offset,
        bool(kwargs.get("allow_empty_ndrange")),
        capture,
        names,
    )
    if isinstance(output_file, (str, os.PathLike)):
        with open(output_file, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        output_file.write(text)


class _Capture:
    """The script's lines that make the arguments, the data they decode, and
    the arguments whose contents the script saves after the call."""

    def __init__(self, queue: CommandQueue, wait_for: WaitList) -> None:
        self.queue = queue
        self.wait_for = wait_for
        self.setup: list[str] = []  # lines of main() before the call
        self.data: list[tuple[str, bytes]] = []  # (constant name, bytes)
        self.results: list[tuple[str, int]] = []  # (variable name, bytes) of the buffers and SVM to save
        self.seen: dict[tuple[Any, ...], str] = {}  # memory identity -> variable name (arguments passed twice)

    def argument(self, index: int, arg: Any, declared: Optional[bytes]) -> str:
        """The script's expression for argument ``index`` (``declared``: its
        bytes where set_scalar_arg_dtypes declared its dtype)."""
        try:
            return self._argument(index, arg, declared)
        except Error as error:  # a released object, a failed read
            raise logic_error(_ROUTINE, "cannot capture argument %d (%r): %s" % (index, arg, error)) from error

    def _argument(self, index: int, arg: Any, declared: Optional[bytes]) -> str:
        if declared is not None:
            # set_scalar_arg_dtypes' conversion: its bytes are what the kernel gets.
            return self.raw(index, declared, "%r converted by set_scalar_arg_dtypes" % (arg,))
        if arg is None:
            return "None"
        if isinstance(arg, LocalMemory):
            return "cl.LocalMemory(%d)" % arg.size
        if getattr(arg, "_is_svm_pointer", False):
            return self.svm(index, arg)
        if isinstance(arg, Buffer):
            return self.buffer(index, arg)
        if isinstance(arg, MemoryObject) or hasattr(arg, "_kernel_arg"):
            raise TypeError(
                "%s: argument %d (%s) cannot be captured: only buffers and SVM are"
                % (_ROUTINE, index, type(arg).__name__)
            )
        if isinstance(arg, (bool, int, float, complex)) and not isinstance(arg, np.generic):
            raise TypeError(
                "%s: argument %d is a Python %s, whose size OpenCL cannot know: pass a numpy scalar "
                "or declare it with set_scalar_arg_dtypes" % (_ROUTINE, index, type(arg).__name__)
            )
        if isinstance(arg, np.void):  # a structured scalar (cltypes vectors): its bytes
            return self.raw(index, arg.tobytes(), "a structured numpy scalar (%d bytes)" % arg.dtype.itemsize)
        if isinstance(arg, np.generic):
            return _scalar(arg)
        try:
            data = memoryview(arg).tobytes()
        except TypeError:
            raise TypeError(
                "%s: argument %d of type %s is not a buffer, SVM pointer, LocalMemory, None, numpy scalar or "
                "buffer-protocol object" % (_ROUTINE, index, type(arg).__name__)
            ) from None
        return self.raw(index, data, "%d bytes of a %s" % (len(data), type(arg).__name__))

    def raw(self, index: int, data: bytes, comment: str) -> str:
        name = "arg%d" % index
        comment = " ".join(comment.split())[:100]  # one line, whatever the repr it holds
        self.setup.append("%s = %s  # %s" % (name, self.bytes_expression(name, data), comment))
        return name

    def bytes_expression(self, name: str, data: bytes) -> str:
        if len(data) <= _INLINE_BYTES:
            return "bytes.fromhex(%r)" % data.hex()
        constant = name.upper() + "_DATA"
        self.data.append((constant, data))
        return "unpack(%s)" % constant

    def read(self, arg: Any, size: int) -> bytes:
        """``arg``'s bytes, after ``wait_for``."""
        host = np.empty(size, np.uint8)
        if isinstance(arg, Buffer) and arg.flags & (_mf.HOST_WRITE_ONLY | _mf.HOST_NO_ACCESS):
            # The host may not read it: copy it on the device first.
            readable = Buffer(self.queue.context, _mf.READ_WRITE, size)
            enqueue_copy(self.queue, readable, arg, wait_for=self.wait_for)
            enqueue_copy(self.queue, host, readable)
        else:
            enqueue_copy(self.queue, host, arg, wait_for=self.wait_for)
        return host.tobytes()

    def buffer(self, index: int, arg: Buffer) -> str:
        key = ("buffer", arg.int_ptr)
        if key in self.seen:
            return self.seen[key]
        data = self.read(arg, arg.size)
        access = [name for name, flag in _ACCESS_FLAGS if arg.flags & flag] or ["READ_WRITE"]
        flags = " | ".join("cl.mem_flags.%s" % name for name in access + ["COPY_HOST_PTR"])
        name = "arg%d" % index
        self.setup.append("%s = cl.Buffer(ctx, %s, hostbuf=%s)" % (name, flags, self.bytes_expression(name, data)))
        self.results.append((name, arg.size))
        self.seen[key] = name
        return name

    def svm(self, index: int, arg: Any) -> str:
        size = arg.size
        if not size:
            raise TypeError(
                "%s: argument %d (%r): SVM of unknown or zero size cannot be captured" % (_ROUTINE, index, arg)
            )
        key = ("svm", arg.svm_ptr, size)
        if key in self.seen:
            return self.seen[key]
        data = self.read(arg, size)
        name = "arg%d" % index
        self.setup.append("%s = cl.SVM(cl.csvm_empty(ctx, %d, np.uint8, queue=queue))" % (name, size))
        # bytearray: PyOpenCL wraps the host side in cl.SVM, which wants writable memory.
        self.setup.append("cl.enqueue_copy(queue, %s, bytearray(%s))" % (name, self.bytes_expression(name, data)))
        self.results.append((name, size))
        self.seen[key] = name
        return name


def _scalar(value: np.generic) -> str:
    """A numpy scalar as an expression that makes exactly it again."""
    dtype = value.dtype
    name = "np.%s" % dtype.type.__name__
    if dtype.kind in "iu":
        return "%s(%d)" % (name, int(value))
    # These kinds convert to Python floats exactly, and the repr of a finite
    # float reads back to the same value (a complex's own repr loses the sign
    # of a zero real part: "(-0-0j)").
    if dtype.kind == "f" and dtype.itemsize <= 8 and np.isfinite(value):
        return "%s(%r)" % (name, float(value))
    if dtype.kind == "c" and dtype.itemsize <= 16 and np.isfinite(value):
        return "%s(complex(%r, %r))" % (name, float(value.real), float(value.imag))
    # Anything else (NaN and infinities, long double, bool) by its bytes.
    return "np.frombuffer(bytes.fromhex(%r), %r)[0]" % (value.tobytes().hex(), dtype.str)


def _string_literal(text: str) -> str:
    """A Python literal of ``text``: raw triple-quoted where that reads back
    exactly (multi-line kernel sources stay readable), else its repr."""
    # A file's line ends read back as "\n", so a "\r" would not survive; a
    # NUL cannot be in a Python file.
    if "\r" not in text and "\0" not in text:
        literal = 'r"""%s"""' % text
        try:
            if ast.literal_eval(literal) == text:
                return literal
        except (SyntaxError, ValueError):  # a '"""' or a final backslash ends the literal early
            pass
    return repr(text)


def _script(
    function_name: str,
    source: str,
    options: str,
    device: Device,
    global_size: tuple[int, ...],
    local_size: Optional[tuple[int, ...]],
    offset: Optional[tuple[int, ...]],
    allow_empty: bool,
    capture: _Capture,
    names: list[str],
) -> str:
    platform = device.platform
    call_keywords = ""
    if offset is not None:
        call_keywords += ", global_offset=GLOBAL_OFFSET"
    if allow_empty:
        call_keywords += ", allow_empty_ndrange=True"
    lines = [
        '"""One call of the OpenCL kernel %r, captured by pycl._capture_call.' % function_name,
        "",
        "Runs with pycl or PyOpenCL (change the import below to choose PyOpenCL):",
        "",
        "    python THIS_SCRIPT [RESULT.npz]",
        "",
        "builds the program, makes the arguments as they were just before the",
        "captured call, calls the kernel once and, given a path, saves the",
        "contents of every buffer and SVM argument after the call with",
        "numpy.savez, as uint8 arrays named arg<index>. The device is the",
        "recorded one, unless PYOPENCL_CTX is set or the device is absent: then",
        "cl.create_some_context(interactive=False) chooses.",
        '"""',
        "",
        "import os",
        "import sys",
        "from base64 import b64decode",
        "from zlib import decompress",
        "",
        "import numpy as np",
        "",
        "try:",
        "    import pycl as cl",
        "except ImportError:",
        "    import pyopencl as cl",
        "",
        "PLATFORM_NAME = %r" % platform.name,
        "PLATFORM_VERSION = %r" % platform.version,
        "DEVICE_NAME = %r" % device.name,
        "KERNEL_NAME = %r" % function_name,
        "BUILD_OPTIONS = %r" % options,
        "GLOBAL_SIZE = %r" % (global_size,),
        "LOCAL_SIZE = %r" % (local_size,),
        "GLOBAL_OFFSET = %r" % (offset,),
        "",
        "SOURCE = %s" % _string_literal(source),
        "",
        "",
        "def unpack(data):",
        "    return decompress(b64decode(data))",
        "",
        "",
        "def pick_context():",
        '    if not os.environ.get("PYOPENCL_CTX"):',
        "        # The recorded device; where two installations of the platform",
        "        # have it, the one of the recorded version.",
        "        found = [",
        "            (platform.version == PLATFORM_VERSION, device)",
        "            for platform in cl.get_platforms()",
        "            if platform.name == PLATFORM_NAME",
        "            for device in platform.get_devices()",
        "            if device.name == DEVICE_NAME",
        "        ]",
        "        if found:",
        "            return cl.Context([max(found, key=lambda pair: pair[0])[1]])",
        '        print("device %r of platform %r not found" % (DEVICE_NAME, PLATFORM_NAME), file=sys.stderr)',
        "    return cl.create_some_context(interactive=False)",
        "",
        "",
        "def main(result_path=None):",
        "    ctx = pick_context()",
        "    queue = cl.CommandQueue(ctx)",
        "    program = cl.Program(ctx, SOURCE).build(options=BUILD_OPTIONS)",
        "    kernel = cl.Kernel(program, KERNEL_NAME)",
        "",
    ]
    lines += ["    " + line for line in capture.setup]
    lines += [
        "",
        "    kernel(queue, GLOBAL_SIZE, LOCAL_SIZE%s%s)" % ("".join(", " + n for n in names), call_keywords),
        "    queue.finish()",
        "",
        "    results = {}",
    ]
    for name, size in capture.results:
        lines += [
            "    results[%r] = np.empty(%d, np.uint8)" % (name, size),
            "    cl.enqueue_copy(queue, results[%r], %s)" % (name, name),
        ]
    lines += [
        "    if result_path is not None:",
        "        np.savez(result_path, **results)",
        "    return results",
        "",
    ]
    for constant, data in capture.data:
        encoded = base64.b64encode(zlib.compress(data, 9)).decode("ascii")
        lines.append("")
        lines.append("%s = (" % constant)
        lines += ["    %r" % encoded[i : i + _DATA_LINE] for i in range(0, len(encoded), _DATA_LINE)]
        lines.append(")")
    lines += [
        "",
        "",
        'if __name__ == "__main__":',
        "    main(sys.argv[1] if len(sys.argv) > 1 else None)",
        "",
    ]
    return "\n".join(lines)
