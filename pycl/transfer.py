"""Transfers: ``enqueue_copy`` and its routes, fills, migration, AMD P2P copies.

``enqueue_copy(queue, dest, src, **kwargs)`` looks up the pair of transfer
kinds ``(kind(dest), kind(src))`` in a table of routes. A kind is an object's
``_transfer_kind`` attribute ("buffer" for buffers; images and SVM pointers
name theirs) and "host" for anything else. Each pair holds a list of routes:
those with a *selector* keyword (``buffer_origin`` selects the rectangular
host copy, ``src_origin`` the rectangular buffer copy, as in PyOpenCL) are
tried first, then the default. This module registers the buffer routes
(``pycl._buffer_copy``, ``pycl._rect``); images and SVM add theirs with
``register_route`` from their own modules; this one never changes for them
(docs/design.md, "Enqueue routes").

Every route checks every offset, origin, region, pitch and byte count against
both sides before any C call and raises ``LogicError`` naming the argument, its
value and the limit (``TypeError`` for wrong types): nothing out of range
reaches the driver, which matters on Oclgrind, which checks nothing.

A transfer of zero bytes (an empty host array, ``byte_count=0``, a region
with a zero) enqueues a marker instead: it orders like the copy would and
returns the same class of event (PyOpenCL passes it to the driver, which
refuses empty rect regions).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from pycl import _wards
from pycl import constants as _constants
from pycl._args import PATTERN_SIZES, bits_value, fill_pattern, mem_handle, size_value, wait_list
from pycl._buffer_copy import ALIASES, copy_buffer, fast_host_copy, read_buffer, write_buffer
from pycl._enqueue import (
    _host_types,
    enqueued,
    fills,
    kind_text,
    marker,
    register_fill,
    register_route,
    route,
    routes,
    transfer_kind,
)
from pycl._lib import ffi, lib
from pycl._rect import copy_buffer_rect, read_buffer_rect, write_buffer_rect
from pycl.errors import UnavailableError, check, logic_error
from pycl.event import Event, out_cell
from pycl.memory import MemoryObject
from pycl.platform import Platform
from pycl.queue import CommandQueue, queue_handle

if TYPE_CHECKING:
    from pycl._enqueue import Route
    from pycl._typing import HostSource, Size, WaitList
    from pycl.memory import Buffer

__all__ = [
    "enqueue_copy",
    "enqueue_fill_buffer",
    "enqueue_fill",
    "enqueue_migrate_mem_objects",
    "enqueue_copy_buffer_p2p_amd",
    "register_route",
    "route",
    "register_fill",
    "transfer_kind",
]


# {{{ enqueue_copy


def enqueue_copy(queue: CommandQueue, dest: object, src: object, **kwargs: Any) -> Event:
    """Copy between buffers (and images, SVM) and host memory; see PyOpenCL's
    ``enqueue_copy`` for the keyword arguments of each combination. Returns a
    ``NannyEvent`` if host memory is involved, else an ``Event``.

    Differences from PyOpenCL: buffer->buffer without ``byte_count`` copies
    ``min(src.size - src_offset, dest.size - dst_offset)`` bytes (as the
    documentation says; PyOpenCL copies the source size and fails on a smaller
    destination); a dropped ``NannyEvent`` never blocks (pycl keeps the host
    object alive instead); zero-byte transfers enqueue a marker.
    """
    if not kwargs and type(queue) is CommandQueue:
        # The most frequent calls, a blocking copy between a whole host array
        # and the start of a buffer (see fast_host_copy) and a copy between
        # two buffers, without the routes' look-up.
        if isinstance(dest, MemoryObject):
            if dest._transfer_kind == "buffer":
                if not isinstance(src, MemoryObject):
                    event = fast_host_copy(queue, dest, src, False)
                    if event is not None:
                        return event
                elif src._transfer_kind == "buffer":
                    return copy_buffer(queue, dest, src)  # type: ignore[arg-type]  # both of kind "buffer"
        elif isinstance(src, MemoryObject) and src._transfer_kind == "buffer":
            event = fast_host_copy(queue, src, dest, True)
            if event is not None:
                return event
    elif type(queue) is CommandQueue and len(kwargs) <= 3:
        # The same copies with a buffer offset, a wait list or non-blocking.
        if isinstance(dest, MemoryObject):
            if dest._transfer_kind == "buffer" and not isinstance(src, MemoryObject) and kwargs.keys() <= _WRITE_KEYS:
                event = fast_host_copy(
                    queue,
                    dest,
                    src,
                    False,
                    kwargs.get("dst_offset", 0),
                    kwargs.get("wait_for"),
                    kwargs.get("is_blocking", True),
                )
                if event is not None:
                    return event
        elif isinstance(src, MemoryObject) and src._transfer_kind == "buffer" and kwargs.keys() <= _READ_KEYS:
            event = fast_host_copy(
                queue,
                src,
                dest,
                True,
                kwargs.get("src_offset", 0),
                kwargs.get("wait_for"),
                kwargs.get("is_blocking", True),
            )
            if event is not None:
                return event
    # transfer_kind, inlined for host objects and memory objects (one test each).
    if type(dest) in _host_types:
        dest_kind = "host"
    else:
        dest_kind = dest._transfer_kind if isinstance(dest, MemoryObject) else transfer_kind(dest)
    if type(src) in _host_types:
        src_kind = "host"
    else:
        src_kind = src._transfer_kind if isinstance(src, MemoryObject) else transfer_kind(src)
    candidates = routes.get((dest_kind, src_kind))
    if candidates is None:
        raise TypeError(
            "enqueue_copy: cannot copy from %s to %s (host-to-host copies are unsupported)"
            % (kind_text(src), kind_text(dest))
        )
    for selector, keywords, function in candidates:
        if selector is None or selector in kwargs:
            if not keywords.issuperset(kwargs):
                unknown = sorted(set(kwargs) - keywords)
                raise TypeError(
                    "enqueue_copy: unexpected keyword argument(s) %s for a copy from %s to %s; it takes %s"
                    % (", ".join(unknown), kind_text(src), kind_text(dest), ", ".join(sorted(keywords)))
                )
            if "device_offset" in kwargs or "dest_offset" in kwargs:
                _check_alias_presence(function, kwargs)
            return function(queue, dest, src, **kwargs)
    # Only routes with a selector are left here (a default route returns
    # above), which mypy cannot follow: r[0] is a str.
    raise TypeError(
        "enqueue_copy: a copy from %s to %s needs one of the keyword arguments %s"
        % (kind_text(src), kind_text(dest), ", ".join(r[0] for r in candidates))  # type: ignore[misc]
    )


def _check_alias_presence(function: Route, kwargs: dict[str, Any]) -> None:
    """PyOpenCL refuses a deprecated keyword given together with its new
    name, whatever the new one's value (it tests presence): so does pycl."""
    old, new = ALIASES.get(function, (None, None))
    if old is not None and kwargs.get(old) is not None and new in kwargs:
        raise TypeError("enqueue_copy: may not specify both '%s' and '%s'" % (new, old))


# The keywords fast_host_copy takes, by direction.
_WRITE_KEYS = frozenset(("dst_offset", "wait_for", "is_blocking"))
_READ_KEYS = frozenset(("src_offset", "wait_for", "is_blocking"))
_HOST_RECT = ("buffer_origin", "host_origin", "region", "buffer_pitches", "host_pitches", "is_blocking", "wait_for")
_HOST_LINEAR = ("dst_offset", "src_offset", "is_blocking", "wait_for", "device_offset")
register_route("buffer", "host", write_buffer, _HOST_LINEAR)
register_route("buffer", "host", write_buffer_rect, _HOST_RECT, selector="buffer_origin")
register_route("host", "buffer", read_buffer, _HOST_LINEAR)
register_route("host", "buffer", read_buffer_rect, _HOST_RECT, selector="buffer_origin")
register_route("buffer", "buffer", copy_buffer, ("byte_count", "src_offset", "dst_offset", "wait_for", "dest_offset"))
register_route(
    "buffer",
    "buffer",
    copy_buffer_rect,
    ("src_origin", "dst_origin", "region", "src_pitches", "dst_pitches", "wait_for"),
    selector="src_origin",
)


# }}}


# {{{ fills


def enqueue_fill_buffer(
    queue: CommandQueue, mem: Buffer, pattern: HostSource, offset: Size, size: Size, wait_for: WaitList = None
) -> Event:
    """Fill ``size`` bytes of ``mem`` from ``offset`` with ``pattern`` (a
    buffer-protocol object of 1, 2, 4, ... 128 bytes, e.g. ``numpy.uint32(0)``);
    ``offset`` and ``size`` must be multiples of the pattern size. OpenCL 1.2."""
    if _wards._pending:
        _wards.prune_completed_front()
    # The common call in one pass: a live buffer of the queue's context, a
    # pattern of a size OpenCL takes (a numpy scalar, most often), plain
    # offset and size that are multiples of it and inside the buffer, no
    # wait list. Anything else, mistakes included, takes the general path
    # below, which checks again and names it.
    if (
        type(queue) is CommandQueue
        and type(offset) is int
        and type(size) is int
        and isinstance(mem, MemoryObject)
        and mem._transfer_kind == "buffer"
        and not wait_for
        and not (isinstance(pattern, np.ndarray) and pattern.dtype.hasobject)  # the general path refuses it
    ):
        q = queue._handle
        handle = mem._handle
        if q is not None and handle is not None and mem._ctx_ptr == queue._context._ptr:
            try:
                data = _from_buffer("char[]", pattern)
            except (TypeError, ValueError, BufferError):
                data = None
            if data is not None:
                p = len(data)
                if p in _PATTERN_SIZES and 0 <= offset and 0 < size and not offset % p and not size % p:
                    if offset + size <= mem._size:
                        out = out_cell()[0]
                        status = _fill_buffer(q, handle, data, p, offset, size, 0, _NULL, out)
                        return enqueued(
                            status,
                            out,
                            "clEnqueueFillBuffer",
                            "pattern of %d bytes, offset %d, size %d",
                            p,
                            offset,
                            size,
                        )
    routine = "enqueue_fill_buffer"
    q = queue_handle(queue, routine)
    if not isinstance(mem, MemoryObject) or mem._transfer_kind != "buffer":
        raise TypeError("%s: mem must be a pycl.Buffer, not %s" % (routine, type(mem).__name__))
    handle = mem_handle(mem, queue, routine, "mem")
    data = fill_pattern(pattern, routine)
    p = len(data)
    offset = size_value(offset, "offset", routine)
    size = size_value(size, "size", routine)
    if offset % p:
        raise logic_error(routine, "offset = %d is not a multiple of the pattern size %d" % (offset, p))
    if size % p:
        raise logic_error(routine, "size = %d is not a multiple of the pattern size %d" % (size, p))
    if offset + size > mem._size:
        raise logic_error(
            routine,
            "offset %d + size %d = %d is past the end of mem (%d bytes)" % (offset, size, offset + size, mem._size),
        )
    count, events = wait_list(wait_for, routine)
    if size == 0:
        return marker(q, count, events, Event)
    out = out_cell()[0]
    status = _fill_buffer(q, handle, data, p, offset, size, count, events, out)
    return enqueued(status, out, "clEnqueueFillBuffer", "pattern of %d bytes, offset %d, size %d", p, offset, size)


_PATTERN_SIZES = frozenset(PATTERN_SIZES)
_from_buffer, _NULL, _fill_buffer = ffi.from_buffer, ffi.NULL, lib.pycl_enqueue_fill_buffer


def enqueue_fill(
    queue: CommandQueue, dest: object, pattern: HostSource, size: Size, *, offset: Size = 0, wait_for: WaitList = None
) -> Event:
    """Fill ``size`` bytes of ``dest`` (a Buffer, or an SVM pointer where
    supported) from ``offset`` with ``pattern``."""
    function = fills.get(transfer_kind(dest))
    if function is None:
        raise TypeError("enqueue_fill does not know how to fill %s" % kind_text(dest))
    return function(queue, dest, pattern, size, offset, wait_for)


register_fill(
    "buffer",
    lambda queue, dest, pattern, size, offset, wait_for: enqueue_fill_buffer(
        queue, dest, pattern, offset, size, wait_for
    ),
)


# }}}


# {{{ migration and P2P


def enqueue_migrate_mem_objects(
    queue: CommandQueue, mem_objects: Iterable[MemoryObject], flags: Size = 0, wait_for: WaitList = None
) -> Event:
    """Migrate ``mem_objects`` to the queue's device (or to the host with
    ``mem_migration_flags.HOST``). OpenCL 1.2."""
    routine = "enqueue_migrate_mem_objects"
    q = queue_handle(queue, routine)
    try:
        objects = list(mem_objects)
    except TypeError:
        raise TypeError("%s: mem_objects must be a sequence of memory objects" % routine) from None
    if not objects:
        raise logic_error(routine, "mem_objects is empty")
    handles: list[Any] = []
    for i, mem in enumerate(objects):
        if not isinstance(mem, MemoryObject):
            raise TypeError("%s: mem_objects[%d] is a %s, not a memory object" % (routine, i, type(mem).__name__))
        handles.append(mem_handle(mem, queue, routine, "mem_objects[%d]" % i))
    flags = bits_value(flags, "flags", _constants.mem_migration_flags, routine)
    count, events = wait_list(wait_for, routine)
    out = out_cell()[0]
    status = lib.pycl_enqueue_migrate(q, len(handles), ffi.new("cl_mem[]", handles), flags, count, events, out)
    return enqueued(status, out, "clEnqueueMigrateMemObjects")


_P2P_EXTENSION = "cl_amd_copy_buffer_p2p"
_p2p_functions: dict[int, Any] = {}  # platform handle -> function pointer


def _p2p_function(platform: Platform) -> Any:
    function = _p2p_functions.get(platform._ptr)
    if function is None:
        if _P2P_EXTENSION not in platform.extensions.split():
            raise UnavailableError(
                "enqueue_copy_buffer_p2p_amd",
                lib.PYCL_UNAVAILABLE,
                "platform %r does not provide the %s extension" % (platform.name, _P2P_EXTENSION),
            )
        out = ffi.new("void **")
        check(
            lib.pycl_get_extension_function(platform._live(), b"clEnqueueCopyBufferP2PAMD", out),
            "enqueue_copy_buffer_p2p_amd",
            _P2P_EXTENSION,
        )
        function = _p2p_functions[platform._ptr] = out[0]
    return function


def enqueue_copy_buffer_p2p_amd(
    platform: Platform,
    queue: CommandQueue,
    src: Buffer,
    dst: Buffer,
    byte_count: Optional[Size] = None,
    wait_for: WaitList = None,
) -> Event:
    """Copy between buffers of two devices in different contexts with AMD's
    ``cl_amd_copy_buffer_p2p`` extension; ``UnavailableError`` elsewhere.
    ``byte_count`` defaults to the smaller buffer's size. ``queue`` is the
    source's. (Keyword names as PyOpenCL's code has them.)"""
    routine = "enqueue_copy_buffer_p2p_amd"
    if not isinstance(platform, Platform):
        raise TypeError("%s: platform must be a pycl.Platform, not %s" % (routine, type(platform).__name__))
    for name, mem in (("src", src), ("dst", dst)):
        if not isinstance(mem, MemoryObject) or mem._transfer_kind != "buffer":
            raise TypeError("%s: %s must be a pycl.Buffer, not %s" % (routine, name, type(mem).__name__))
    q = queue_handle(queue, routine)
    src_mem = mem_handle(src, queue, routine, "src")
    dst_mem = dst._live()
    n = min(src._size, dst._size) if byte_count is None else size_value(byte_count, "byte_count", routine)
    if n > src._size or n > dst._size:
        raise logic_error(
            routine, "byte_count = %d exceeds src (%d bytes) or dst (%d bytes)" % (n, src._size, dst._size)
        )
    function = _p2p_function(platform)
    count, events = wait_list(wait_for, routine)
    out = out_cell()[0]
    status = lib.pycl_enqueue_copy_buffer_p2p_amd(function, q, src_mem, dst_mem, 0, 0, n, count, events, out)
    return enqueued(status, out, "clEnqueueCopyBufferP2PAMD")


# }}}
