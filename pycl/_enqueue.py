"""The plumbing every enqueue shares: turning a driver call's status and
event cell into an Event, or into the error that names the call; the
markers that stand in for empty transfers; the NannyEvent of a host
transfer; and the table of ``enqueue_copy``'s routes and ``enqueue_fill``'s
fills, which the modules of each kind of memory object fill in
(docs/design.md, "Enqueue routes").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Callable, Optional

from pycl import _wards
from pycl._args import describe
from pycl._lib import ffi, lib
from pycl.errors import check
from pycl.event import Event, NannyEvent, out_cell, take_event

if TYPE_CHECKING:
    from typing import TypeVar

    _E = TypeVar("_E", bound=Event)
    # A route of enqueue_copy: function(queue, dest, src, **kwargs) -> event.
    Route = Callable[..., Event]
    # A fill of enqueue_fill: function(queue, dest, pattern, size, offset, wait_for) -> event.
    Fill = Callable[..., Event]

__all__ = [
    "enqueued",
    "marker",
    "nanny_marker",
    "nanny",
    "transfer_kind",
    "kind_text",
    "routes",
    "route",
    "register_route",
    "fills",
    "register_fill",
]


# {{{ events of enqueued commands


def enqueued(status: int, out: Any, routine: str, detail: str = "", *detail_args: Any) -> Event:
    """The Event a call left in ``out`` (``out_cell()[0]``), or
    the error of ``status`` from ``routine``. ``detail % detail_args`` says
    what was asked; it is formatted only for an error."""
    if status:
        check(status, routine, detail % detail_args if detail_args else detail)
    # take_event(Event, out), inlined: the epilogue stands in for
    # that call on every enqueue and must cost no more than it did.
    event = _new_object(Event)
    event._handle = _gc(out[0], _release_event)
    return event


_new_object, _gc, _release_event = object.__new__, ffi.gc, lib.pycl_event_release


def marker(q: Any, count: int, events: Any, cls: type[_E]) -> _E:
    """A marker on queue handle ``q`` after the ``count`` ``events``: what a
    transfer of zero bytes enqueues, as an event of the class the transfer
    would have returned."""
    out = out_cell()[0]
    check(lib.pycl_enqueue_marker(q, count, events, out), "clEnqueueMarkerWithWaitList")
    return take_event(cls, out)


def nanny_marker(q: Any, count: int, events: Any, host_obj: object) -> NannyEvent:
    """The marker of an empty host transfer, keeping ``host_obj`` as its ward."""
    event = marker(q, count, events, NannyEvent)
    event._ward = host_obj
    return event


def nanny(out: Any, host_obj: object, host: Any, is_blocking: bool) -> NannyEvent:
    """The NannyEvent of a host transfer (its event in ``out_cell()``); a
    non-blocking one keeps the host object (and its buffer export ``host``)
    until it completes."""
    event = take_event(NannyEvent, out)
    event._ward = host_obj
    if not is_blocking:
        _wards.keep(event._handle, host)
    return event


# }}}


# {{{ route table


def transfer_kind(obj: object) -> str:
    """``"buffer"``, ``"image"``, ``"svm"`` ... or ``"host"`` for a host object."""
    if type(obj) in _host_types:
        return "host"
    kind = getattr(obj, "_transfer_kind", None)
    if kind is None:
        # Remembered by type: getattr's failed look-up costs an exception
        # inside, on every numpy array.
        if len(_host_types) < 256:
            _host_types.add(type(obj))
        return "host"
    return kind


_host_types: set[type[Any]] = set()  # types without _transfer_kind (numpy.ndarray, bytearray ...)


def kind_text(obj: object) -> str:
    """``obj``'s transfer kind and type, for a message."""
    kind = transfer_kind(obj)
    return "host (%s)" % describe(obj) if kind == "host" else "%s (%s)" % (kind, type(obj).__name__)


# (dest kind, src kind) -> [(selector or None, allowed keywords, function)]
routes: dict[tuple[str, str], list[tuple[Optional[str], frozenset[str], Route]]] = {}


def route(dest_kind: str, src_kind: str) -> Route:
    """The default route (the one without a selector) for a pair of kinds:
    for callers that know their kinds and keywords (PyOpenCL's
    ``_enqueue_read_buffer`` and ``_enqueue_write_buffer``), which it spares
    ``enqueue_copy``'s look-up and keyword check."""
    return next(function for selector, _, function in routes[(dest_kind, src_kind)] if selector is None)


def register_route(
    dest_kind: str, src_kind: str, function: Route, keywords: Iterable[str], selector: Optional[str] = None
) -> None:
    """Serve ``enqueue_copy(queue, dest, src, **kwargs)`` for the pair of
    kinds with ``function(queue, dest, src, **kwargs)``; ``keywords`` lists
    the keyword arguments it takes; a ``selector`` keyword, when present in
    the call, chooses this route over the pair's default (selector None)."""
    pair = routes.setdefault((dest_kind, src_kind), [])
    entry = (selector, frozenset(keywords), function)
    pair[:] = [r for r in pair if r[0] != selector]
    if selector is None:
        pair.append(entry)
    else:
        pair.insert(0, entry)


fills: dict[str, Fill] = {}  # transfer kind -> function(queue, dest, pattern, size, offset, wait_for)


def register_fill(kind: str, function: Fill) -> None:
    """Serve ``enqueue_fill`` for destinations of ``kind`` (SVM adds its own)."""
    fills[kind] = function


# }}}
