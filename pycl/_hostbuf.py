"""Host memory: turning a Python buffer-protocol object into the pointer and
byte count that a transfer needs, with no hidden copy.

Any C-contiguous object goes through ``ffi.from_buffer`` (the same on CPython
and PyPy); a Fortran-contiguous numpy array is accepted too (its transpose is
C-contiguous and has the same bytes, as PyOpenCL accepts any contiguous
array). Everything else is refused before any C call:

- not a buffer at all, or not contiguous: ``TypeError`` (the message suggests
  ``numpy.ascontiguousarray``; pycl never copies behind the caller's back,
  since a copy would silently drop the data of a read);
- read-only where the transfer writes into host memory: ``pycl.LogicError``.

The returned ``char[]`` cdata keeps a buffer export of the object open, so a
``bytearray`` cannot be resized while a transfer holds it (see pycl._wards).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pycl._lib import ffi
from pycl.errors import logic_error

if TYPE_CHECKING:
    from pycl._typing import HostSource

__all__ = ["host_bytes", "describe"]


def describe(obj: object) -> str:
    """A short description of a host object for messages."""
    shape = getattr(obj, "shape", None)
    dtype = getattr(obj, "dtype", None)
    if shape is not None and dtype is not None:
        return "%s of shape %r and dtype %s" % (type(obj).__name__, tuple(shape), dtype)
    return type(obj).__name__


def host_bytes(obj: HostSource, writable: bool, routine: str, name: str) -> Any:
    """``char[]`` cdata over the bytes of ``obj``; ``len()`` is the byte count.

    ``writable``: the transfer writes into ``obj`` (it is a destination).
    ``name`` is the argument's name for messages (``"dest"``, ``"hostbuf"``).
    """
    try:
        return ffi.from_buffer(obj, require_writable=writable)
    except (TypeError, ValueError, BufferError):
        pass
    return _diagnose(obj, writable, routine, name)


def _diagnose(obj: Any, writable: bool, routine: str, name: str) -> Any:
    """The slow path: accept a Fortran-contiguous array, else explain the refusal."""
    try:
        view = memoryview(obj)
    except TypeError:
        raise TypeError(
            "%s: %s must be a pycl memory object or a host object with the buffer protocol "
            "(e.g. a numpy array), not %s" % (routine, name, type(obj).__name__)
        ) from None
    try:
        if writable and view.readonly:
            raise logic_error(
                routine,
                "%s (%s) is read-only, but the transfer writes into it: pass a writable array" % (name, describe(obj)),
            )
        if view.contiguous and not view.c_contiguous and hasattr(obj, "T"):
            # Fortran order: the transpose is C-contiguous over the same bytes.
            return ffi.from_buffer(obj.T, require_writable=writable)
        if not view.contiguous:
            raise TypeError(
                "%s: %s (%s) is not contiguous; pycl makes no hidden copies: pass "
                "numpy.ascontiguousarray(%s) (and copy the result back for a destination)"
                % (routine, name, describe(obj), name)
            )
        return ffi.from_buffer(obj, require_writable=writable)
    finally:
        view.release()
