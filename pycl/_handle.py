"""The base of every pycl object that wraps an OpenCL handle.

One owner per native handle: the handle cdata carries ``ffi.gc`` with the
shim's C release function, so collection releases it without running Python,
and ``release()`` frees it at once through ``ffi.release``. A second explicit
``release()`` and any use after release raise ``LogicError`` naming the object.
Parents (the context of a queue, ...) are kept alive by plain attributes.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Optional, TypeVar

from pycl import _info
from pycl._lib import ffi, lib
from pycl.errors import check, logic_error

if TYPE_CHECKING:
    from types import TracebackType

    from pycl.errors import LogicError

__all__ = ["Handle", "out_cell"]

_thread = threading.local()

_H = TypeVar("_H", bound="Handle")


def out_cell(ctype: str = "cl_event") -> tuple[Any, Any]:
    """This thread's output cell for a call that returns a ``ctype`` (a
    pointer type) through its last argument: ``(ctype[1], the same memory
    as intptr_t[1])``, read right after the call. Made once instead of a
    ``ffi.new`` and a cast per call; one per thread, as cffi releases the GIL
    during calls."""
    cells = _thread.__dict__
    try:
        return cells[ctype]
    except KeyError:
        cell = ffi.new(ctype + "[1]")
        result = cells[ctype] = (cell, ffi.cast("intptr_t *", cell))
        return result


class Handle:
    """An OpenCL object: ``int_ptr``, ``from_int_ptr``, ``==``/hash by handle,
    ``get_info`` and lower-case info attributes, ``release`` and ``with``."""

    __slots__ = ("_handle", "_ptr", "__weakref__")

    _handle: Any  # the handle cdata (with ffi.gc where owned); None once released
    _ptr: int  # the handle's address

    _ctype: ClassVar[str] = "void *"  # the cdata type of the handle
    # shim retain function; None where OpenCL has none
    _retain: ClassVar[Optional[Callable[[Any], int]]] = None
    # shim release function (an ffi.gc destructor)
    _release: ClassVar[Optional[Callable[[Any], Any]]] = None
    _info_kind: ClassVar[Optional[str]] = None  # key of pycl.info's decoding tables
    _invalid_code: ClassVar[int] = lib.CL_INVALID_VALUE  # the CL status for a released object

    def _adopt(self, raw: Any) -> None:
        """Take ownership of one reference to ``raw`` (a cdata handle)."""
        self._ptr = int(ffi.cast("intptr_t", raw))
        self._handle = ffi.gc(raw, self._release) if self._release is not None else raw

    @classmethod
    def _wrap(cls: type[_H], raw: Any) -> _H:
        """A new object owning the reference ``raw`` that a create call returned."""
        self = cls.__new__(cls)
        self._adopt(raw)
        return self

    def _live(self) -> Any:
        """The handle, or ``LogicError`` if this object was released."""
        handle = self._handle
        if handle is None:
            raise self._released_error()
        return handle

    def _released_error(self, routine: Optional[str] = None) -> LogicError:
        name = type(self).__name__
        return logic_error(
            routine or name,
            "%s at 0x%x was released and cannot be used" % (name, self._ptr),
            self._invalid_code,
        )

    def release(self) -> None:
        """Release the OpenCL object now. A second call raises ``LogicError``."""
        handle = self._handle
        if handle is None:
            raise self._released_error(type(self).__name__ + ".release")
        self._handle = None
        if self._release is not None:
            ffi.release(handle)

    def __enter__(self: _H) -> _H:
        self._live()
        return self

    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc_value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        if self._handle is not None:
            self.release()

    @property
    def int_ptr(self) -> int:
        """The handle's address as an int, for ``from_int_ptr`` elsewhere."""
        if self._handle is None:
            self._live()  # raises: released
        return self._ptr

    @classmethod
    def from_int_ptr(cls: type[_H], int_ptr_value: int, retain: bool = True) -> _H:
        """Wrap the CL handle at ``int_ptr_value``. With ``retain`` the handle is
        retained (the caller keeps its reference); without, ownership moves here."""
        if not isinstance(int_ptr_value, int) or isinstance(int_ptr_value, bool):
            raise TypeError("from_int_ptr: int_ptr_value must be an int, not %s" % type(int_ptr_value).__name__)
        if not int_ptr_value:
            raise logic_error(cls.__name__ + ".from_int_ptr", "int_ptr_value is NULL")
        raw = ffi.cast(cls._ctype, int_ptr_value)
        if retain and cls._retain is not None:
            check(cls._retain(raw), cls.__name__ + ".from_int_ptr")
        self = cls.__new__(cls)
        self._adopt(raw)
        self._init_from_handle()
        return self

    def _init_from_handle(self) -> None:
        """Fill the caches a constructor would have filled (from info queries)."""

    def __eq__(self, other: object) -> bool:
        if other is self:  # PyOpenCL's arrays compare their queues at every launch
            return True
        if type(other) is not type(self) and not (isinstance(other, Handle) and other._info_kind == self._info_kind):
            return NotImplemented
        if self._handle is None or other._handle is None:
            return self is other  # a released handle's address may be reused
        return self._ptr == other._ptr

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash(self._ptr)

    def get_info(self, param: int) -> Any:
        """Query ``param`` (a value of the matching ``*_info`` constant class)."""
        return _info.query(self, self._info_kind, param)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A class that names its info kind gets the lower-case info
        # attributes (``device.name``) as descriptors (pycl._info.InfoAttribute).
        super().__init_subclass__(**kwargs)
        kind = vars(cls).get("_info_kind")
        if kind is not None:
            _info.add_attributes(cls, kind)

    if TYPE_CHECKING:
        # The info attributes, which type checkers cannot see.
        def __getattr__(self, name: str) -> Any: ...

    def __repr__(self) -> str:
        state = "released" if self._handle is None else "0x%x" % self._ptr
        return "<pycl.%s %s>" % (type(self).__name__, state)
