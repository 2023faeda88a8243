"""pycl's exceptions and the one function that turns a shim status into one.

The classes keep PyOpenCL's names and also subclass the matching builtins, so
``except ValueError`` and ``except pycl.LogicError`` both catch a bad argument.
"""

from __future__ import annotations

import builtins
import os
import sys
from typing import TYPE_CHECKING, Any, Optional

from pycl._lib import ffi, lib

if TYPE_CHECKING:
    from types import FrameType

__all__ = ["ErrorRecord", "Error", "MemoryError", "LogicError", "RuntimeError", "UnavailableError"]


class ErrorRecord:
    """What a failed call reports, as PyOpenCL's ``_ErrorRecord``: the first
    argument of an ``Error`` that has a code, so that PyOpenCL's own Python
    layer (which reads ``error.args[0].code()``) runs over pycl's errors."""

    __slots__ = ("_what", "_code", "_routine")

    def __init__(self, msg: str, code: int, routine: Optional[str]) -> None:
        self._what, self._code, self._routine = msg, code, routine

    def routine(self) -> Optional[str]:
        return self._routine

    def code(self) -> int:
        return self._code

    def what(self) -> str:
        return self._what

    def is_out_of_memory(self) -> bool:
        return self._code in _MEMORY_CODES

    def __str__(self) -> str:
        return self._what

    def __repr__(self) -> str:
        return "ErrorRecord(%r, %d, %r)" % (self._what, self._code, self._routine)

    def __reduce__(self) -> tuple[type[ErrorRecord], tuple[str, int, Optional[str]]]:
        return (ErrorRecord, (self._what, self._code, self._routine))


class Error(Exception):
    """A failed OpenCL call or a check of pycl's own.

    ``code`` is the CL status, ``routine`` the CL entry point (or the pycl
    function, for pycl's own checks) and ``what`` the detail, if any; they
    live in an ``ErrorRecord``, the one argument. Code of one's own may raise
    one with a message only, as with PyOpenCL (``raise cl.LogicError("bad
    size")``): its ``what`` is the message and its ``routine`` and ``code``
    are None.
    """

    def __init__(self, routine: Any, code: Optional[int] = None, what: str = "") -> None:
        if code is None:
            # One argument: a message, or a record (PyOpenCL's layer raises those).
            super().__init__(routine)
        else:
            super().__init__(ErrorRecord(what, code, routine))

    @property
    def routine(self) -> Optional[str]:
        record = self.args[0] if self.args else None
        return record.routine() if isinstance(record, ErrorRecord) else None

    @property
    def code(self) -> Optional[int]:
        record = self.args[0] if self.args else None
        return record.code() if isinstance(record, ErrorRecord) else None

    @property
    def what(self) -> str:
        record = self.args[0] if self.args else ""
        return record.what() if isinstance(record, ErrorRecord) else str(record)

    def __str__(self) -> str:
        code = self.code
        if code is None:
            return self.what
        text = "%s failed: %s" % (self.routine, status_name(code))
        return "%s - %s" % (text, self.what) if self.what else text

    def __reduce__(self) -> tuple[type[Error], tuple[Any, ...]]:
        return (type(self), self.args)


class MemoryError(Error, builtins.MemoryError):
    """An allocation failed (device or host memory, or resources)."""


class LogicError(Error, builtins.ValueError):
    """An invalid argument, caught by pycl or reported by the driver."""


class RuntimeError(Error, builtins.RuntimeError):
    """A failure that is neither bad input nor lack of memory (e.g. a build)."""


class UnavailableError(Error, NotImplementedError):
    """The platform or device cannot do this (OpenCL version or capability)."""


_MEMORY_CODES = frozenset((lib.CL_MEM_OBJECT_ALLOCATION_FAILURE, lib.CL_OUT_OF_RESOURCES, lib.CL_OUT_OF_HOST_MEMORY))


def status_name(code: int) -> str:
    """The header name of a CL status, e.g. ``CL_INVALID_VALUE``."""
    name = lib.pycl_error_name(code)
    return ffi.string(name).decode() if name else "unknown status %d" % code


def error_for(code: int, routine: str, what: str = "") -> Error:
    """The exception for a failed shim call: the class follows the code."""
    if code == lib.PYCL_UNAVAILABLE:
        reason = ffi.string(lib.pycl_unavailable_reason()).decode()
        return UnavailableError(routine, code, "; ".join(x for x in (reason, what) if x))
    if code in _MEMORY_CODES:
        return MemoryError(routine, code, what)
    if code <= lib.CL_INVALID_VALUE:
        return LogicError(routine, code, what)
    return RuntimeError(routine, code, what)


def check(code: int, routine: str, what: str = "") -> None:
    """Raise for a non-zero status. Hot paths test ``if status:`` inline first."""
    if code:
        raise error_for(code, routine, what)


def logic_error(routine: str, what: str, code: int = lib.CL_INVALID_VALUE) -> LogicError:
    """pycl's own validation failure, raised before any C call."""
    return LogicError(routine, code, what)


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def caller_stacklevel() -> int:
    """The ``stacklevel`` for ``warnings.warn`` called from pycl that names
    the first frame outside the pycl package (pycl's routes are of varying
    depth)."""
    frame: Optional[FrameType] = sys._getframe(1)
    level = 1
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
        level += 1
    return level
