"""The plumbing every enqueue shares: turning a driver call's status and
event cell into an Event, or into the error that names the call.
"""

from __future__ import annotations

from typing import Any

from pycl.errors import check
from pycl.event import Event, take_event

__all__ = ["enqueued"]


def enqueued(status: int, out: Any, out_int: Any, routine: str, detail: str = "", *detail_args: Any) -> Event:
    """The Event a call left in ``out_cell()`` (``out``, ``out_int``), or
    the error of ``status`` from ``routine``. ``detail % detail_args`` says
    what was asked; it is formatted only for an error."""
    if status:
        check(status, routine, detail % detail_args if detail_args else detail)
    return take_event(Event, out, out_int)
