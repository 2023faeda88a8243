"""Argument checks: the one home of every check pycl makes on an argument
before a C call — sizes, offsets, counts, origins, regions, pitches, shapes,
alignments, flag sets, wait lists, host buffers, and the memory objects of an
enqueue call (``pycl.queue.queue_handle`` checks its queue).

One limit per kind of value:

- ``SIZE_LIMIT`` (2**63 - 1) for every size, offset, count, origin, region,
  pitch, shape entry and alignment. OpenCL passes them as ``size_t``, but no
  device addresses 2**63 bytes, a value below it stays a machine int on PyPy,
  and a value past it would reach the driver only to fail there without the
  argument's name (or, for ``clSVMAlloc``, as an out-of-memory error).
- ``UINT_LIMIT`` (2**32 - 1) for the ``cl_uint`` arguments (pipe packet
  sizes and counts, info parameters).
- ``ULONG_LIMIT`` (2**64 - 1) for flag sets (``cl_bitfield``), which
  must also hold only the bits of their constant class, and for the pool's
  bin arithmetic, which PyOpenCL defines over the whole ``size_t`` range.

One wording per mistake, wherever it is made (``<routine>`` is the pycl
function, ``<name>`` the argument, with ``[i]`` for an entry of a tuple):

- ``TypeError: <routine>: <name> must be an int, not <type>``: bools,
  floats, None, numpy floats and 0-d float arrays (numpy integers and 0-d
  integer arrays work like ints);
- ``LogicError: <name> = <value> is negative``;
- ``LogicError: <name> = <value> exceeds the limit of <limit>``;
- ``TypeError: <routine>: <name> must be a tuple of 1 to 3 ints, not <type>``
  and ``LogicError: <name> = <value> must have 1 to 3 entries`` (origins,
  regions; pitches take at most 2 entries);
- ``LogicError: <name> = 0x<bits> holds bits that are no <class>``;
- ``LogicError: <name> = <value> applies where offsets are not supported``
  (an offset on the host side of a transfer, or on SVM).

Every check has a fast path for the common case (a plain int in range, a
tuple of such ints) that formats no message and accepts nothing the general
path would refuse; anything else goes to the general path, which names what
is wrong. A few hot callers inline a fast path of their own with these
limits (``Buffer``, ``SVMAllocation``, ``MemoryPool.allocate``).

``tests/test_args_sweep.py`` feeds every public argument of these kinds the
bad values; ``make mutate`` (``tools/mutate_checks.py``) takes each check out
in turn, fast paths included, and fails if the tests do not notice.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from pycl import constants as _constants
from pycl._handle import Handle
from pycl._lib import ffi, lib
from pycl.errors import logic_error

if TYPE_CHECKING:
    from typing import Protocol

    from numpy.typing import DTypeLike

    from pycl._constant_class import ConstantClass
    from pycl._typing import HostSource, WaitList

    class MemoryObject(Protocol):
        """What these checks read of a ``pycl.memory.MemoryObject`` (which
        imports this module)."""

        _flags: int
        _ctx_ptr: int

        def _live(self) -> Any: ...


SIZE_LIMIT = (1 << 63) - 1
UINT_LIMIT = (1 << 32) - 1
ULONG_LIMIT = (1 << 64) - 1

_mf = _constants.mem_flags
# mem_flags groups: at most one flag of ACCESS_FLAGS and of HOST_ACCESS_FLAGS.
ACCESS_FLAGS = _mf.READ_WRITE | _mf.WRITE_ONLY | _mf.READ_ONLY
HOST_ACCESS_FLAGS = _mf.HOST_WRITE_ONLY | _mf.HOST_READ_ONLY | _mf.HOST_NO_ACCESS
HOST_PTR_FLAGS = _mf.USE_HOST_PTR | _mf.ALLOC_HOST_PTR | _mf.COPY_HOST_PTR
NO_HOST_READ = _mf.HOST_WRITE_ONLY | _mf.HOST_NO_ACCESS  # the host may not read the object
NO_HOST_WRITE = _mf.HOST_READ_ONLY | _mf.HOST_NO_ACCESS  # the host may not write it

__all__ = [
    "SIZE_LIMIT",
    "UINT_LIMIT",
    "ULONG_LIMIT",
    "ACCESS_FLAGS",
    "HOST_ACCESS_FLAGS",
    "HOST_PTR_FLAGS",
    "NO_HOST_READ",
    "NO_HOST_WRITE",
    "size_value",
    "uint_value",
    "ulong_value",
    "bounded_value",
    "no_offset",
    "sizes",
    "triple",
    "pitch_pair",
    "MAX_ALIGNMENT",
    "ALIGNMENTS",
    "alignment_value",
    "bits_value",
    "exclusive",
    "mem_flags_value",
    "svm_flags_value",
    "map_flags_value",
    "VALID_MAP_FLAGS",
    "property_list",
    "properties_array",
    "host_access",
    "wait_list",
    "EVENT_TYPES",
    "host_bytes",
    "PATTERN_SIZES",
    "fill_pattern",
    "describe",
    "mem_handle",
    "dtype_of",
    "DTYPE_ENTRIES",
    "dtype_entry",
]


# {{{ ints


def size_value(value: Any, name: str, routine: str) -> int:
    """A size, offset, count or extent: an int in 0 .. SIZE_LIMIT."""
    if type(value) is int and 0 <= value <= SIZE_LIMIT:
        return value
    return bounded_value(value, name, routine, SIZE_LIMIT)


def uint_value(value: Any, name: str, routine: str) -> int:
    """A ``cl_uint`` argument: an int in 0 .. UINT_LIMIT."""
    if type(value) is int and 0 <= value <= UINT_LIMIT:
        return value
    return bounded_value(value, name, routine, UINT_LIMIT)


def ulong_value(value: Any, name: str, routine: str) -> int:
    """A 64-bit unsigned argument: an int in 0 .. ULONG_LIMIT."""
    if type(value) is int and 0 <= value <= ULONG_LIMIT:
        return value
    return bounded_value(value, name, routine, ULONG_LIMIT)


def bounded_value(value: Any, name: str, routine: str, limit: int) -> int:
    """An int in 0 .. ``limit``, for an argument with a limit of its own
    (a thread count); also the general path of the other int checks."""
    if type(value) is not int:
        value = _as_int(value, name, routine)
    if value < 0:
        raise logic_error(routine, "%s = %d is negative" % (name, value))
    if value > limit:
        raise logic_error(routine, "%s = %d exceeds the limit of %d" % (name, value, limit))
    return value


def _as_int(value: Any, name: str, routine: str) -> int:
    """``value`` as a plain int: ints, numpy integers and 0-d integer arrays
    (``operator.index``); bools (numpy's too) are flags, not numbers."""
    if not isinstance(value, (bool, np.bool_)):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError("%s: %s must be an int, not %s" % (routine, name, type(value).__name__))


def no_offset(value: Any, name: str, routine: str, instead: str) -> None:
    """An offset that the route cannot honour: it must be 0; ``instead``
    says what to pass instead."""
    if type(value) is not int or value != 0:  # the type first: an array compares to an array
        value = size_value(value, name, routine)
        if value:
            raise logic_error(routine, "%s = %d applies where offsets are not supported: %s" % (name, value, instead))


def sizes(value: Any, name: str, routine: str) -> tuple[int, ...]:
    """A shape or strides: a tuple (or list) of size values; an int is a
    1-tuple."""
    if type(value) is tuple:
        for v in value:
            if type(v) is not int or not 0 <= v <= SIZE_LIMIT:
                break
        else:
            return value
    elif not isinstance(value, list):
        return (size_value(value, name, routine),)
    return tuple(size_value(v, "%s[%d]" % (name, i), routine) for i, v in enumerate(value))


def triple(value: Any, name: str, pad: int, routine: str) -> tuple[int, ...]:
    """An origin or region: a tuple (or list) of 1 to 3 size values, padded
    to 3 with ``pad`` (0 for origins, 1 for regions)."""
    if type(value) is tuple:
        # The common case, a tuple of plain ints, unrolled: no loop, no call.
        n = len(value)
        if n == 3:
            a, b, c = value
        elif n == 2:
            (a, b), c = value, pad
        elif n == 1:
            a, b, c = value[0], pad, pad
        else:
            a = b = c = None
        if (
            type(a) is int
            and type(b) is int
            and type(c) is int
            and 0 <= a <= SIZE_LIMIT
            and 0 <= b <= SIZE_LIMIT
            and 0 <= c <= SIZE_LIMIT
        ):
            return (a, b, c)
    if not isinstance(value, (tuple, list)):
        raise TypeError("%s: %s must be a tuple of 1 to 3 ints, not %s" % (routine, name, type(value).__name__))
    if not 1 <= len(value) <= 3:
        raise logic_error(routine, "%s = %r must have 1 to 3 entries" % (name, tuple(value)))
    out = tuple(size_value(v, "%s[%d]" % (name, i), routine) for i, v in enumerate(value))
    return out + (pad,) * (3 - len(out))


def pitch_pair(value: Any, name: str, routine: str) -> tuple[int, int]:
    """Row and slice pitches: None or a tuple (or list) of at most 2 size
    values, padded with 0 (0: tightly packed)."""
    if value is None:
        return (0, 0)
    if type(value) is tuple:
        n = len(value)
        a = value[0] if n else 0
        b = value[1] if n == 2 else 0
        if n < 3 and type(a) is int and type(b) is int and 0 <= a <= SIZE_LIMIT and 0 <= b <= SIZE_LIMIT:
            return (a, b)
    if not isinstance(value, (tuple, list)):
        raise TypeError("%s: %s must be a tuple of at most 2 ints, not %s" % (routine, name, type(value).__name__))
    if len(value) > 2:
        raise logic_error(routine, "%s = %r must have at most 2 entries" % (name, tuple(value)))
    out = [size_value(v, "%s[%d]" % (name, i), routine) for i, v in enumerate(value)]
    return (out[0] if out else 0, out[1] if len(out) == 2 else 0)


# The largest OpenCL data type (long16, double16) has 128 bytes, which bounds
# the alignment clSVMAlloc accepts.
MAX_ALIGNMENT = 128
ALIGNMENTS = frozenset([0] + [1 << i for i in range(MAX_ALIGNMENT.bit_length())])  # what alignment_value accepts


def alignment_value(value: Any, routine: str) -> int:
    """An SVM alignment: 0 (the driver's default) or a power of two up to
    MAX_ALIGNMENT."""
    if type(value) is int and value in ALIGNMENTS:
        return value
    alignment = size_value(value, "alignment", routine)
    if alignment & (alignment - 1):
        raise logic_error(routine, "alignment = %d is not 0 or a power of two" % alignment)
    if alignment > MAX_ALIGNMENT:
        raise logic_error(
            routine,
            "alignment = %d is larger than %d bytes, the largest OpenCL data type (long16), which OpenCL "
            "allows at most" % (alignment, MAX_ALIGNMENT),
        )
    return alignment


# }}}


# {{{ flags


def _known_bits(cls: type[ConstantClass]) -> int:
    bits = 0
    for name in dir(cls):
        if name.isupper():
            bits |= getattr(cls, name)
    return bits


_KNOWN_BITS: dict[type, int] = {}  # constant class -> the union of its flags


def bits_value(value: Any, name: str, cls: type[ConstantClass], routine: str) -> int:
    """A flag set of constant class ``cls``: an int in 0 .. ULONG_LIMIT
    with no bits that ``cls`` does not define."""
    value = ulong_value(value, name, routine)
    known = _KNOWN_BITS.get(cls)
    if known is None:
        known = _KNOWN_BITS[cls] = _known_bits(cls)
    if value & ~known:
        raise logic_error(routine, "%s = 0x%x holds bits that are no %s" % (name, value, cls.__name__))
    return value


def exclusive(flags: int, group: int, cls: type[ConstantClass], name: str, routine: str) -> None:
    """At most one flag of ``group`` may be set in ``flags``."""
    bits = flags & group
    if bits & (bits - 1):
        raise logic_error(
            routine,
            "%s = %s combine mutually exclusive flags %s" % (name, cls.to_string(flags, "0x%x"), cls.to_string(bits)),
        )


_valid_mem_flags: set[int] = set()  # mem_flags ints that passed mem_flags_value


def mem_flags_value(flags: Any, routine: str, name: str = "flags") -> int:
    """``mem_flags`` as OpenCL takes them: known bits, one access flag, one
    host-access flag, USE_HOST_PTR with neither ALLOC nor COPY_HOST_PTR."""
    if type(flags) is int and flags in _valid_mem_flags:
        return flags
    flags = bits_value(flags, name, _mf, routine)
    exclusive(flags, ACCESS_FLAGS, _mf, name, routine)
    exclusive(flags, HOST_ACCESS_FLAGS, _mf, name, routine)
    if flags & _mf.USE_HOST_PTR and flags & (_mf.ALLOC_HOST_PTR | _mf.COPY_HOST_PTR):
        raise logic_error(
            routine, "%s = %s: USE_HOST_PTR excludes ALLOC_HOST_PTR and COPY_HOST_PTR" % (name, _mf.to_string(flags))
        )
    if len(_valid_mem_flags) < 4096:
        _valid_mem_flags.add(flags)
    return flags


_smf = _constants.svm_mem_flags


def svm_flags_value(flags: Any, routine: str) -> int:
    """``svm_mem_flags``: known bits, one access flag, SVM_ATOMICS only with
    SVM_FINE_GRAIN_BUFFER."""
    flags = bits_value(flags, "flags", _smf, routine)
    exclusive(flags, _smf.READ_WRITE | _smf.WRITE_ONLY | _smf.READ_ONLY, _smf, "flags", routine)
    if flags & _smf.SVM_ATOMICS and not flags & _smf.SVM_FINE_GRAIN_BUFFER:
        raise logic_error(routine, "flags = %s: SVM_ATOMICS needs SVM_FINE_GRAIN_BUFFER" % _smf.to_string(flags))
    return flags


_map = _constants.map_flags
_MAP_ONE_OF = frozenset([_map.READ, _map.WRITE, _map.READ | _map.WRITE, _map.WRITE_INVALIDATE_REGION])
# (map flags, memory object's flags) that passed map_flags_value: also the
# test of the maps' one-pass paths.
VALID_MAP_FLAGS: set[tuple[int, int]] = set()


def map_flags_value(flags: Any, mem: Optional[MemoryObject], routine: str) -> int:
    """``map_flags`` for a map of ``mem`` (None for SVM, which has no host
    access flags): READ and/or WRITE, or WRITE_INVALIDATE_REGION alone,
    allowed by the object's host access flags."""
    mem_flags = 0 if mem is None else mem._flags
    if type(flags) is int and (flags, mem_flags) in VALID_MAP_FLAGS:
        return flags
    flags = bits_value(flags, "flags", _map, routine)
    if flags not in _MAP_ONE_OF:
        if not flags:
            raise logic_error(routine, "flags = 0 maps nothing: pass map_flags READ, WRITE or WRITE_INVALIDATE_REGION")
        raise logic_error(
            routine, "flags = %s: WRITE_INVALIDATE_REGION excludes READ and WRITE" % _map.to_string(flags)
        )
    if mem is not None:
        if flags & _map.READ:
            host_access(mem, NO_HOST_READ, routine, "map it for reading")
        if flags & (_map.WRITE | _map.WRITE_INVALIDATE_REGION):
            host_access(mem, NO_HOST_WRITE, routine, "map it for writing")
    if len(VALID_MAP_FLAGS) < 1024:
        VALID_MAP_FLAGS.add((flags, mem_flags))
    return flags


def host_access(mem: MemoryObject, forbidden: int, routine: str, what: str) -> None:
    """Refuse a host access that ``mem``'s HOST_* flags in ``forbidden`` rule out."""
    if mem._flags & forbidden:
        raise logic_error(
            routine,
            "%r was made with %s: the host may not %s" % (mem, _mf.to_string(mem._flags & forbidden), what),
            lib.CL_INVALID_OPERATION,
        )


def property_list(properties: Iterable[Any], routine: str, limit: int = ULONG_LIMIT, bools: bool = False) -> list[int]:
    """Properties as a flat list of keys and values, from pairs or from a
    flat sequence (a trailing 0 terminator dropped); each an int in
    0 .. ``limit`` named ``properties[i]`` (or a bool where ``bools``)."""
    if isinstance(properties, (str, bytes)) or not hasattr(properties, "__iter__"):
        raise TypeError(
            "%s: properties must be a sequence of keys and values, not %s" % (routine, type(properties).__name__)
        )
    flat: list[Any] = []
    for item in properties:
        if isinstance(item, (tuple, list)):
            flat.extend(item)
        else:
            flat.append(item)
    if len(flat) % 2 and type(flat[-1]) is int and flat[-1] == 0:
        flat.pop()
    if len(flat) % 2:
        raise logic_error(routine, "properties = %r must be pairs of keys and values" % (flat,))
    return [
        int(v) if bools and isinstance(v, bool) else bounded_value(v, "properties[%d]" % i, routine, limit)
        for i, v in enumerate(flat)
    ]


def properties_array(properties: Optional[Iterable[Any]], ctype: str, routine: str) -> Any:
    """``properties`` (see ``property_list``) as a 0-terminated ``ctype``
    array, or NULL for None or none."""
    if not properties:
        return ffi.NULL
    flat = property_list(properties, routine)
    return ffi.new(ctype + "[]", flat + [0]) if flat else ffi.NULL


# }}}


# {{{ wait lists, queues and memory objects


# The classes whose objects are events (Event, its subclasses): learned at
# the first wait list that holds one, so that a list is checked with one
# look-up per event (PyOpenCL's arrays wait for a dozen events at a time).
EVENT_TYPES: set[type] = set()  # (learned: see above)


def wait_list(wait_for: WaitList, routine: str) -> tuple[int, Any]:
    """``(count, cl_event array or NULL)`` for a ``wait_for`` argument."""
    if not wait_for:
        return 0, ffi.NULL
    if type(wait_for) is list and len(wait_for) == 1 and type(wait_for[0]) in EVENT_TYPES:
        handle = wait_for[0]._handle  # the common case, in one step
        if handle is not None:
            return 1, ffi.new("cl_event *", handle)
    elif type(wait_for) is list or type(wait_for) is tuple:
        # Live events of classes seen before: their handles in one
        # comprehension, converted by ffi.new in C (assigning them one by
        # one into a new array cost 10 events 0.2 us more on CPython 3.11,
        # measured 2026-11-28). Anything else gives a None, which ffi.new
        # refuses; the checks below then name it.
        try:
            return len(wait_for), ffi.new(
                "cl_event[]", [waited._handle if type(waited) in EVENT_TYPES else None for waited in wait_for]
            )
        except TypeError:
            pass
    try:
        # Only events: another handle's cl_* pointer would reach the driver
        # as a cl_event. A released event is named; an iterator is read once.
        handles = [_event_handle(e) for e in wait_for]
    except TypeError:
        handles = [None]
    if None in handles:
        raise TypeError("%s: wait_for must be a sequence of pycl.Event, got %r" % (routine, wait_for))
    return len(handles), ffi.new("cl_event[]", handles)


def _event_handle(obj: Any) -> Any:
    """The live handle of event ``obj``, None if it is no event."""
    if isinstance(obj, Handle) and obj._ctype == "cl_event":
        EVENT_TYPES.add(type(obj))
        return obj._live()
    return None


def mem_handle(mem: MemoryObject, queue: Any, routine: str, name: str) -> Any:
    """The live handle of memory object ``mem``, checked against the queue's context."""
    handle = mem._live()
    if mem._ctx_ptr != queue._context._ptr:
        raise logic_error(
            routine,
            "%s (%r) belongs to another context than the queue" % (name, mem),
            lib.CL_INVALID_CONTEXT,
        )
    return handle


# }}}


# {{{ host buffers


def describe(obj: object) -> str:
    """A short description of a host object for messages."""
    shape = getattr(obj, "shape", None)
    dtype = getattr(obj, "dtype", None)
    if shape is not None and dtype is not None:
        return "%s of shape %r and dtype %s" % (type(obj).__name__, tuple(shape), dtype)
    return type(obj).__name__


# The pattern sizes that clEnqueueFillBuffer and clEnqueueSVMMemFill take.
PATTERN_SIZES = (1, 2, 4, 8, 16, 32, 64, 128)


def fill_pattern(pattern: Any, routine: str) -> Any:
    """The bytes of a fill's ``pattern`` (a buffer-protocol object of 1, 2,
    4, ... 128 bytes)."""
    data = host_bytes(pattern, False, routine, "pattern")
    if len(data) not in PATTERN_SIZES:
        raise logic_error(
            routine,
            "pattern (%s) has %d bytes; OpenCL takes 1, 2, 4, 8, 16, 32, 64 or 128" % (describe(pattern), len(data)),
        )
    return data


def host_bytes(obj: HostSource, writable: bool, routine: str, name: str) -> Any:
    """``char[]`` cdata over the bytes of host object ``obj``, with no hidden
    copy; ``len()`` is the byte count. The cdata keeps a buffer export of the
    object open, so a ``bytearray`` cannot be resized while a transfer holds
    it.

    Any C-contiguous buffer-protocol object goes through ``ffi.from_buffer``
    (the same on CPython and PyPy); a Fortran-contiguous numpy array is
    accepted too (its transpose is C-contiguous over the same bytes, as
    PyOpenCL accepts any contiguous array). Anything else is refused: not a
    buffer or not contiguous, ``TypeError`` (pycl never copies behind the
    caller's back: a copy would silently drop the data of a read); a numpy
    array of Python objects, ``TypeError`` (a read would write pointers);
    read-only where the transfer writes into host memory (``writable``),
    ``LogicError``. ``name`` is the argument's name for messages.
    """
    if isinstance(obj, np.ndarray) and obj.dtype.hasobject:
        raise TypeError(
            "%s: %s (%s) holds Python objects, whose bytes are pointers: pass an array of plain values"
            % (routine, name, describe(obj))
        )
    try:
        # Positional: cffi's keyword parsing cost 0.14 us of each host
        # transfer on CPython 3.11 (0.27 against 0.13 us, 2026-11-27).
        return ffi.from_buffer("char[]", obj, writable)
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
            return ffi.from_buffer("char[]", obj.T, writable)
        if not view.contiguous:
            raise TypeError(
                "%s: %s (%s) is not contiguous; pycl makes no hidden copies: pass "
                "numpy.ascontiguousarray(%s) (and copy the result back for a destination)"
                % (routine, name, describe(obj), name)
            )
        return ffi.from_buffer("char[]", obj, writable)
    finally:
        view.release()


# }}}


_dtypes: dict[Any, np.dtype[Any]] = {}


def dtype_of(dtype: DTypeLike) -> np.dtype[Any]:
    """``numpy.dtype(dtype)``, memoized for hashable specs such as ``np.float32``."""
    try:
        return _dtypes[dtype]
    except (KeyError, TypeError):
        result = np.dtype(dtype)
        try:
            if len(_dtypes) < 256:
                _dtypes[dtype] = result
        except TypeError:
            pass
        return result


# A dtype spec -> (numpy.dtype, its typestr), the typestr None where the
# dtype has fields, a subarray or Python objects: a map's fast path reads
# both in one look-up (numpy.dtype() of np.float32 and .str cost 0.25 us
# together on CPython 3.11, a twentieth of a map and its unmap).
DTYPE_ENTRIES: dict[Any, tuple[np.dtype[Any], Optional[str]]] = {}


def dtype_entry(dtype: DTypeLike) -> tuple[np.dtype[Any], Optional[str]]:
    """``DTYPE_ENTRIES[dtype]``, made (and kept, for a hashable spec) if
    missing; raises numpy's TypeError for what is not a dtype."""
    try:
        return DTYPE_ENTRIES[dtype]
    except (KeyError, TypeError):
        result = np.dtype(dtype)
        plain = result.fields is None and result.subdtype is None and not result.hasobject
        entry = (result, result.str if plain else None)
        try:
            if len(DTYPE_ENTRIES) < 256:
                DTYPE_ENTRIES[dtype] = entry
        except TypeError:
            pass
        return entry
