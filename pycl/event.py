"""Events, user events, nanny events, markers and barriers, and the wait
lists every enqueue function takes."""

from __future__ import annotations

import threading
import warnings
from typing import TYPE_CHECKING, Any, Optional

from pycl import _info, _wards
from pycl._args import EVENT_TYPES, wait_list
from pycl._handle import Handle, out_cell
from pycl._lib import ffi, lib
from pycl.errors import check
from pycl.queue import CommandQueue, enqueue_handle

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TypeVar

    from pycl._typing import WaitList
    from pycl.context import Context
    from pycl.queue import CommandQueue

    _E = TypeVar("_E", bound="Event")

__all__ = [
    "out_cell",
    "take_event",
    "Event",
    "UserEvent",
    "NannyEvent",
    "wait_for_events",
    "enqueue_marker",
    "enqueue_barrier",
]


def take_event(cls: type[_E], cell: Any) -> _E:
    """A new ``cls`` (Event or a subclass) owning the event in ``cell``
    (``out_cell()[0]``)."""
    event = _new_object(cls)
    event._handle = _gc(cell[0], _release_event)
    return event


_new_object, _gc, _release_event = object.__new__, ffi.gc, lib.pycl_event_release
_event_status, _EXECUTION_STATUS = lib.pycl_event_status, lib.CL_EVENT_COMMAND_EXECUTION_STATUS
_event_wait, _event_wait_one = lib.pycl_event_wait, lib.pycl_event_wait_one


class _Profile:
    """``event.profile.start`` etc.: profiling info in nanoseconds."""

    __slots__ = ("_event",)
    _event: Event

    def __init__(self, event: Event) -> None:
        self._event = event

    def __getattr__(self, name: str) -> int:
        if not name.islower():
            # PyOpenCL 2026.1.4 still answers event.profile.START, with a warning.
            warnings.warn(
                "Using non-lower-case attributes with Event.profile is deprecated. Got: '%s', expected: '%s'."
                % (name, name.lower()),
                DeprecationWarning,
                stacklevel=2,
            )
            name = name.lower()
        param = _info.param_for_attribute("profiling", name)
        if param is None:
            raise AttributeError(name)
        return self._event.get_profiling_info(param)


class Event(Handle):
    """An OpenCL event."""

    # Every enqueue makes an Event, and its address is read only by ==,
    # hash, repr and int_ptr: so it is worked out from the handle when asked
    # for, and kept only at release. Storing it at each enqueue cost 0.05 to
    # 0.1 us of a 1.7 us launch (CPython 3.11, 2026-11-27).
    __slots__ = ("_released_ptr",)
    _released_ptr: int
    _ctype = "cl_event"
    _retain = lib.pycl_event_retain
    _release = lib.pycl_event_release
    _info_kind = "event"
    _invalid_code = lib.CL_INVALID_EVENT

    @property
    def _ptr(self) -> int:  # type: ignore[override]  # Handle's slot, read-only here
        handle = self._handle
        if handle is None:
            return self._released_ptr
        return int(ffi.cast("intptr_t", handle))

    def _adopt(self, raw: Any) -> None:
        self._handle = ffi.gc(raw, self._release)

    def release(self) -> None:
        if self._handle is not None:
            self._released_ptr = self._ptr
        Handle.release(self)

    def wait(self) -> None:
        """Block until the command completes (releasing the GIL meanwhile)."""
        # The event by value (pycl_event_wait_one): no list to fill.
        handle = self._handle
        status = _event_wait_one(handle if handle is not None else self._live())
        if status:
            check(status, "clWaitForEvents")
        if _wards._pending:
            _wards.prune()

    @property
    def command_execution_status(self) -> int:
        """``event_info.COMMAND_EXECUTION_STATUS``, queried at each read: one
        shim call (programs poll it). A negative answer, a failed command's
        status or the query's own error, is asked again through ``get_info``,
        which tells them apart."""
        handle = self._handle
        if handle is not None:
            status = _event_status(handle)
            if status >= 0:
                return status
        return _info.query(self, "event", _EXECUTION_STATUS)

    def get_profiling_info(self, param: int) -> int:
        """A ``profiling_info`` value in nanoseconds (queue needs PROFILING_ENABLE)."""
        return _info.query(self, "profiling", param)

    @property
    def profile(self) -> _Profile:
        """``profile.queued``, ``.submit``, ``.start``, ``.end``,
        ``.complete``: the ``profiling_info`` values in nanoseconds."""
        return _Profile(self)

    def set_callback(self, type: int, cb: Callable[[int], object]) -> None:
        """Call ``cb(status)`` on a thread of its own once the event reaches
        ``type`` (a ``command_execution_status``; OpenCL 1.1). As with
        PyOpenCL, ``cb`` never runs on the driver's thread nor inside the call
        that completed the event, so it may block, take the caller's locks or
        call OpenCL (which the specification forbids inside a driver callback)."""
        handle = self._live()
        reached = _reached_without_callback(handle, type)
        if reached is not None:
            threading.Thread(target=cb, args=(reached,), name="pycl event callback", daemon=True).start()
            return
        entry: list[Any] = [cb, None]
        entry[1] = ffi.new_handle(entry)
        with _callbacks_lock:
            _pending_callbacks.add(entry[1])
        status = lib.pycl_event_set_relayed_callback(handle, type, lib.pycl_event_callback, entry[1])
        if status:
            with _callbacks_lock:
                _pending_callbacks.discard(entry[1])
            check(status, "clSetEventCallback")


def _reached_without_callback(handle: Any, wanted: int) -> Optional[int]:
    """On drivers that never call a callback set on an event that has
    already reached the status (Oclgrind 21.10, docs/quirks.md): the status
    to call it with now, else None (the driver will call it)."""
    state = ffi.new("cl_int *")
    check(
        lib.pycl_event_get_info(handle, lib.CL_EVENT_COMMAND_EXECUTION_STATUS, ffi.sizeof("cl_int"), state, ffi.NULL),
        "clGetEventInfo",
    )
    if state[0] > wanted:
        return None
    from pycl.context import Context  # pycl.context imports this module

    platform = Context.from_int_ptr(event_context_ptr(handle)).devices[0].platform
    late = _no_late_callbacks.get(platform.int_ptr)
    if late is None:
        late = _no_late_callbacks[platform.int_ptr] = platform.name == "Oclgrind"
    if not late:
        return None
    return state[0] if state[0] < 0 else wanted


def event_context_ptr(handle: Any) -> int:
    """The address of the context of the event ``handle`` (a ``cl_event``)."""
    context = ffi.new("cl_context *")
    check(
        lib.pycl_event_get_info(handle, lib.CL_EVENT_CONTEXT, ffi.sizeof(context[0]), context, ffi.NULL),
        "clGetEventInfo",
    )
    return int(ffi.cast("intptr_t", context[0]))


# Platform handle (valid for the process) -> whether its driver never calls
# a callback set on an event that has already reached the status.
_no_late_callbacks: dict[int, bool] = {}

# The handles of callbacks not yet called: ffi.new_handle's object must stay
# alive until the driver calls back.
_pending_callbacks: set[Any] = set()
_callbacks_lock = threading.Lock()


@ffi.def_extern()
def pycl_event_callback(status: int, user_data: Any) -> None:
    # Called on the shim's callback thread (cl_shim/src/callback.c), never on
    # a driver's: the driver only queued the call there, so it holds none of
    # its locks while this waits for the GIL. The callables run on threads of
    # their own, so that one which blocks delays neither the callbacks queued
    # behind it nor the others of its event.
    entry = ffi.from_handle(user_data)
    with _callbacks_lock:
        _pending_callbacks.discard(entry[1])
    try:
        threading.Thread(target=entry[0], args=(status,), name="pycl event callback", daemon=True).start()
    except RuntimeError:  # the interpreter is shutting down: no new threads
        entry[0](status)


class UserEvent(Event):
    """``UserEvent(context)``: an event whose status the host sets."""

    __slots__ = ()

    def __init__(self, context: Context) -> None:
        raw = ffi.new("cl_event *")
        check(lib.pycl_user_event_create(context._live(), raw), "clCreateUserEvent")
        self._adopt(raw[0])

    def set_status(self, status: int) -> None:
        """``command_execution_status.COMPLETE`` or a negative error code."""
        check(lib.pycl_user_event_set_status(self._live(), status), "clSetUserEventStatus")


class NannyEvent(Event):
    """The event of a transfer that touches host memory; ``get_ward()`` is the
    host object, kept alive until the transfer completes."""

    __slots__ = ("_ward",)
    _ward: Any

    def get_ward(self) -> Any:
        """The host object of the transfer."""
        return self._ward


def event_from(raw_out: Any, cls: type[Event] = Event) -> Event:
    """The object for the event a call stored in ``raw_out`` (``cl_event *``)."""
    return cls._wrap(raw_out[0])


def wait_for_events(events: Sequence[Event]) -> None:
    """Wait for every event in ``events``."""
    if type(events) is list and len(events) == 1 and type(events[0]) in EVENT_TYPES and events[0]._handle is not None:
        # One live event, the most common list, without wait_list's array
        # (0.2 us of 0.6 on CPython 3.11).
        status = _event_wait_one(events[0]._handle)
    else:
        count, handles = wait_list(events, "wait_for_events")
        if not count:
            return
        status = _event_wait(count, handles)
    if status:
        check(status, "clWaitForEvents")
    if _wards._pending:
        _wards.prune()


def enqueue_marker(queue: CommandQueue, wait_for: WaitList = None) -> Event:
    """An event that completes when ``wait_for`` (or all prior commands) has."""
    # No wait list, and a live queue of pycl's own class, without the calls
    # that check them (wait_list, enqueue_handle, take_event).
    count, handles = (0, _NULL) if not wait_for else wait_list(wait_for, "enqueue_marker")
    q = queue._handle if type(queue) is CommandQueue else None
    if q is None or queue._used_after_exit:
        q = enqueue_handle(queue)
    out = out_cell()[0]
    status = _enqueue_marker(q, count, handles, out)
    if status:
        check(status, "clEnqueueMarkerWithWaitList")
    event = _new_object(Event)
    event._handle = _gc(out[0], _release_event)
    return event


def enqueue_barrier(queue: CommandQueue, wait_for: WaitList = None) -> Event:
    """Like ``enqueue_marker``, and later commands wait for it."""
    # As enqueue_marker.
    count, handles = (0, _NULL) if not wait_for else wait_list(wait_for, "enqueue_barrier")
    q = queue._handle if type(queue) is CommandQueue else None
    if q is None or queue._used_after_exit:
        q = enqueue_handle(queue)
    out = out_cell()[0]
    status = _enqueue_barrier(q, count, handles, out)
    if status:
        check(status, "clEnqueueBarrierWithWaitList")
    event = _new_object(Event)
    event._handle = _gc(out[0], _release_event)
    return event


_enqueue_marker, _enqueue_barrier, _NULL = lib.pycl_enqueue_marker, lib.pycl_enqueue_barrier, ffi.NULL


def _wrap_event(raw: Any) -> Event:
    check(lib.pycl_event_retain(raw), "clRetainEvent")
    return Event._wrap(raw)


_info.register_wrapper("event", _wrap_event)
