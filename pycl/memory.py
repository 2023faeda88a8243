"""Memory objects and buffers: ``MemoryObject``, ``Buffer`` and sub-buffers.

Size, flags, type and context are cached at creation, so the transfer paths
make no info query; every cached value, like every info attribute, raises
``LogicError`` once the object is released.

Differences from PyOpenCL (docs/differences.md has the reasons):

- ``buf[a:b]`` and ``get_sub_region`` on a sub-buffer create a sub-buffer of
  the root buffer at the combined offset (OpenCL forbids sub-buffers of
  sub-buffers; PyOpenCL passes the call on and fails).
- ``buf[a:b]`` keeps the parent's access flags but never its host-pointer
  flags, which ``clCreateSubBuffer`` rejects.
- A misaligned sub-buffer origin is a ``LogicError`` that names the devices'
  ``mem_base_addr_align``, checked before the driver (Oclgrind does not check).
"""

from __future__ import annotations

import importlib
import threading
from typing import TYPE_CHECKING, Any, Optional, TypeVar, Union

import numpy as np

from pycl import _info
from pycl import budget as _budget
from pycl import constants as _constants
from pycl._args import (
    ACCESS_FLAGS,
    HOST_ACCESS_FLAGS,
    HOST_PTR_FLAGS,
    SIZE_LIMIT,
    describe,
    host_bytes,
    mem_flags_value,
    size_value,
    sizes,
)
from pycl._handle import Handle, out_cell
from pycl._lib import ffi, lib
from pycl.errors import check, error_for, logic_error

if TYPE_CHECKING:
    from typing import Literal

    from numpy.typing import DTypeLike, NDArray

    from pycl._typing import Extent, HostSource, Size
    from pycl.context import Context
    from pycl.errors import LogicError
    from pycl.platform import Device

__all__ = ["MemoryObject", "Buffer", "register_mem_class"]

_mf = _constants.mem_flags
_BUFFER = _constants.mem_object_type.BUFFER
_USE = _mf.USE_HOST_PTR
_USE_OR_COPY = _mf.USE_HOST_PTR | _mf.COPY_HOST_PTR
_COPY = _mf.COPY_HOST_PTR
_READ_WRITE = _mf.READ_WRITE
_MEM_ARG_SIZE = ffi.sizeof("cl_mem")  # a memory object's kernel argument: its handle
_HANDLE = lib.PYCL_ARG_HANDLE
ALLOCATION_FAILURES = (lib.CL_MEM_OBJECT_ALLOCATION_FAILURE, lib.CL_OUT_OF_RESOURCES, lib.CL_OUT_OF_HOST_MEMORY)

_M = TypeVar("_M", bound="MemoryObject")

# mem_object_type -> the Python class for objects of that type (images add theirs).
_class_for_type: dict[int, type[MemoryObject]] = {}
# mem_object_type -> transfer kind that enqueue_copy routes on.
_kind_for_type: dict[int, str] = {_BUFFER: "buffer"}


def register_mem_class(mem_type: int, cls: type[MemoryObject], kind: str) -> None:
    """Let info queries and ``enqueue_copy`` know memory objects of ``mem_type``
    (e.g. images: ``register_mem_class(IMAGE2D, Image, "image")``)."""
    _class_for_type[mem_type] = cls
    _kind_for_type[mem_type] = kind


# The modules that register the other types: ``import pycl`` loads them on
# first use, and a handle from elsewhere (PyOpenCL, an embedding) may come
# first.
_mot = _constants.mem_object_type
_MODULE_FOR_TYPE = dict.fromkeys(
    (_mot.IMAGE2D, _mot.IMAGE3D, _mot.IMAGE2D_ARRAY, _mot.IMAGE1D, _mot.IMAGE1D_ARRAY, _mot.IMAGE1D_BUFFER),
    "pycl._image_object",
)
_MODULE_FOR_TYPE[_mot.PIPE] = "pycl.pipe"


def _class_of_handle(raw: Any) -> type[MemoryObject]:
    """The class for the ``cl_mem`` ``raw`` by its ``mem_object_type``:
    Buffer, Image or Pipe (MemoryObject for a type pycl does not know)."""
    mem_type = ffi.new("cl_mem_object_type *")
    check(
        lib.pycl_mem_get_info(raw, _constants.mem_info.TYPE, ffi.sizeof("cl_mem_object_type"), mem_type, ffi.NULL),
        "clGetMemObjectInfo",
    )
    cls = _class_for_type.get(mem_type[0])
    if cls is None and mem_type[0] in _MODULE_FOR_TYPE:
        importlib.import_module(_MODULE_FOR_TYPE[mem_type[0]])
        cls = _class_for_type.get(mem_type[0])
    return cls or MemoryObject


# What get_host_array is turning into an array, for this thread: (memory
# object, numpy array interface), read by MemoryObject.__array_interface__.
_host_array = threading.local()


def array_interface(
    ptr: int,
    shape: tuple[int, ...],
    dtype: np.dtype[Any],
    strides: Optional[tuple[Size, ...]],
    readonly: bool = False,
) -> dict[str, Any]:
    """numpy's ``__array_interface__`` for ``shape``/``dtype`` at ``ptr``.
    A subarray dtype adds its axes, as numpy's own arrays do
    (``numpy.empty(3, "(2,)u2")`` has shape (3, 2) and dtype uint16)."""
    if dtype.subdtype is not None:
        dtype, axes = dtype.subdtype
        if strides is not None:
            inner: list[int] = []
            step = dtype.itemsize
            for n in reversed(axes):
                inner.insert(0, step)
                step *= n
            strides = tuple(strides) + tuple(inner)
        shape = shape + axes
    interface: dict[str, Any] = {"shape": shape, "typestr": dtype.str, "data": (ptr, readonly), "version": 3}
    if dtype.fields is not None:
        interface["descr"] = dtype.descr
    if strides is not None:
        interface["strides"] = strides
    return interface


def array_over(holder: Any, dtype: np.dtype[Any]) -> NDArray[Any]:
    """``numpy.asarray(holder)`` over the ``__array_interface__`` that
    ``array_interface`` made for ``dtype``. A structured dtype is set back on
    the array: the interface's descr keeps its fields' offsets but not an
    aligned dtype's own form (numpy names its padding ``f1``, ...), and
    numpy's own ``as_strided`` sets it back the same way."""
    array = np.asarray(holder)
    if dtype.subdtype is not None:
        dtype = dtype.subdtype[0]
    if dtype.fields is not None and array.dtype != dtype:
        array.dtype = dtype  # type: ignore[misc, unused-ignore]  # read-only in some numpy stubs; numpy allows it
    return array


def plain_dtype(dtype: DTypeLike, routine: str) -> np.dtype[Any]:
    """``numpy.dtype(dtype)``, refused if it holds Python objects: an array
    over device, mapped or pinned memory would read its bytes as object
    pointers."""
    dtype = np.dtype(dtype)
    if dtype.hasobject:
        raise TypeError(
            "%s: dtype %s holds Python objects, which memory outside Python cannot hold: pass a dtype of plain values"
            % (routine, dtype)
        )
    return dtype


def array_layout(
    shape: Union[Size, Extent], dtype: DTypeLike, order: str, strides: Optional[Extent], routine: str
) -> tuple[tuple[int, ...], np.dtype[Any], Optional[tuple[Size, ...]], int]:
    """``(shape, dtype, strides or None, nbytes spanned)`` for numpy-like
    ``shape``, ``dtype``, ``order`` and ``strides`` arguments."""
    if strides is None and order == "C" and isinstance(dtype, np.dtype) and not dtype.hasobject:
        # The common case without numpy calls: C order, a dtype object
        # (numpy 2's dtypes are instances of np.dtype's subclasses).
        if type(shape) is int and 0 <= shape <= SIZE_LIMIT:
            return (shape,), dtype, None, shape * dtype.itemsize
        if type(shape) is tuple:
            count = dtype.itemsize
            for n in shape:
                if type(n) is not int or not 0 <= n <= SIZE_LIMIT:
                    break
                count *= n
            else:
                return shape, dtype, None, count
    shape = sizes(shape, "shape", routine)
    dtype = plain_dtype(dtype, routine)
    itemsize = dtype.itemsize
    count = 1
    for n in shape:
        count *= n
    if strides is None:
        if order not in ("C", "F"):
            raise logic_error(routine, "order must be 'C' or 'F', got %r" % (order,))
        if order == "F" and len(shape) > 1:
            strides, step = [], itemsize
            for n in shape:
                strides.append(step)
                step *= n
            strides = tuple(strides)
        return shape, dtype, strides, count * itemsize
    # pycl maps no negative strides: every element lies after the map's start.
    strides = sizes(strides, "strides", routine)
    if len(strides) != len(shape):
        raise logic_error(routine, "strides %r and shape %r differ in length" % (strides, shape))
    if count == 0:
        return shape, dtype, strides, 0
    return shape, dtype, strides, itemsize + sum((n - 1) * s for n, s in zip(shape, strides))


class MemoryObject(Handle):
    """An OpenCL memory object: lower-case ``mem_info`` attributes, ``hostbuf``,
    ``get_host_array``, ``int_ptr``/``from_int_ptr``, ``==``/hash by handle."""

    # _charged: the bytes counted in the collection budget (pycl.budget)
    # when this object was made, taken off again by an explicit release;
    # unset when accounting was off.
    __slots__ = ("_size", "_flags", "_type", "_context", "_ctx_ptr", "_hostbuf", "_transfer_kind", "_charged")
    # The size in bytes. An Image holds None until its size is first asked
    # for (Image.size queries it); every path that reads _size directly has
    # a Buffer, or has filled it.
    _size: int
    _flags: int
    _type: int
    _context: Context
    _ctx_ptr: int
    _hostbuf: Any
    _transfer_kind: str
    _charged: int
    _ctype = "cl_mem"
    _retain = lib.pycl_mem_retain
    _release = lib.pycl_mem_release
    _info_kind = "mem"
    _invalid_code = lib.CL_INVALID_MEM_OBJECT

    def _adopt(self, raw: Any, release: Any = lib.pycl_mem_release) -> None:
        # The object's size is not reported to ffi.gc: PyPy turns it into
        # collection work at every allocation (docs/budget.md), and CPython
        # ignores it. pycl.budget bounds what dropped objects hold instead,
        # and failed allocations collect and retry.
        self._ptr = int(ffi.cast("intptr_t", raw))
        self._handle = ffi.gc(raw, release)
        self._hostbuf = None

    def _set_cache(self, size: Optional[int], flags: int, mem_type: int, context: Context) -> None:
        self._size = size  # type: ignore[assignment]  # None from Image: see _size
        self._flags = flags
        self._type = mem_type
        self._context = context
        self._ctx_ptr = context._ptr
        self._transfer_kind = _kind_for_type.get(mem_type, "mem")

    @classmethod
    def from_int_ptr(cls: type[_M], int_ptr_value: int, retain: bool = True) -> _M:
        """Wrap the ``cl_mem`` at ``int_ptr_value`` (see ``Handle``). As in
        PyOpenCL, ``MemoryObject.from_int_ptr`` gives an object of the
        handle's own class (Buffer, Image, Pipe), which transfers take."""
        target: type[_M] = cls
        if cls is MemoryObject and type(int_ptr_value) is int and int_ptr_value:
            target = _class_of_handle(ffi.cast("cl_mem", int_ptr_value))  # type: ignore[assignment]
        return super(MemoryObject, target).from_int_ptr(int_ptr_value, retain)

    def _init_from_handle(self) -> None:
        mi = _constants.mem_info
        self._set_cache(
            _info.query(self, "mem", mi.SIZE),
            _info.query(self, "mem", mi.FLAGS),
            _info.query(self, "mem", mi.TYPE),
            _info.query(self, "mem", mi.CONTEXT),
        )

    # Cached info values (they raise after release, as every use does).
    @property
    def size(self) -> int:
        """The size in bytes (``mem_info.SIZE``, cached: no driver query)."""
        self._live()
        return self._size

    @property
    def flags(self) -> int:
        """The ``mem_flags`` the object was made with."""
        self._live()
        return self._flags

    @property
    def type(self) -> int:
        """A ``mem_object_type`` value (``BUFFER``, ``IMAGE2D`` ...)."""
        self._live()
        return self._type

    @property
    def context(self) -> Context:
        """The context the object belongs to."""
        self._live()
        return self._context

    @property
    def hostbuf(self) -> Any:
        """The host object of a USE_HOST_PTR object (kept alive), else None."""
        self._live()
        return self._hostbuf

    @property
    def nbytes(self) -> int:
        """``size`` (the numpy name)."""
        return self.size

    def get_host_array(
        self, shape: Union[Size, Extent], dtype: DTypeLike, order: Literal["C", "F"] = "C"
    ) -> NDArray[Any]:
        """The host memory of a USE_HOST_PTR memory object as a numpy array
        whose ``.base`` is this object (as in PyOpenCL, which also refuses
        every other memory object, ALLOC_HOST_PTR included). The array must
        fit in the object."""
        routine = "MemoryObject.get_host_array"
        self._live()
        if not self._flags & _constants.mem_flags.USE_HOST_PTR:
            raise logic_error(
                routine,
                "%r was made with flags %s: only a memory object made with USE_HOST_PTR has host memory to "
                "show (as in PyOpenCL)" % (self, _constants.mem_flags.to_string(self._flags, "0x%x")),
            )
        ptr = _info.query(self, "mem", _constants.mem_info.HOST_PTR)
        shape, dtype, strides, nbytes = array_layout(shape, dtype, order, None, routine)
        if nbytes > self._size:
            raise logic_error(
                routine,
                "an array of shape %r and dtype %s needs %d bytes; %r has %d"
                % (shape, dtype, nbytes, self, self._size),
            )
        _host_array.pending = (self, array_interface(ptr, shape, dtype, strides))
        try:
            return array_over(self, dtype)
        finally:
            _host_array.pending = None

    @property
    def __array_interface__(self) -> dict[str, Any]:
        # Only while get_host_array makes its array: numpy reads it once and
        # keeps this object as the array's base, which keeps it alive.
        pending = getattr(_host_array, "pending", None)
        if pending is None or pending[0] is not self:
            raise AttributeError("__array_interface__")
        return pending[1]

    def release(self) -> None:
        """Release the memory object now. A second call raises ``LogicError``."""
        handle = self._handle
        if handle is None:
            raise self._released_error(type(self).__name__ + ".release")
        self._handle = None
        _ffi_release(handle)
        if _budget.enabled:
            _budget.credit_object(self._context, self)

    def _kernel_arg(self, routine: str) -> tuple[int, int, Any, Optional[int]]:
        """(mark, size, value, context address) for a kernel's argument cell
        (pycl._kernel_args): the handle, which the cell holds itself."""
        handle = self._handle
        if handle is None:
            raise self._released_error(routine)
        return _HANDLE, _MEM_ARG_SIZE, handle, self._ctx_ptr

    def __repr__(self) -> str:
        if self._handle is None:
            return Handle.__repr__(self)
        return "<pycl.%s of %d bytes at 0x%x>" % (type(self).__name__, self._size, self._ptr)


_create, _new = lib.pycl_buffer_create, lib.pycl_buffer_new
_release_mem = lib.pycl_mem_release
_CL_MEM = ffi.typeof("cl_mem")


def _new_with_host(context_handle: Any, flags: int, size: int, host: Any) -> int:
    """clCreateBuffer with host memory (or ``_NULL``): the address, or the CL
    status where it failed (as ``pycl_buffer_new`` returns them)."""
    cell, cell_int = out_cell("cl_mem")
    status = _create(context_handle, _NULL, flags, size, host, cell)
    if status:
        # a positive status (never seen) must not pass for an address
        return status if status < 0 else lib.CL_OUT_OF_RESOURCES
    return cell_int[0]


def _new_again(status: int, context_handle: Any, flags: int, size: int, host: Any) -> int:
    """A failed creation's CL ``status``: where memory ran short, garbage
    is collected (collected objects give their memory back: see _adopt) and
    the buffer made once more; the new buffer's address, else raises."""
    if status in ALLOCATION_FAILURES:
        _budget.collect()
        status = _new_with_host(context_handle, flags, size, host)
        if status > 0:
            return status
    raise error_for(status, "clCreateBuffer", "size %d, flags %s" % (size, _mf.to_string(flags, "0x%x")))


# The devices' mem_base_addr_align in bytes, by device handle (root devices
# live as long as the process).
_align_by_device: dict[int, int] = {}


def _base_align(device: Device) -> int:
    align = _align_by_device.get(device._ptr)
    if align is None:
        align = _align_by_device[device._ptr] = max(1, device.mem_base_addr_align // 8)
    return align


def _buffer_args(flags: Size, size: Size, hostbuf: Optional[HostSource]) -> tuple[int, int, Any]:
    """``Buffer()``'s arguments checked in full: ``(flags with OpenCL's
    default access added, size, host pointer or NULL)``. Flags found valid
    without a hostbuf are remembered for Buffer's common case."""
    routine = "Buffer"
    given = flags
    flags = mem_flags_value(flags, routine)
    size = size_value(size, "size", routine)
    if hostbuf is None:
        if flags & _USE_OR_COPY:
            raise logic_error(routine, "flags %s need a hostbuf" % _mf.to_string(flags), lib.CL_INVALID_HOST_PTR)
        if size == 0:
            raise logic_error(routine, "size must be positive (or given by a hostbuf)", lib.CL_INVALID_BUFFER_SIZE)
        host = _NULL
    else:
        if not flags & _USE_OR_COPY:
            raise logic_error(
                routine,
                "a hostbuf was passed but flags %s hold neither USE_HOST_PTR nor COPY_HOST_PTR"
                % _mf.to_string(flags, "0x%x"),
                lib.CL_INVALID_HOST_PTR,
            )
        host = host_bytes(hostbuf, bool(flags & _USE), routine, "hostbuf")
        if size == 0:
            size = len(host)
            if size == 0:
                raise logic_error(routine, "hostbuf (%s) is empty" % describe(hostbuf), lib.CL_INVALID_BUFFER_SIZE)
        elif size > len(host):
            raise logic_error(
                routine, "size = %d is larger than hostbuf (%s, %d bytes)" % (size, describe(hostbuf), len(host))
            )
    if not flags & ACCESS_FLAGS:
        flags |= _READ_WRITE  # OpenCL's default, as the driver reports it
    if type(given) is int:
        checked = _checked_flags if hostbuf is None else _checked_host_flags
        if len(checked) < 4096:
            checked[given] = flags
    return flags, size, host


class StagedCreation:
    """How a large COPY_HOST_PTR buffer is made faster: empty, then written
    through staging's pinned slots. ``pycl._buffer_copy`` (which imports
    this module) fills in the two steps."""

    # (context, flags, hostbuf, size) -> whether to stage the copy
    stages: Any = None
    # (buffer, host memory, size) -> None: the write after creation
    write: Any = None


# mem_flags values found valid without a hostbuf -> the same with OpenCL's
# default access (READ_WRITE) added: Buffer's whole flag check in one look-up.
_checked_flags: dict[int, int] = {}
# The same for flags found valid with a hostbuf (USE_HOST_PTR or COPY_HOST_PTR).
_checked_host_flags: dict[int, int] = {}
_NULL, _gc, _cast, _ffi_release, _from_buffer = ffi.NULL, ffi.gc, ffi.cast, ffi.release, ffi.from_buffer


class Buffer(MemoryObject):
    """``Buffer(context, flags, size=0, hostbuf=None)``. With ``hostbuf``,
    ``size`` defaults to its byte size; USE_HOST_PTR keeps ``hostbuf`` alive
    (``.hostbuf``) and needs it writable."""

    __slots__ = ("_parent", "_root_ptr", "_origin")
    _parent: Optional[Buffer]  # the root buffer of a sub-buffer, else None
    _root_ptr: int
    _origin: int  # offset in the root buffer
    # The same for every buffer: class attributes instead of slots set at
    # each creation (the slots of MemoryObject they shadow stay unused).
    _type = _BUFFER
    _transfer_kind = "buffer"

    def __init__(self, context: Context, flags: Size, size: Size = 0, hostbuf: Optional[HostSource] = None) -> None:
        # The common case first: flags already found valid without a hostbuf
        # (one dict look-up stands for the whole flag check) and a plain
        # positive size. Everything else takes _buffer_args, which checks
        # the same and more.
        if (
            hostbuf is None
            and type(flags) is int
            and type(size) is int
            and 0 < size <= SIZE_LIMIT
            and flags in _checked_flags
        ):
            flags, host = _checked_flags[flags], _NULL
        elif (
            hostbuf is not None
            and type(flags) is int
            and type(size) is int
            and flags in _checked_host_flags
            and not (isinstance(hostbuf, np.ndarray) and hostbuf.dtype.hasobject)
        ):
            # The same with host memory: flags that passed with a hostbuf
            # before, a C-contiguous buffer (writable for USE_HOST_PTR) that
            # holds size bytes, or gives it. Anything else takes _buffer_args,
            # which names it.
            checked = _checked_host_flags[flags]
            try:
                host = _from_buffer("char[]", hostbuf, bool(checked & _USE))
            except (TypeError, ValueError, BufferError):
                host = None
            if host is None or not 0 <= size <= len(host) or len(host) == 0:
                flags, size, host = _buffer_args(flags, size, hostbuf)
            else:
                flags = checked
                if size == 0:
                    size = len(host)
        else:
            flags, size, host = _buffer_args(flags, size, hostbuf)
        try:
            context_handle = context._handle
        except AttributeError:
            raise TypeError("Buffer: context must be a pycl.Context, not %s" % type(context).__name__) from None
        if context_handle is None:
            context._live()  # raises: released
        staged_host = None
        if hostbuf is not None and StagedCreation.stages(context, flags, hostbuf, size):
            staged_host, host, flags = host, _NULL, flags & ~_COPY  # made empty, written below
        if _budget.enabled:
            _budget.charge(context, size)
            self._charged = size
        ptr = _new(context_handle, flags, size) if host is _NULL else _new_with_host(context_handle, flags, size, host)
        if ptr <= 0:  # a CL status
            ptr = _new_again(ptr, context_handle, flags, size, host)
        # Inline _adopt (creation is a benchmarked micro-operation).
        self._ptr = ptr
        self._handle = _gc(_cast(_CL_MEM, ptr), _release_mem)  # no size: see _adopt
        self._size = size
        self._flags = flags
        self._context = context
        self._ctx_ptr = context._ptr
        self._parent = None
        self._root_ptr = ptr
        self._origin = 0
        self._hostbuf = hostbuf if flags & _USE else None
        if staged_host is not None:
            self._flags = flags | _COPY  # as asked for
            StagedCreation.write(self, staged_host, size)

    def _init_from_handle(self) -> None:
        mi = _constants.mem_info
        mem_type = _info.query(self, "mem", mi.TYPE)
        if mem_type != _BUFFER:
            raise logic_error("Buffer.from_int_ptr", "the memory object is not a buffer (type 0x%x)" % mem_type)
        self._size = _info.query(self, "mem", mi.SIZE)
        self._flags = _info.query(self, "mem", mi.FLAGS)
        self._context = _info.query(self, "mem", mi.CONTEXT)
        self._ctx_ptr = self._context._ptr
        parent = _info.query(self, "mem", mi.ASSOCIATED_MEMOBJECT)
        self._parent = parent
        self._root_ptr = parent._root_ptr if parent is not None else self._ptr
        self._origin = (
            _info.query(self, "mem", _constants.mem_info.OFFSET) + parent._origin if parent is not None else 0
        )

    @property
    def offset(self) -> int:
        """The sub-buffer's offset in its parent (0 for a buffer)."""
        self._live()
        return self._origin - (self._parent._origin if self._parent is not None else 0)

    def get_sub_region(self, origin: Size, size: Size, flags: Size = 0) -> Buffer:
        """A sub-buffer of ``size`` bytes at ``origin``. ``flags`` 0 inherits
        the access flags; host-pointer flags are not allowed (OpenCL). On a
        sub-buffer, the new one is made from the root buffer."""
        return self._sub_buffer(origin, size, flags, "Buffer.get_sub_region")

    def __getitem__(self, slc: slice) -> Buffer:
        """``buf[start:stop]``: a sub-buffer of the byte range, with this
        buffer's access flags (never its host-pointer flags)."""
        routine = "Buffer.__getitem__"
        if type(slc) is not slice:  # (slice has no subclasses)
            raise TypeError("%s: buffers are sliced with a slice of bytes, not %s" % (routine, type(slc).__name__))
        if self._handle is None:
            self._live()  # raises: released
        start, stop = slc.start, slc.stop
        if type(start) is int and type(stop) is int and slc.step is None and 0 <= start < stop <= self._size:
            # The common slice, as slc.indices would give it (that call alone
            # cost 0.09 us on CPython 3.11, a tenth of the whole creation).
            return self._sub_buffer(start, stop - start, self._flags & _SLICE_FLAGS, routine)
        start, stop, step = slc.indices(self._size)
        if step != 1:
            raise logic_error(routine, "a buffer slice must have step 1, got %r" % (slc.step,))
        if stop <= start:
            raise logic_error(routine, "the slice %r of %d bytes is empty" % (slc, self._size))
        return self._sub_buffer(start, stop - start, self._flags & _SLICE_FLAGS, routine)

    def _sub_buffer(self, origin: Size, size: Size, flags: Size, routine: str) -> Buffer:
        # The common case in a few look-ups: the (flags, parent's flags) pair
        # and the context's alignments were checked before, plain ints that
        # fit. Anything else (and every failure) takes _check_sub_buffer,
        # which checks the same and names what is wrong.
        parent = self._parent
        root = self if parent is None else parent
        sub_flags = _sub_flags.get(self._flags, _NO_FLAGS).get(flags) if type(flags) is int else None
        aligns = root._context._sub_aligns
        if (
            sub_flags is None
            or aligns is None
            or self._handle is None
            or root._handle is None
            or type(origin) is not int
            or type(size) is not int
            or origin < 0
            or size <= 0
            or origin + size > self._size
        ):
            origin, size, flags, sub_flags, aligns = self._check_sub_buffer(origin, size, flags, root, routine)
        at = self._origin + origin  # offset in the root buffer
        if at:
            for align in aligns:
                if not at % align:
                    break
            else:
                raise _misaligned(origin, at, root, routine)
        ptr = _new_sub(root._handle, flags, at, size)
        if ptr <= 0:  # a CL status
            raise error_for(
                ptr, "clCreateSubBuffer", "origin %d, size %d, flags %s" % (at, size, _mf.to_string(flags, "0x%x"))
            )
        sub = _new_object(Buffer)
        sub._ptr = ptr
        # Released youngest-first among its siblings (an NVIDIA defect: cl_shim/src/sub_buffer.c).
        sub._handle = _gc(_cast(_CL_MEM, ptr), _release_sub)
        sub._hostbuf = None
        sub._size = size
        sub._flags = sub_flags
        sub._context = root._context
        sub._ctx_ptr = root._ctx_ptr
        sub._parent = root
        sub._root_ptr = root._ptr
        sub._origin = at
        return sub

    def _check_sub_buffer(
        self, origin: Size, size: Size, flags: Size, root: Buffer, routine: str
    ) -> tuple[int, int, int, int, tuple[int, ...]]:
        """Every check of a sub-buffer's arguments; returns ``(origin, size,
        flags, the sub-buffer's cached flags, the context's alignments)`` and
        remembers the flags and alignments for the common case."""
        self._live()
        root._live()
        origin = size_value(origin, "origin", routine)
        size = size_value(size, "size", routine)
        given = flags
        flags = mem_flags_value(flags, routine)
        if flags & HOST_PTR_FLAGS:
            raise logic_error(
                routine,
                "flags %s: sub-buffers take no host-pointer flags (USE/ALLOC/COPY_HOST_PTR); they share "
                "the parent's memory" % _mf.to_string(flags),
            )
        if size == 0:
            raise logic_error(routine, "size must be positive", lib.CL_INVALID_BUFFER_SIZE)
        if origin + size > self._size:
            raise logic_error(
                routine, "origin %d + size %d = %d is past the end of %r" % (origin, size, origin + size, self)
            )
        parent_flags = self._flags
        for group, name in ((_mf.WRITE_ONLY | _mf.READ_ONLY, "access"), (HOST_ACCESS_FLAGS, "host access")):
            asked, has = flags & group, parent_flags & group
            if asked and has and asked != has:
                raise logic_error(
                    routine,
                    "%s flags %s conflict with the parent's %s" % (name, _mf.to_string(asked), _mf.to_string(has)),
                )
        if flags & _mf.READ_WRITE and parent_flags & (_mf.WRITE_ONLY | _mf.READ_ONLY):
            raise logic_error(
                routine, "READ_WRITE conflicts with the parent's %s" % _mf.to_string(parent_flags & ACCESS_FLAGS)
            )
        access = flags & ACCESS_FLAGS or parent_flags & ACCESS_FLAGS
        host_access = flags & HOST_ACCESS_FLAGS or parent_flags & HOST_ACCESS_FLAGS
        sub_flags = access | host_access | (parent_flags & HOST_PTR_FLAGS)
        aligns = tuple(_base_align(d) for d in root._context.devices)
        if type(given) is int and len(_sub_flags) < 4096:
            _sub_flags.setdefault(parent_flags, {})[given] = sub_flags
        root._context._sub_aligns = aligns
        return origin, size, flags, sub_flags, aligns


def _misaligned(origin: int, at: int, root: Buffer, routine: str) -> LogicError:
    devices = root._context.devices
    return logic_error(
        routine,
        "origin %d (offset %d in the root buffer) is not a multiple of the device's mem_base_addr_align "
        "(%s); sub-buffers must start there"
        % (origin, at, ", ".join("%d bytes on %r" % (_base_align(d), d.name) for d in devices)),
        lib.CL_MISALIGNED_SUB_BUFFER_OFFSET,
    )


# parent's flags -> {flags found valid -> the sub-buffer's cached flags}.
_sub_flags: dict[int, dict[int, int]] = {}
_NO_FLAGS: dict[int, int] = {}
# The flags of a slice buf[a:b]: the parent's access flags.
_SLICE_FLAGS = ACCESS_FLAGS | HOST_ACCESS_FLAGS
_new_object = object.__new__
_new_sub, _release_sub = lib.pycl_sub_buffer_new, lib.pycl_sub_buffer_release


def _wrap_mem(raw: Any) -> MemoryObject:
    """An info query's cl_mem as a new pycl object (of its type's class)."""
    return MemoryObject.from_int_ptr(int(ffi.cast("intptr_t", raw)))


register_mem_class(_BUFFER, Buffer, "buffer")
_info.register_wrapper("mem", _wrap_mem)
