"""Keeping host memory alive while a non-blocking transfer uses it.

A transfer that touches host memory returns a ``NannyEvent`` whose
``get_ward()`` is the host object. PyOpenCL keeps the object alive by making
the NannyEvent's destructor *wait* for the transfer, which blocks inside a
finalizer. pycl instead keeps, for every non-blocking transfer, a pending entry
``(own reference to the event, host object and its buffer export)`` in a list
that is pruned by event status:

- at later transfers, from the oldest entry until the first one still running
  (commands of an in-order queue complete in order, so this is exact and O(1)
  in the common case), with a full scan whenever the list has doubled;
- fully after ``CommandQueue.finish()``, ``Event.wait()`` and
  ``wait_for_events()``.

Dropping a pending ``NannyEvent`` therefore never blocks, and the host memory
stays valid until the command has completed (or failed). The pending entry owns
its own retained ``cl_event``, so even an explicit ``event.release()`` is safe.
"""

from __future__ import annotations

import threading
from typing import Any

from pycl._lib import ffi, lib
from pycl.errors import check

__all__ = ["keep", "prune", "prune_completed_front", "pending_count"]

_pending: list[tuple[Any, object]] = []  # [(event cdata with ffi.gc, keepalive)], oldest first
_lock = threading.Lock()
_full_scan_at = 16
_event_status, _COMPLETE = lib.pycl_event_status, lib.CL_COMPLETE


def _done(event: Any) -> bool:
    # COMPLETE (0), a failed command (< 0), or an event the driver no longer
    # knows (the query's error, < 0 too), which cannot be running.
    return _event_status(event) <= _COMPLETE


def keep(raw_event: Any, keepalive: object) -> None:
    """Keep ``keepalive`` until ``raw_event`` (a ``cl_event``) completes."""
    check(lib.pycl_event_retain(raw_event), "clRetainEvent")
    entry = (ffi.gc(raw_event, lib.pycl_event_release), keepalive)
    with _lock:
        _pending.append(entry)
        grow = len(_pending) >= _full_scan_at
    if grow:
        prune()


def prune_completed_front() -> None:
    """Drop completed entries from the front, stopping at a running one."""
    with _lock:
        n = 0
        for event, _ in _pending:
            if not _done(event):
                break
            n += 1
        if n:
            del _pending[:n]


def prune() -> None:
    """Drop every completed entry (a full scan)."""
    global _full_scan_at
    with _lock:
        _pending[:] = [entry for entry in _pending if not _done(entry[0])]
        _full_scan_at = max(16, 2 * len(_pending))


def pending_count() -> int:
    """How many host objects are held for running transfers (for tests)."""
    return len(_pending)
