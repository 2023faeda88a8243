"""A kernel object's arguments: ``LocalMemory``, the scalar types that
``set_scalar_arg_dtypes`` declares, and ``KernelArgs``, the cells from which
the shim sets them (``cl_shim/include/pycl/launch.h``).

Each kernel object owns one ``KernelArgs``, made at its first argument. Every
argument has a cell that holds its value as the driver takes it, a mark that
says whether (and how) the cell still has to reach the driver, and the
object it came from. Setting an argument fills its cell and marks it;
``Kernel.set_arg``/``set_args`` then hand the marked cells to the driver at
once (``pycl_kernel_set_marked``), and a launch hands them over in the same
C call that enqueues (``pycl_launch``), so a launch of a kernel whose
arguments changed is still one call into C.

What a launch saves by this:

- a scalar of a declared dtype is written straight into a typed cffi cell
  (``float``, ``int32_t``, ...): no numpy scalar and no bytes per call;
- an argument that is the same memory object, sampler or SVM pointer as last
  time is not set again (a kernel keeps its arguments; pycl also keeps the
  objects alive, and checks at each launch that none was released);
- nothing is allocated per call.

Scalars of a declared dtype follow PyOpenCL's ``struct.pack`` rules: an
integer dtype takes ints (numpy integers, bools and 0-d integer arrays
included) within its range, a float dtype takes any real number; anything
else raises ``TypeError`` (a float for an integer dtype) or ``LogicError``
(out of range) naming the argument, where numpy's conversion would truncate
or wrap silently. Dtypes without a C counterpart in cffi (float16, complex,
structured, byte-swapped) are converted by numpy, as their bytes.

A kernel object's cells are shared by every thread that uses it, as the
kernel's arguments are in OpenCL (``clSetKernelArg`` is not thread-safe for
one kernel). ``KernelArgs.lock`` makes each setting of arguments, and each
launch with the arguments it sets, one step: threads that launch one kernel
object take turns (its C calls run without the GIL, and another thread's
arguments must not change the cells, nor free what they point into, while
they run). PyOpenCL's calls keep the GIL instead, and a launch there may
pick up another thread's arguments.
"""

from __future__ import annotations

import operator
import struct
import threading
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from pycl._args import size_value, uint_value
from pycl._lib import ffi, lib
from pycl.errors import check, logic_error

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from numpy.typing import DTypeLike

__all__ = ["LocalMemory", "KernelArgs", "WAIT_CELLS"]

WAIT_CELLS = 32  # the longest wait list a launch passes without allocating (pycl._launch)

_BYTES, _SVM, _LOCAL, _EVERY = lib.PYCL_ARG_BYTES, lib.PYCL_ARG_SVM, lib.PYCL_ARG_LOCAL, lib.PYCL_ARG_EVERY_LAUNCH
_NULL_MEM = ffi.new("cl_mem *")  # a NULL buffer argument (None); never written
_HANDLE = lib.PYCL_ARG_HANDLE
# The classes of memory objects (Buffer, its subclasses, images, pipes),
# learned at the first one a cell takes: KernelArgs.put's short way.
_MEMORY_TYPES: set[type] = set()
# What an argument of each address space takes (KernelArgs.expected). The
# drivers take anything else's bytes as a memory object: a numpy int64, a
# LocalMemory or a sampler given for a __global pointer crashed Debian's PoCL
# 3.1, the pip PoCL 3.0 and Oclgrind 21.10 (SIGSEGV, 2026-11-27).
_POINTER, _LOCAL_ONLY = 1, 2
_EXPECTED = {
    lib.CL_KERNEL_ARG_ADDRESS_GLOBAL: _POINTER,  # images and pipes too
    lib.CL_KERNEL_ARG_ADDRESS_CONSTANT: _POINTER,
    lib.CL_KERNEL_ARG_ADDRESS_LOCAL: _LOCAL_ONLY,
}


class LocalMemory:
    """A ``__local`` kernel argument of ``size`` bytes."""

    __slots__ = ("size",)
    size: int

    def __init__(self, size: int) -> None:
        size = size_value(size, "size", "LocalMemory")
        if size == 0:
            raise logic_error("LocalMemory", "size = 0: local memory arguments need at least one byte")
        self.size = size

    @property
    def nbytes(self) -> int:
        return self.size

    def _kernel_arg(self, routine: str) -> tuple[int, int, Any, Optional[int]]:
        return _LOCAL, self.size, ffi.NULL, None


# {{{ scalar dtypes

# numpy's integer and float kinds with a C type of the same size in cffi:
# their values go into a typed cell (native byte order only).
_C_TYPES = {
    "i1": "int8_t",
    "u1": "uint8_t",
    "i2": "int16_t",
    "u2": "uint16_t",
    "i4": "int32_t",
    "u4": "uint32_t",
    "i8": "int64_t",
    "u8": "uint64_t",
    "f4": "float",
    "f8": "double",
}


class _Scalar:
    """What ``set_scalar_arg_dtypes`` declared for one argument."""

    __slots__ = ("dtype", "ctype", "fast_type", "low", "high")
    low: int  # the range of an integer dtype (0 for the others)
    high: int

    def __init__(self, dtype: np.dtype[Any]) -> None:
        self.dtype = dtype
        key = "%s%d" % (dtype.kind, dtype.itemsize)
        self.ctype = _C_TYPES.get(key) if dtype.isnative else None
        # The Python type a typed cell takes as it is (anything else goes
        # through value()).
        self.fast_type = None if self.ctype is None else float if dtype.kind == "f" else int
        info = np.iinfo(dtype) if dtype.kind in "iu" else None
        self.low, self.high = (int(info.min), int(info.max)) if info is not None else (0, 0)

    def value(self, arg: Any, index: int, routine: str) -> Any:
        """``arg`` as the cell's Python value (``bytes`` for a dtype that
        numpy converts), or the error that names the argument."""
        dtype, kind = self.dtype, self.dtype.kind
        if kind in "iu":
            if isinstance(arg, np.bool_) or not hasattr(arg, "__index__"):
                raise _type_error(routine, index, "an int", dtype, arg)
            arg = operator.index(arg)
            if arg < self.low:
                if self.low == 0:
                    raise logic_error(routine, "argument %d = %d is negative (dtype %s)" % (index, arg, dtype))
                raise logic_error(
                    routine, "argument %d = %d is below the limit of %d (dtype %s)" % (index, arg, self.low, dtype)
                )
            if arg > self.high:
                raise logic_error(
                    routine, "argument %d = %d exceeds the limit of %d (dtype %s)" % (index, arg, self.high, dtype)
                )
        elif kind == "f":
            if not isinstance(arg, (int, float, np.integer, np.floating)) and (
                np.ndim(arg) != 0 or np.asarray(arg).dtype.kind not in "biuf"
            ):
                raise _type_error(routine, index, "a real number", dtype, arg)
            arg = float(arg)
        elif kind == "c":
            if np.ndim(arg) != 0 or np.asarray(arg).dtype.kind not in "biufc":
                raise _type_error(routine, index, "a number", dtype, arg)
        elif kind == "V" and not isinstance(arg, tuple):
            # a structure (cltypes' vectors): a value of the dtype, or its bytes
            try:
                data = memoryview(arg).cast("B")
            except TypeError:
                raise _type_error(routine, index, "a value or the bytes", dtype, arg) from None
            if len(data) != dtype.itemsize:
                raise logic_error(
                    routine, "argument %d has %d bytes, dtype %s has %d" % (index, len(data), dtype, dtype.itemsize)
                )
            return data.tobytes()
        elif kind != "V" and np.ndim(arg) != 0:
            raise _type_error(routine, index, "a scalar", dtype, arg)
        if self.ctype is not None:
            return arg
        try:
            return np.asarray(arg, dtype).tobytes()
        except (TypeError, ValueError) as error:
            raise TypeError(
                "%s: argument %d (%s) does not convert to dtype %s: %s"
                % (routine, index, type(arg).__name__, dtype, error)
            ) from None


def _type_error(routine: str, index: int, what: str, dtype: np.dtype[Any], arg: Any) -> TypeError:
    return TypeError(
        "%s: argument %d must be %s (dtype %s), not %s" % (routine, index, what, dtype, type(arg).__name__)
    )


# }}}


_UNSET = object()  # a cell that was never set


def _copy(data: Any) -> Any:
    """A cell of its own holding the bytes of ``data`` (bytes or cdata)."""
    cell = ffi.new("char[]", max(len(data), 1))
    ffi.memmove(cell, data, len(data))
    return cell


class KernelArgs:
    """One kernel object's argument cells (launch.h's ``pycl_kernel_args``).

    ``held[i]`` is the object argument ``i`` was last set from (kept alive:
    the cell may point into it, and kernels do not retain their arguments),
    ``keep[i]`` the cdata that ``values[i]`` points into (or is: a handle),
    ``kinds[i]`` its ``PYCL_ARG_*`` mark (to set it again on a renewed kernel),
    ``stable[i]`` whether setting the same live object again may be skipped
    (a memory object, sampler or SVM pointer, not bytes that may have
    changed). ``cells[i]`` is the typed cell of a declared scalar, if any.
    ``objects`` (None until recomputed): the held objects whose release a
    launch must refuse; ``object_places[i]``: argument ``i``'s place there.
    ``queue`` and ``built_for`` (and the struct's ``max_groups``) cache the
    checks of the last launch's queue (``pycl._launch``)."""

    __slots__ = (
        "count",
        "name",
        "ctx_ptr",
        "struct",
        "marks",
        "sizes",
        "values",
        "held",
        "keep",
        "kinds",
        "stable",
        "scalars",
        "cells",
        "fast_types",
        "formats",
        "packed",
        "objects",
        "object_places",
        "queue",
        "built_for",
        "last_sizes",
        "event_cell",
        "wait_cells",
        "lock",
        "expected",
        "local_limit",
    )

    def __init__(self, count: int, name: str, ctx_ptr: int, address_spaces: Optional[list[int]] = None) -> None:
        self.count = count
        self.name = name
        self.ctx_ptr = ctx_ptr
        # What each argument takes, from its address space where the driver
        # tells it: _POINTER (a memory object, an SVM pointer or None),
        # _LOCAL_ONLY (a LocalMemory) or 0 (not checked: a value, or unknown).
        self.expected = [0] * count if address_spaces is None else [_EXPECTED.get(a, 0) for a in address_spaces]
        self.local_limit: Optional[int] = None  # the context's largest local memory, at the first LocalMemory
        n = max(count, 1)  # cffi arrays of 0 items are fine, but keep one for a valid pointer
        self.marks = ffi.new("unsigned char[]", n)
        self.sizes = ffi.new("size_t[]", n)
        self.values = ffi.new("void *[]", n)
        self.struct = ffi.new(
            "struct pycl_kernel_args *",
            {"count": count, "marks": self.marks, "sizes": self.sizes, "values": self.values},
        )
        self.held: list[Any] = [_UNSET] * count
        self.keep: list[Any] = [None] * count
        self.kinds = [0] * count
        self.stable = [False] * count
        self.scalars: list[Optional[_Scalar]] = [None] * count
        self.cells: list[Any] = [None] * count
        self.fast_types: list[Any] = [None] * count
        self.formats: list[Optional[bytes]] = [None] * count  # put_packed's struct format per cell
        self.packed: Optional[_PackedLayout] = None  # put_packed's block of cells (the last call's)
        self.objects: Optional[list[Any]] = []
        self.object_places: list[int] = [-1] * count  # each argument's place in objects
        self.lock = threading.Lock()  # held by whoever sets or launches (see the module docstring)
        self.queue: Any = None
        self.built_for: Any = None
        # the work sizes of the last fast launch, (global, local), and what
        # the shim took of them, (dims, g0, g1, g2, l0, l1, l2): pycl._launch
        self.last_sizes: tuple[Any, ...] = (_UNSET, _UNSET)
        self.event_cell = ffi.addressof(self.struct, "event")  # the event of a launch
        self.wait_cells = ffi.new("cl_event[]", WAIT_CELLS)  # a launch's short wait lists (pycl._launch)

    def declare(self, dtypes: Iterable[DTypeLike], routine: str) -> None:
        """``set_scalar_arg_dtypes``: one dtype or None per argument."""
        declared = [None if d is None else _Scalar(np.dtype(d)) for d in dtypes]
        if len(declared) != self.count:
            raise TypeError(
                "%s: kernel %r takes %d arguments, got %d dtypes" % (routine, self.name, self.count, len(declared))
            )
        for index, scalar in enumerate(declared):
            if scalar is not None and self.expected[index]:
                self.refuse_kind(index, scalar.dtype, routine)  # before any change
        for index, scalar in enumerate(declared):
            self._declare_one(index, scalar)

    def _declare_one(self, index: int, scalar: Optional[_Scalar]) -> None:
        self.scalars[index] = scalar
        self.formats[index] = None
        self.packed = None  # its cells may be among the packed block's
        ctype = None if scalar is None else scalar.ctype
        cell = None if ctype is None else ffi.new(ctype + "[1]")
        self.cells[index] = cell
        self.fast_types[index] = None if scalar is None or cell is None else scalar.fast_type
        if scalar is not None:
            # The driver keeps the value set before; the next launch
            # with arguments sets the declared one.
            self.held[index], self.keep[index], self.stable[index] = _UNSET, cell, False
            self.objects = None
            self.marks[index] = self.kinds[index] = 0
            if cell is not None:
                self.values[index], self.sizes[index] = cell, ffi.sizeof(cell)
                self.kinds[index] = _EVERY

    def check_count(self, args: Sequence[Any], routine: str) -> None:
        if len(args) != self.count:
            raise TypeError("%s: kernel %r takes %d arguments, got %d" % (routine, self.name, self.count, len(args)))

    def put_all(self, kernel: Any, args: Sequence[Any], routine: str) -> None:
        """Fill every cell from ``args`` (already counted), then give
        ``kernel`` a fill function of its own (``kernel._fill``, which its
        calls use) once every typed cell has a value: it writes the typed
        cells without marking them. The function lives on the kernel, not
        here, so that no reference cycle delays freeing the held objects."""
        cells, held, stable = self.cells, self.held, self.stable
        index = 0
        try:
            for index, arg in enumerate(args):
                cell = cells[index]
                if cell is not None:
                    self.write_typed(index, cell, arg, routine)
                elif arg is not held[index] or not stable[index] or arg._handle is None:
                    self.put(kernel, index, arg, routine)  # put() names a released object
        except (TypeError, OverflowError):
            if cells[index] is not None:
                # cffi's own refusal of a fast-path value: name the argument
                self.scalars[index].value(args[index], index, routine)  # type: ignore[union-attr]
            raise
        if kernel._fill == self.put_all and self.count:
            kernel._fill = _fill_function(self)

    def put(self, kernel: Any, index: int, arg: Any, routine: str) -> None:
        """Fill cell ``index`` from ``arg`` and mark it; ``kernel`` is
        renewed first where the cell held an SVM pointer before and ``arg``
        is not one (``Kernel._renew``)."""
        if self.kinds[index] == _HANDLE and type(arg) in _MEMORY_TYPES and self.scalars[index] is None:
            # A live memory object of a class seen before in place of a handle
            # (a new output array in PyOpenCL's layer at each operation): the
            # kind, size and address space checked below passed for the
            # handle before and pass for it again, so only the context is
            # left to check. (The general way cost a set_arg 0.2 us more, of
            # 1.0, on CPython 3.11, measured 2026-11-28; its stores are
            # written out here again because sharing them, through a
            # function that returns the checked value, cost 0.17 us.)
            handle = arg._handle
            if handle is not None and arg._ctx_ptr == self.ctx_ptr:
                self.values[index] = handle
                self.marks[index] = _HANDLE
                objects = self.objects
                if objects is not None and self.stable[index]:
                    objects[self.object_places[index]] = arg
                else:
                    self.objects = None
                self.held[index], self.keep[index], self.stable[index] = arg, handle, True
                return
        scalar = self.scalars[index]
        keep: Any = None
        if scalar is not None:
            value = scalar.value(arg, index, routine)
            cell = self.cells[index]
            if cell is not None:
                cell[0] = value
                keep = cell
            else:
                keep = _copy(value)
            mark, size = (_BYTES, len(value)) if cell is None else (_EVERY, ffi.sizeof(cell))
            pointer, stable = keep, False
        elif arg is None:
            mark, size, pointer, stable = _BYTES, ffi.sizeof(_NULL_MEM[0]), _NULL_MEM, False
        elif hasattr(arg, "_kernel_arg"):
            mark, size, pointer, ctx_ptr = arg._kernel_arg(routine)
            if ctx_ptr is not None and ctx_ptr != self.ctx_ptr:
                raise logic_error(
                    routine,
                    "argument %d (%r) belongs to another context than the kernel" % (index, arg),
                    lib.CL_INVALID_CONTEXT,
                )
            keep, stable = pointer, not isinstance(arg, LocalMemory)
            if mark == _HANDLE and arg._ctype == "cl_mem":
                _MEMORY_TYPES.add(type(arg))
        elif isinstance(arg, (bool, int, float, complex)) and not isinstance(arg, np.generic):
            raise logic_error(
                routine,
                "argument %d is a Python %s, whose size OpenCL cannot know: pass a numpy scalar "
                "(e.g. numpy.int32(%r)) or declare it with set_scalar_arg_dtypes" % (index, type(arg).__name__, arg),
            )
        else:
            try:
                data = arg.tobytes() if isinstance(arg, np.generic) else ffi.from_buffer(arg)
            except TypeError:
                raise TypeError(
                    "%s: argument %d of type %s is not a memory object, LocalMemory, "
                    "sampler, SVM pointer, numpy scalar or buffer" % (routine, index, type(arg).__name__)
                ) from None
            keep = _copy(data)  # the object may change before the launch
            mark, size, pointer, stable = _BYTES, len(data), keep, False
        expected = self.expected[index]
        if expected and (
            mark != _LOCAL
            if expected == _LOCAL_ONLY
            else arg is not None and mark != _SVM and (mark != _HANDLE or arg._ctype != "cl_mem")
        ):
            self.refuse_kind(index, arg, routine)
        if mark == _LOCAL and (self.kinds[index] != _LOCAL or self.sizes[index] != size):  # the total changes
            self.check_local_total(kernel, index, size, routine)
        if self.kinds[index] == _SVM and mark != _SVM:
            kernel._renew()
        self.values[index] = pointer
        self.sizes[index] = size
        self.marks[index] = self.kinds[index] = mark
        objects = self.objects
        if stable and self.stable[index] and objects is not None:
            objects[self.object_places[index]] = arg  # one object in place of another
        else:
            self.objects = None
        self.held[index], self.keep[index], self.stable[index] = arg, keep, stable

    # {{{ PyOpenCL's invoker protocol (pycl.pyopencl_cl): the code PyOpenCL
    # generates per signature hands over flat tuples; they fill the cells,
    # and the launch sets what changed, as for pycl's own calls.

    def put_pairs(self, kernel: Any, pairs: Sequence[Any], routine: str) -> None:
        """``(index, arg, index, arg, ...)``: ``_set_arg_multi`` and
        ``_set_arg_buf_multi``. The same live memory object again is skipped
        after a read of the cells, without the lock; a cell that changes is
        written under it."""
        held, stable, formats, count = self.held, self.stable, self.formats, self.count
        if len(pairs) & 1:
            raise TypeError("%s: expected (index, value) pairs, got %d items" % (routine, len(pairs)))
        items = iter(pairs)
        for index in items:
            arg = next(items)
            if type(index) is not int or not 0 <= index < count:
                index = self.checked_index(index, routine)
            if formats[index] is not None or arg is not held[index] or not stable[index] or arg._handle is None:
                self._put_locked(kernel, index, arg, routine)

    def _put_locked(self, kernel: Any, index: int, arg: Any, routine: str) -> None:
        lock = self.lock
        lock.acquire()
        try:
            if self.formats[index] is not None:
                # typed by put_packed (an earlier signature): any kind again
                self._declare_one(index, None)
            self.put(kernel, index, arg, routine)
        finally:
            lock.release()

    def put_packed(self, kernel: Any, triples: Sequence[Any], routine: str) -> None:
        """``(index, format, value, ...)``, formats of ``struct`` as bytes:
        ``_set_arg_buf_pack_multi``. A cell takes its format's dtype at the
        first value (a typed cell, as ``set_scalar_arg_dtypes`` gives). Once
        a call's indices and formats have been seen, their typed cells lie
        side by side in one block, and the next call with the same ones
        writes every value with one ``struct.pack_into`` (PyOpenCL packs
        each with ``struct.pack``); a value it refuses goes the general way,
        which names the mistake."""
        layout = self.packed
        if layout is not None and triples[1::3] == layout.formats and triples[0::3] == layout.indices:
            try:
                layout.packer.pack_into(layout.view, 0, *triples[2::3])
                return
            except (struct.error, TypeError, OverflowError):
                pass
        for i in range(0, len(triples), 3):
            self._put_one_packed(kernel, triples[i], triples[i + 1], triples[i + 2], routine)
        self.packed = _PackedLayout.make(self, kernel, triples)

    def _put_one_packed(self, kernel: Any, index: Any, code: bytes, value: Any, routine: str) -> None:
        index = self.checked_index(index, routine)
        if self.formats[index] != code:
            if self.expected[index]:
                self.refuse_kind(index, value, routine)
            self._declare_one(index, _Scalar(np.dtype(code.decode())))
            self.formats[index] = code
        cell = self.cells[index]
        if cell is None:  # no C type for the format ("c"): its bytes
            self.put(kernel, index, struct.pack(code.decode(), value), routine)
        else:
            self.write_typed(index, cell, value, routine)

    def write_typed(self, index: int, cell: Any, arg: Any, routine: str) -> None:
        """``arg`` into the typed cell of argument ``index``, set at every launch."""
        if type(arg) is self.fast_types[index]:
            try:
                cell[0] = arg
            except OverflowError:  # cffi's refusal: name the argument and its limit
                self.scalars[index].value(arg, index, routine)  # type: ignore[union-attr]
                raise
        else:
            cell[0] = self.scalars[index].value(arg, index, routine)  # type: ignore[union-attr]
        self.marks[index] = _EVERY
        self.held[index] = arg

    def check_local_total(self, kernel: Any, index: int, size: int, routine: str) -> None:
        """Refuse a LocalMemory of ``size`` bytes for argument ``index`` that
        takes the kernel's local memory arguments past the largest local
        memory of the context's devices: Debian's PoCL 3.1 and Oclgrind 21.10
        abort the process at the launch (an assertion; std::bad_alloc) where
        the driver should fail it (2026-11-27)."""
        limit = self.local_limit
        if limit is None:
            limit = self.local_limit = max(d.local_mem_size for d in kernel._program._context.devices)
        total = size + sum(self.sizes[i] for i in range(self.count) if i != index and self.kinds[i] == _LOCAL)
        if total > limit:
            raise logic_error(
                routine,
                "argument %d (LocalMemory(%d)) takes the local memory arguments of kernel %r to %d bytes, "
                "past the %d bytes of local memory (local_mem_size) of the context's devices"
                % (index, size, self.name, total, limit),
                lib.CL_INVALID_ARG_SIZE,
            )

    def refuse_kind(self, index: int, arg: Any, routine: str) -> None:
        """The error for ``arg`` given to argument ``index``, which
        ``expected`` says cannot take it."""
        if self.expected[index] == _LOCAL_ONLY:
            wanted, space = "a pycl.LocalMemory", "__local"
        else:
            wanted, space = "a memory object, an SVM pointer or None", "__global or __constant"
        what = "a declared dtype (%s)" % arg if isinstance(arg, np.dtype) else "a value of type %s" % type(arg).__name__
        raise logic_error(
            routine,
            "argument %d of kernel %r is a %s pointer: it takes %s, not %s" % (index, self.name, space, wanted, what),
            lib.CL_INVALID_ARG_VALUE,
        )

    def checked_index(self, index: Any, routine: str) -> int:
        """``index`` if it names an argument, else Kernel.set_arg's error."""
        if type(index) is int and 0 <= index < self.count:
            return index
        index = uint_value(index, "index", routine)
        raise logic_error(
            routine,
            "index = %d exceeds the limit of %d: kernel %r takes %d arguments"
            % (index, self.count - 1, self.name, self.count),
            lib.CL_INVALID_ARG_INDEX,
        )

    # }}}

    def copy_to(self, other: KernelArgs) -> None:
        """Give ``other`` (the fresh cells of a clone, whose driver kernel
        already has this one's argument values) these declarations, typed
        values and held objects, with nothing marked but the typed cells."""
        for index in range(self.count):
            other._declare_one(index, self.scalars[index])
            other.formats[index] = self.formats[index]
            arg = self.held[index]
            if arg is _UNSET:
                continue
            cell = other.cells[index]
            if cell is not None:
                cell[0] = self.cells[index][0]
                other.marks[index] = _EVERY
            else:
                other.values[index], other.sizes[index] = self.values[index], self.sizes[index]
                other.kinds[index] = self.kinds[index]
                other.keep[index], other.stable[index] = self.keep[index], self.stable[index]
            other.held[index] = arg
        other.objects = None

    def remark(self) -> None:
        """Mark every cell that holds a value: the kernel is new."""
        for index, arg in enumerate(self.held):
            if arg is not _UNSET:
                self.marks[index] = self.kinds[index]

    def apply(self, handle: Any) -> None:
        """Set the marked cells now."""
        status = lib.pycl_kernel_set_marked(handle, self.struct)
        if status:
            self.raise_failed(status)

    def raise_failed(self, status: int) -> None:
        index = self.struct.failed
        scalar = self.scalars[index]
        what = type(self.held[index]).__name__ if scalar is None else "dtype %s" % scalar.dtype
        check(status, "clSetKernelArg", "argument %d (%s)" % (index, what))

    def live_objects(self) -> list[Any]:
        """The held objects that can be released (recomputed after a put
        that changed which arguments are objects), and their places."""
        places = [-1] * self.count
        objects: list[Any] = []
        for index, arg in enumerate(self.held):
            if self.stable[index]:
                places[index] = len(objects)
                objects.append(arg)
        self.object_places = places
        self.objects = objects
        return objects

    def scalar_bytes(self, index: int, arg: Any) -> Optional[bytes]:
        """The bytes a declared scalar passes, None for an undeclared
        argument (``capture_call``)."""
        scalar = self.scalars[index] if index < self.count else None
        if scalar is None:
            return None
        value = scalar.value(arg, index, "capture_kernel_call")
        return value if isinstance(value, bytes) else scalar.dtype.type(value).tobytes()


# {{{ put_packed's block of cells


class _PackedLayout:
    """The typed cells of one ``put_packed`` call's arguments, moved side by
    side into one block laid out as ``struct`` lays out their formats (native
    sizes and alignment), so that one ``pack_into`` fills them all.
    ``KernelArgs.packed`` holds it until a cell is declared again
    (``_declare_one``), which ends it."""

    __slots__ = ("indices", "formats", "packer", "view")
    indices: tuple[int, ...]
    formats: tuple[bytes, ...]
    packer: struct.Struct
    view: memoryview

    @classmethod
    def make(cls, args: KernelArgs, kernel: Any, triples: Sequence[Any]) -> Optional[_PackedLayout]:
        """The block for the (just written) arguments of ``triples``, or None
        where one does not apply: an index given twice, a format without a
        C type."""
        indices, formats = tuple(triples[0::3]), tuple(triples[1::3])
        if len(set(indices)) != len(indices) or any(args.cells[i] is None for i in indices):
            return None
        codes = "@" + "".join(code.decode() for code in formats)
        packer = struct.Struct(codes)
        block = memoryview(ffi.buffer(ffi.new("char[]", max(packer.size, 1))))
        for place, index in enumerate(indices):
            old = args.cells[index]
            offset = struct.calcsize(codes[: place + 2]) - struct.calcsize(codes[place + 1])
            # a typed cell of one item over its bytes of the block, which it keeps alive
            cell = ffi.from_buffer(ffi.getctype(ffi.typeof(old).item, "[]"), block[offset : offset + ffi.sizeof(old)])
            cell[0] = old[0]
            args.cells[index] = args.keep[index] = cell
            args.values[index] = cell
        kernel._fill = args.put_all  # a kernel's own fill function holds the cells of before
        layout = cls()
        layout.indices, layout.formats = indices, formats
        layout.packer, layout.view = packer, block
        return layout


# }}}


# {{{ fill functions

# A kernel's fill function, once every typed cell holds a value: put_all's
# loop unrolled for the kernel's own arguments (for k(buf, float, int):
# "a0, a1, a2 = args", the check of a0 and a typed write each of a1 and a2),
# without marking the typed cells (they are set at every launch). Python's
# per-argument cost in a launch drops by about half on CPython
# (docs/design.md, "Enqueue routes"). The source depends only on
# which arguments are typed ints, typed floats or anything else; its
# compiled factory is kept per such signature.
_FACTORIES: dict[tuple[Optional[str], ...], Any] = {}
_MAX_FACTORIES = 256


def _fill_source(kinds: tuple[Optional[str], ...]) -> str:
    lines = [
        "def factory(held, stable, put, put_all, cells, scalars):",
        *("    c%d, s%d = cells[%d], scalars[%d]" % (i, i, i, i) for i, kind in enumerate(kinds) if kind),
        "    def fill(kernel, args, routine):",
        "        try:",
        "            %s, = args" % ", ".join("a%d" % i for i in range(len(kinds))),
    ]
    for i, kind in enumerate(kinds):
        if kind is None:
            lines += [
                "            if a%d is not held[%d] or not stable[%d] or a%d._handle is None:" % (i, i, i, i),
                "                put(kernel, %d, a%d, routine)" % (i, i),
            ]
        else:
            lines += [
                "            if type(a%d) is %s:" % (i, kind),
                "                c%d[0] = a%d" % (i, i),
                "            else:",
                "                c%d[0] = s%d.value(a%d, %d, routine)" % (i, i, i, i),
            ]
    lines += [
        "        except (TypeError, OverflowError):",
        "            put_all(kernel, args, routine)  # names the argument",
        "            raise",
        "    return fill",
    ]
    return "\n".join(lines) + "\n"


def _fill_function(args: KernelArgs) -> Any:
    """``args``' own fill function (put_all where there is none)."""
    if any(cell is not None and args.marks[i] != _EVERY for i, cell in enumerate(args.cells)):
        return args.put_all  # a typed cell without a value yet
    kinds = tuple(None if t is None else t.__name__ for t in args.fast_types)
    factory = _FACTORIES.get(kinds)
    if factory is None:
        if len(_FACTORIES) >= _MAX_FACTORIES:
            return args.put_all
        namespace: dict[str, Any] = {}
        exec(compile(_fill_source(kinds), "<pycl kernel fill %s>" % (kinds,), "exec"), namespace)
        factory = _FACTORIES[kinds] = namespace["factory"]
    return factory(args.held, args.stable, args.put, args.put_all, args.cells, args.scalars)


# }}}
